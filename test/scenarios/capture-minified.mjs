// Test scenario: a release-style module that exports its memory as "O".
import { readFileSync } from 'node:fs';

export default {
  setup() {
    const module = new WebAssembly.Module(readFileSync(new URL('../fixtures/minified.wasm', import.meta.url)));
    return new WebAssembly.Instance(module, {}).exports;
  },
  iteration(exports, ctx) {
    exports.a(ctx.iteration);
  },
};
