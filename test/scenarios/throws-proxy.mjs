// Test scenario: iteration 10 throws a Proxy whose every trap throws, so
// that describing the thrown value itself throws.
const hostile = new Proxy(
  {},
  new Proxy(
    {},
    {
      get() {
        return () => {
          throw new Error('trap');
        };
      },
    },
  ),
);
export default {
  setup() {
    return {};
  },
  iteration(_state, ctx) {
    if (ctx.iteration === 10) throw hostile;
  },
};
