// Counting pass state (worker side): receives the instrumented allocator's
// events and keeps the current call's counters in a Float64Array that the C
// loop reads after each call (WS_COUNT_* order: allocs, frees, bytes
// requested, live bytes, peak live bytes). Live bytes are requested bytes of
// blocks allocated and not yet freed, tracked by pointer; frees of blocks
// never seen allocated are counted (frees()). A memory.grow
// inside the module that fails is passed to onGrowFailed. With sites
// (createSites), every event also goes to the site table with its frames.
import { usageError } from '../../errors.js';
import { COUNTER, COUNTER_FIELDS, ALLOC_EVENT as EVENT } from '../../protocol.js';
import { glueAllocatorNames, glueExportNames } from './glue-names.js';
import { HOOK_MODULE, instrumentAllocator, loadInstrumenter } from './instrument.js';

const { allocs: ALLOCS, frees: FREES, bytes: BYTES, live: LIVE, peak: PEAK } = COUNTER;

/**
 * The counting pass's state; loads binaryen first. onGrowFailed(deltaPages,
 * pages, maximumPages) hears of every memory.grow inside a rewritten module
 * that returned -1. sites (createSites's, or null) takes every event with
 * its frames, and each instrumented module's bytes (sites.addModule).
 * Long: the imports it hands every rewritten module share its counters.
 */
/**
 * The refusal of a counting pass on a module built for wasi-threads: each
 * thread it spawns instantiates the rewritten module again, in a worker
 * thread its loader starts, without the pass's imports (the instantiation
 * fails there, and an async call then never settles), and the allocations
 * of those threads would go uncounted.
 */
export function threadedCountingError() {
  return usageError(
    'WS_ETHREADS',
    "the counting and time-split passes cannot run on a module built for wasi-threads (it imports wasi's thread-spawn): each thread it spawns instantiates the module again in a worker thread its loader starts, out of the pass's reach, without the imports the rewritten module needs",
    'Run without --count-allocs, --sites, --time-split and the --max-*-per-call budgets: the heap census still judges its linear memory (live bytes and size classes) in the timed pass.',
  );
}

export async function createCounting({ onGrowFailed = () => {}, sites = null } = {}) {
  await loadInstrumenter();
  // Over an explicit ArrayBuffer, so V8 never moves it (C keeps a pointer).
  const counters = new Float64Array(new ArrayBuffer(COUNTER_FIELDS * 8));
  const sizes = new Map();
  const instrumented = [];
  const coverage = [];

  // Frees of blocks the pass saw allocated (matched), of blocks it never saw
  // (unmatched), and blocks handed out again while the pass held them live
  // (unseen: freed where it did not see). The module is instantiated
  // rewritten, so every block it frees was allocated in view: the last two
  // mean the wrapped functions are not the whole allocator.
  const frees = { matched: 0, unmatched: 0, unseen: 0 };
  const free = (ptr) => {
    const size = sizes.get(ptr);
    if (size === undefined) {
      if (ptr !== 0) frees.unmatched++;
      return;
    }
    frees.matched++;
    sizes.delete(ptr);
    counters[FREES]++;
    counters[LIVE] -= size;
  };
  const alloc = (ptr, size) => {
    if (ptr === 0) return;
    // A block handed out again was freed where the pass did not see: no longer live.
    const missed = sizes.get(ptr);
    if (missed !== undefined) {
      frees.unseen++;
      counters[LIVE] -= missed;
    }
    sizes.set(ptr, size);
    counters[ALLOCS]++;
    counters[BYTES] += size;
    counters[LIVE] += size;
    if (counters[LIVE] > counters[PEAK]) counters[PEAK] = counters[LIVE];
  };
  const count = (kind, ptr, size, oldPtr) => {
    const p = ptr >>> 0;
    if (kind === EVENT.alloc) alloc(p, size >>> 0);
    else if (kind === EVENT.free) free(p);
    else if (kind === EVENT.realloc && (p !== 0 || size >>> 0 === 0)) {
      // A failed realloc (null for a non-zero size) leaves the old block live.
      free(oldPtr >>> 0);
      alloc(p, size >>> 0);
    }
  };
  // With sites, module k's events carry its frames (instrument.js).
  const eventOf = (k) => (sites ? sites.hook(k, count) : count);

  return {
    counters,
    instrumented,
    coverage,
    /** The pass's frees so far: { matched, unmatched, unseen } (see frees above). */
    frees: () => ({ ...frees }),
    /**
     * The capture hook's transform: instrument the module if it has an
     * allocator. Called from the hooked WebAssembly call, so the glue that
     * compiles the module is on the stack (glueAllocatorNames).
     */
    transform(bytes) {
      const stack = new Error().stack ?? '';
      const result = instrumentAllocator(bytes, glueAllocatorNames(stack), { sites: sites !== null });
      if (!result) return null;
      const module =
        sites && result.entryPoints.length > 0 ? sites.addModule(bytes, result.framed, glueExportNames(stack)) : 0;
      // A module rewritten only for its memory.grow has no allocator to cover.
      if (result.entryPoints.length > 0) {
        instrumented.push(result.entryPoints);
        const { found, complete, noRealloc, behind } = result;
        coverage.push({ found, complete, noRealloc, behind });
      }
      const maximum = result.growMaximumPages;
      const growFailed = (delta, pages) => onGrowFailed(delta >>> 0, pages >>> 0, maximum);
      return {
        bytes: result.bytes,
        imports: { [HOOK_MODULE]: { event: eventOf(module), grow_failed: growFailed } },
        // A module that imported nothing may be instantiated without an import object.
        alone: !result.ownImports,
      };
    },
  };
}
