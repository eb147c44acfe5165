// Test scenario: glue in wasm-bindgen's style over a dlmalloc module. Each
// Doc owns a block of linear memory; its glue frees the block from free()
// (which unregisters it) or, when the application forgets free(), from a
// FinalizationRegistry callback once the garbage collector finds the Doc.
// The unfreed twin (glue-objects-unfreed.mjs) forgets free().
import { readFileSync } from 'node:fs';

const WASM = new URL('../modules/alloc-dlmalloc.wasm', import.meta.url);

/** Returns the scenario; options: { name, unfreed }. */
export function glueObjectsScenario({ name, unfreed }) {
  return {
    name,
    async setup() {
      const { instance } = await WebAssembly.instantiate(readFileSync(WASM), {
        wasi_snapshot_preview1: { proc_exit() {}, fd_write: () => 0, fd_close: () => 0, fd_seek: () => 0 },
      });
      const wasm = instance.exports;
      wasm._initialize?.();
      const finalization = new FinalizationRegistry((ptr) => wasm.free(ptr));
      class Doc {
        constructor(bytes) {
          this.ptr = wasm.malloc(bytes);
          new Uint8Array(wasm.memory.buffer, this.ptr, bytes).fill(bytes & 0xff);
          finalization.register(this, this.ptr, this);
        }
        free() {
          finalization.unregister(this);
          wasm.free(this.ptr);
          this.ptr = 0;
        }
      }
      return { Doc, sum: 0 };
    },
    iteration(state, ctx) {
      const doc = new state.Doc(ctx.int(4096, 65536));
      state.sum += doc.ptr & 7;
      if (!unfreed) doc.free();
    },
  };
}

export default glueObjectsScenario({ name: 'glue-objects', unfreed: false });
