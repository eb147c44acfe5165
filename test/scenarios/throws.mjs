// Test scenario: the iteration throws at iteration 300.
export default {
  setup() {
    return {};
  },
  iteration(_state, ctx) {
    if (ctx.iteration === 300) throw new Error('planted failure at 300');
  },
};
