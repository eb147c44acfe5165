// Test scenario: hang.wasm's spin, called once per iteration, never returns
// from iteration 2000 on. Just before that call the iteration writes its
// number to the file named by WASM_SOAK_TEST_ENTERED: once that file exists
// the worker is inside the hung call, which no stop request can end early
// (a sample log holding 2000 calls does not prove that much: the worker may
// still be between two batches, where a stop request ends the run).
import { readFileSync, writeFileSync } from 'node:fs';

export default {
  setup() {
    const bytes = readFileSync(new URL('../fixtures/hang.wasm', import.meta.url));
    return { spin: new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports.spin };
  },
  iteration(state, ctx) {
    if (ctx.iteration >= 2000) writeFileSync(process.env.WASM_SOAK_TEST_ENTERED, `${ctx.iteration}\n`);
    state.spin(ctx.iteration);
  },
};
