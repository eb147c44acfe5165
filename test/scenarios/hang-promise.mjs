// Test scenario: from iteration 500 the iteration returns a promise that
// never settles while a timer keeps the worker's event loop alive.
export default {
  setup() {
    return {};
  },
  iteration(_state, ctx) {
    if (ctx.iteration < 500) return undefined;
    setInterval(() => {}, 1000);
    return new Promise(() => {});
  },
};
