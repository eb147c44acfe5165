// Test scenario: weighted ops, an async op, seeded ctx helpers; records the
// sequence of inputs so a test can compare two runs with the same seed.
export default {
  name: 'mix',
  setup(ctx) {
    return { seen: [], seed: ctx.seed };
  },
  ops: {
    small: {
      weight: 3,
      run(state, ctx) {
        state.seen.push(ctx.int(0, 9));
      },
    },
    text: {
      weight: 1,
      run(state, ctx) {
        state.seen.push(ctx.string(8).length);
      },
    },
    later: {
      weight: 1,
      async run(state, ctx) {
        await null;
        state.seen.push(ctx.iteration);
      },
    },
  },
  stats(state) {
    return { liveBytes: state.seen.length * 8 };
  },
};
