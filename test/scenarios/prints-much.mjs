// Test scenario: prints 1 000 lines of 100 KB on stdout, one per call, then a
// last line on stderr and throws: every byte must reach wasm-soak's output.
const line = 'x'.repeat(100 * 1024);
export default {
  name: 'prints-much',
  setup() {
    return {};
  },
  iteration(_state, ctx) {
    if (ctx.iteration < 1000) process.stdout.write(`line ${ctx.iteration} ${line}\n`);
    if (ctx.iteration === 1000) {
      console.error('last words before the throw');
      throw new Error('thrown after the last words');
    }
  },
};
