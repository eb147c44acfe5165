// Test scenario: setup() never resolves (a timer keeps the event loop alive).
export default {
  setup() {
    setInterval(() => {}, 1000);
    return new Promise(() => {});
  },
  iteration() {},
};
