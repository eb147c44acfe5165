// Shared by the *-stats scenarios (not a scenario itself): loads one of the
// soak fixture modules with node:wasi and calls its step() each iteration,
// exposing the module's own live_bytes()/heap_bytes() bookkeeping through
// stats() so that the analysis sees live bytes, not only linear memory.
import { readFile } from 'node:fs/promises';
import { WASI } from 'node:wasi';

/** Instantiates soak/modules/<name>.wasm as a WASI reactor; returns its exports. */
export async function loadFixture(name) {
  const bytes = await readFile(new URL(`../modules/${name}.wasm`, import.meta.url));
  const wasi = new WASI({ version: 'preview1', returnOnExit: true });
  const { instance } = await WebAssembly.instantiate(bytes, wasi.getImportObject());
  wasi.initialize(instance);
  return instance.exports;
}

/** Returns the scenario object for fixture `name` (see the header comment). */
export function fixtureStatsScenario(name) {
  return {
    name: `${name}-stats`,
    async setup(ctx) {
      const exports = await loadFixture(name);
      ctx.track(exports.memory, name);
      // Fixtures with a seed export vary their allocation pattern by run seed.
      if (typeof exports.seed === 'function') exports.seed(ctx.seed >>> 0);
      return { exports };
    },
    iteration(state, ctx) {
      if (state.exports.step(ctx.iteration) < 0) {
        throw new Error(`${name}: step() reported an allocation failure`);
      }
    },
    stats(state) {
      // The exports return signed i32; the sizes are unsigned.
      return {
        liveBytes: state.exports.live_bytes() >>> 0,
        heapBytes: state.exports.heap_bytes() >>> 0,
      };
    },
  };
}
