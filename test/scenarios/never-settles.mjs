// Test scenario: at iteration 100 the iteration returns a promise that
// never settles and nothing else is left in the worker's event loop.
export default {
  setup() {
    return {};
  },
  iteration(_state, ctx) {
    if (ctx.iteration === 100) return new Promise(() => {});
    return undefined;
  },
};
