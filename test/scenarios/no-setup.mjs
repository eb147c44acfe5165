// Test scenario: malformed (no setup).
export default { iteration() {} };
