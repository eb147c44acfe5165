// A scenario for `wasm-soak compare --arm NAME=PATH`: loads the arm's module
// (ctx.arm.path) as a WASI reactor, as an application's own glue would, and
// calls its step(iteration) each iteration. Used with the allocator pair:
//   wasm-soak compare soak/scenarios/compare-arm.mjs \
//     --arm dlmalloc=soak/modules/alloc-dlmalloc.wasm --arm firstfit=soak/modules/alloc-firstfit.wasm
import { readFile } from 'node:fs/promises';
import { WASI } from 'node:wasi';

export default {
  name: 'compare-arm',
  async setup(ctx) {
    if (!ctx.arm) throw new Error('compare-arm is a compare scenario: run it with --arm NAME=PATH');
    const wasi = new WASI({ version: 'preview1', returnOnExit: true });
    const { instance } = await WebAssembly.instantiate(await readFile(ctx.arm.path), wasi.getImportObject());
    wasi.initialize(instance);
    return { step: instance.exports.step };
  },
  iteration(state, ctx) {
    if (state.step(ctx.iteration) < 0) throw new Error('step() reported an allocation failure');
  },
};
