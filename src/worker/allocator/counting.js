// Counting pass state (worker side): receives the instrumented allocator's
// events and keeps the current call's counters in a Float64Array that the C
// loop reads after each call (WS_COUNT_* order: allocs, frees, bytes
// requested, live bytes, peak live bytes). Live bytes are requested bytes of
// blocks allocated and not yet freed, tracked by pointer. A memory.grow
// inside the module that fails is passed to onGrowFailed.
import { COUNTER, COUNTER_FIELDS } from '../../protocol.js';
import { glueAllocatorNames } from './glue-names.js';
import { EVENT, HOOK_MODULE, instrumentAllocator, loadInstrumenter } from './instrument.js';

const { allocs: ALLOCS, frees: FREES, bytes: BYTES, live: LIVE, peak: PEAK } = COUNTER;

/**
 * The counting pass's state; loads binaryen first. onGrowFailed(deltaPages,
 * pages, maximumPages) hears of every memory.grow inside a rewritten module
 * that returned -1.
 */
export async function createCounting({ onGrowFailed = () => {} } = {}) {
  await loadInstrumenter();
  // Over an explicit ArrayBuffer, so V8 never moves it (C keeps a pointer).
  const counters = new Float64Array(new ArrayBuffer(COUNTER_FIELDS * 8));
  const sizes = new Map();
  const instrumented = [];
  const coverage = [];

  const free = (ptr) => {
    const size = sizes.get(ptr);
    if (size === undefined) return;
    sizes.delete(ptr);
    counters[FREES]++;
    counters[LIVE] -= size;
  };
  const alloc = (ptr, size) => {
    if (ptr === 0) return;
    sizes.set(ptr, size);
    counters[ALLOCS]++;
    counters[BYTES] += size;
    counters[LIVE] += size;
    if (counters[LIVE] > counters[PEAK]) counters[PEAK] = counters[LIVE];
  };
  const event = (kind, ptr, size, oldPtr) => {
    const p = ptr >>> 0;
    if (kind === EVENT.ALLOC) alloc(p, size >>> 0);
    else if (kind === EVENT.FREE) free(p);
    else if (kind === EVENT.REALLOC && (p !== 0 || size >>> 0 === 0)) {
      // A failed realloc (null for a non-zero size) leaves the old block live.
      free(oldPtr >>> 0);
      alloc(p, size >>> 0);
    }
  };

  return {
    counters,
    instrumented,
    coverage,
    /**
     * The capture hook's transform: instrument the module if it has an
     * allocator. Called from the hooked WebAssembly call, so the glue that
     * compiles the module is on the stack (glueAllocatorNames).
     */
    transform(bytes) {
      const result = instrumentAllocator(bytes, glueAllocatorNames());
      if (!result) return null;
      // A module rewritten only for its memory.grow has no allocator to cover.
      if (result.entryPoints.length > 0) {
        instrumented.push(result.entryPoints);
        coverage.push({ found: result.found, complete: result.complete });
      }
      const maximum = result.growMaximumPages;
      const growFailed = (delta, pages) => onGrowFailed(delta >>> 0, pages >>> 0, maximum);
      return { bytes: result.bytes, imports: { [HOOK_MODULE]: { event, grow_failed: growFailed } } };
    },
  };
}
