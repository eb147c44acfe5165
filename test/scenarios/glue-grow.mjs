// Test scenario: JS glue that grows the module's memory from JS and catches
// the RangeError, as Emscripten's emscripten_resize_heap does. The memory's
// declared maximum is 2 pages, so from the second call on every grow fails;
// the scenario sees only "0", the run must see a memory-exhausted finding.
// glueGrow({ engineLimitPages }) first lowers V8's own page limit
// (--wasm-max-mem-pages; V8 flags are the process's, set before any grow)
// and grows a memory declaring 1000 pages, 16 at a time: the engine refuses
// the grows below the declared maximum (glue-grow-refused.mjs).
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';

export function glueGrow({ engineLimitPages = 0 } = {}) {
  return {
    async setup() {
      if (engineLimitPages > 0) setFlagsFromString(`--wasm-max-mem-pages=${engineLimitPages}`);
      const bytes = readFileSync(new URL('../fixtures/glue-grow.wasm', import.meta.url));
      let memory = null;
      const resize_heap = (pages) => {
        try {
          memory.grow(engineLimitPages > 0 ? 16 * pages : pages);
          return 1;
        } catch (err) {
          if (!(err instanceof RangeError)) throw err;
          return 0;
        }
      };
      const { instance } = await WebAssembly.instantiate(bytes, { env: { resize_heap } });
      memory = engineLimitPages > 0 ? new WebAssembly.Memory({ initial: 1, maximum: 1000 }) : instance.exports.memory;
      return instance.exports;
    },
    iteration(exports, ctx) {
      exports.step(ctx.iteration);
    },
  };
}

export default glueGrow();
