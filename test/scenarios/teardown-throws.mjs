// Test scenario: teardown() throws.
export default {
  setup() {
    return {};
  },
  iteration() {},
  teardown() {
    throw new TypeError('teardown broke');
  },
};
