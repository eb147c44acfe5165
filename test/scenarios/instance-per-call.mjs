// Test scenario: every iteration instantiates a fresh module with its own
// memory and drops it, as code that compiles once and instantiates per
// request does. Memories are held weakly by the runner: nothing leaks.
import { readFileSync } from 'node:fs';

export default {
  setup() {
    return { module: new WebAssembly.Module(readFileSync(new URL('../fixtures/minified.wasm', import.meta.url))) };
  },
  iteration(state, ctx) {
    const instance = new WebAssembly.Instance(state.module, {});
    instance.exports.a(ctx.iteration);
  },
};
