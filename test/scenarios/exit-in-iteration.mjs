// Test scenario: the iteration calls process.exit(0) at iteration 50.
export default {
  setup() {
    return {};
  },
  iteration(_state, ctx) {
    if (ctx.iteration === 50) process.exit(0);
  },
};
