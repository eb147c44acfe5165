// Test scenario: stats() never settles (a timer keeps the event loop alive).
export default {
  setup() {
    setInterval(() => {}, 1000);
    return {};
  },
  iteration() {},
  stats() {
    return new Promise(() => {});
  },
};
