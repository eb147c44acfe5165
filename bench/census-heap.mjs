// The heap the census bench walks (bench/census.js): the `parse` fixture
// (wasi-libc dlmalloc, malloc exported) given about 5 M chunks of 16-48 B
// through its own malloc in setup, every 7th freed again, so linear memory
// holds about 200 MiB of heap; each iteration then runs its step() (a
// malloc/parse/free round trip that leaves the heap as it was).
import { readFile } from 'node:fs/promises';
import { WASI } from 'node:wasi';

export const CHUNKS = 5_000_000;

export default {
  name: 'census-heap',
  async setup(ctx) {
    const bytes = await readFile(new URL('../soak/modules/parse.wasm', import.meta.url));
    const wasi = new WASI({ version: 'preview1', returnOnExit: true });
    const { instance } = await WebAssembly.instantiate(bytes, wasi.getImportObject());
    wasi.initialize(instance);
    const e = instance.exports;
    ctx.track(e.memory, 'parse');
    const held = new Uint32Array(CHUNKS);
    for (let i = 0; i < CHUNKS; i++) {
      held[i] = e.malloc(20 + (i % 5) * 6);
      if (held[i] === 0) throw new Error('census-heap: malloc failed');
    }
    for (let i = 0; i < CHUNKS; i += 7) e.free(held[i]);
    return { e };
  },
  iteration(state, ctx) {
    state.e.step(ctx.iteration);
  },
};
