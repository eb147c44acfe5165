// A clean allocator workload with an exact leak on top, for
// bench/accuracy-real.js: each call runs soak/modules/alloc-dlmalloc.wasm's
// step() (a bounded working set churned through wasi-libc's dlmalloc), then
// allocates LEAK bytes through the module's exported malloc and never frees
// them. Nothing reports live bytes: the run sees them only through the heap
// census, which recognises wasi-libc's dlmalloc. One step() costs about
// 0.5 µs; STEPS of them make a call of a few µs, so that a run of 20 000 calls
// lasts long enough for a load started mid-run to land in it.
//
//   WS_ACCURACY_LEAK_BYTES  bytes leaked per call (default 16; 0 is the same
//                           workload without a leak)
import { readFile } from 'node:fs/promises';
import { WASI } from 'node:wasi';

/** step() calls per iteration (each replaces 4 slots of the working set). */
const STEPS = 16;

export default {
  name: 'alloc-leak',
  async setup() {
    const text = process.env.WS_ACCURACY_LEAK_BYTES ?? '16';
    const leak = Number(text);
    if (!Number.isInteger(leak) || leak < 0) {
      throw new Error(`WS_ACCURACY_LEAK_BYTES must be a whole number of bytes, not ${JSON.stringify(text)}`);
    }
    const bytes = await readFile(new URL('../../soak/modules/alloc-dlmalloc.wasm', import.meta.url));
    const wasi = new WASI({ version: 'preview1', returnOnExit: true });
    const { instance } = await WebAssembly.instantiate(bytes, wasi.getImportObject());
    wasi.initialize(instance);
    return { exports: instance.exports, leak };
  },
  iteration({ exports, leak }, ctx) {
    for (let k = 0; k < STEPS; k++) {
      if (exports.step(ctx.iteration) < 0) throw new Error('alloc-dlmalloc: step() reported an allocation failure');
    }
    if (leak > 0 && exports.malloc(leak) === 0) throw new Error('alloc-dlmalloc: malloc failed');
  },
};
