// Test scenario: malformed (neither iteration nor ops).
export default { setup() {} };
