// Test scenario: the module imports its memory (env.memory), created here
// with new WebAssembly.Memory; the runner must capture it without ctx.track.
import { readFileSync } from 'node:fs';

export default {
  async setup() {
    const bytes = readFileSync(new URL('../fixtures/imported-memory.wasm', import.meta.url));
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 100 });
    const { instance } = await WebAssembly.instantiate(bytes, { env: { memory } });
    return instance.exports;
  },
  iteration(exports, ctx) {
    exports.step(ctx.iteration);
  },
};
