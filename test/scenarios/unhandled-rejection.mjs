// Test scenario: iteration 200 starts a promise that rejects unhandled
// (nothing awaits it); the calls after it go on until the worker sees it.
export default {
  setup() {
    return {};
  },
  iteration(_state, ctx) {
    if (ctx.iteration === 200) Promise.reject(new Error('unhandled rej'));
  },
};
