// Test scenario: prints while it runs, on stderr (whole lines) and on stdout
// (each line in two writes), as a chatty module's JS glue would.
export default {
  name: 'prints',
  setup() {
    console.error('setup says hello');
    return { sum: 0 };
  },
  iteration(state, ctx) {
    for (let i = 0; i < 500; i++) state.sum += i;
    if (ctx.iteration % 500 === 0) console.error(`scenario says ${ctx.iteration}`);
    if (ctx.iteration % 700 === 0) process.stdout.write(`out ${ctx.iteration} begins;`);
    if (ctx.iteration % 700 === 350) process.stdout.write(' and ends\n');
  },
};
