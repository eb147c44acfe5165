// Test scenario: loads a module, then replaces globalThis.WebAssembly in its
// setup(), as a polyfill or a careless shim might: wasm-soak refuses it
// (exit 2), naming what the scenario did.
import { readFileSync } from 'node:fs';

export default {
  setup() {
    const bytes = readFileSync(new URL('../../soak/modules/clean.wasm', import.meta.url));
    const { exports } = new WebAssembly.Instance(new WebAssembly.Module(bytes), {});
    globalThis.WebAssembly = {};
    return { exports };
  },
  iteration(state, ctx) {
    state.exports.step(ctx.iteration);
  },
};
