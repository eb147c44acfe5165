// Test scenario: setup() calls process.exit(7).
export default {
  setup() {
    process.exit(7);
  },
  iteration() {},
};
