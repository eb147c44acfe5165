// Test scenario: setup itself fails.
export default {
  async setup() {
    throw new Error('cannot open the database');
  },
  iteration() {},
};
