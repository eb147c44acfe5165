// The allocator swap pass, worker side (--time-split; docs/allocator.md,
// "The allocator swapped for a bump allocator"): the module's allocator
// routed to a bump allocator (swap-rewrite.js) for the calls of each op
// until one of them is seen keeping a block of the region past its end:
// that op keeps memory between calls, its blocks stay below a raised mark,
// and its calls go to the module's own allocator from then on. Each op is
// called through a wrapper that numbers the call and says whether it bumps
// (one store into a wasm global); the wrapper's own cost and the bump
// allocator's are measured in the same worker, before the first call and
// after the last, on an empty function and an allocator that does nothing.
import { glueAllocatorNames } from './allocator/glue-names.js';
import { HOOK_MODULE } from './allocator/instrument.js';
import { loadSwapRewriter, SWAP_IMPORTS, swapCalibrationModule, swapModule } from './allocator/swap-rewrite.js';

// Calls of the calibration per round, and rounds before the first call and after the last.
const CAL_CALLS = 4000;
const CAL_ROUNDS = 25;
// Arguments an op's wrapper passes on as they are (more: through an array).
const FIXED_ARGS = 6;

/**
 * The op wrappers' bookkeeping: before(op) numbers the next call and says
 * in epoch (a wasm global) whether it bumps; kept(call) hears that a call
 * kept blocks of the region. ops: the run's ops count; calls: the most calls.
 */
function createBookkeeping(ops, calls, epoch) {
  const keeps = new Uint8Array(ops); // ops seen keeping blocks between calls
  const keptCalls = new Float64Array(ops); // per op: calls that kept blocks of the region
  const opOf = new Uint16Array(calls + 1); // per call number (from 1): its op
  let n = 0;
  const before = (op) => {
    n = n < calls ? n + 1 : 1;
    opOf[n] = op;
    epoch.value = n * 2 + (keeps[op] === 1 ? 0 : 1);
  };
  const kept = (call) => {
    const op = opOf[call];
    keptCalls[op]++;
    keeps[op] = 1;
  };
  return { before, kept, keptCalls };
}

const newEpoch = () => new WebAssembly.Global({ value: 'i32', mutable: true }, 0);

/** fn called as op k's through before(k) (this and the arguments passed on). */
function wrapped(fn, k, before) {
  if (fn.length <= FIXED_ARGS)
    return function swapped(a, b, c, d, e, f) {
      before(k);
      return fn.call(this, a, b, c, d, e, f);
    };
  return function swapped(...args) {
    before(k);
    return fn.apply(this, args);
  };
}

/**
 * The pass's state; loads binaryen first. regionBytes: the bump
 * allocator's region; iterations: the pass's calls. Returns { transform,
 * wrap(fn, k), start(ops), end(), result() }.
 */
export async function createSwap({ regionBytes, iterations }) {
  await loadSwapRewriter();
  const epoch = newEpoch();
  let books = createBookkeeping(0, 1, epoch);
  let region = 'unused';
  let overflows = 0;
  const imports = {
    [SWAP_IMPORTS.epoch]: epoch,
    [SWAP_IMPORTS.kept]: (call) => books.kept(call),
    [SWAP_IMPORTS.region]: (start) => {
      region = start === 0 ? 'none' : 'taken';
    },
    [SWAP_IMPORTS.over]: () => {
      overflows++;
    },
  };
  const swapped = [];
  const calibration = [];
  // The wrapper's cost in ns per call (an empty function through it and
  // not) and the bump allocator's per allocator call (an allocator that does
  // nothing, swapped and not: swapCalibrationModule).
  let bump = null;
  const calibrate = (rounds) => {
    const cal = createBookkeeping(1, CAL_CALLS, newEpoch());
    const empty = () => {};
    const through = wrapped(empty, 0, (op) => cal.before(op));
    const time = (f) => {
      const t0 = performance.now();
      for (let i = 0; i < CAL_CALLS; i++) f(i);
      return (performance.now() - t0) * 1e6;
    };
    const timeLoop = (run) => {
      const t0 = performance.now();
      run(CAL_CALLS);
      return (performance.now() - t0) * 1e6;
    };
    bump ??= new WebAssembly.Instance(new WebAssembly.Module(swapCalibrationModule()), {
      [HOOK_MODULE]: {
        [SWAP_IMPORTS.epoch]: new WebAssembly.Global({ value: 'i32', mutable: true }, 3),
        [SWAP_IMPORTS.kept]: () => {},
        [SWAP_IMPORTS.region]: () => {},
        [SWAP_IMPORTS.over]: () => {},
      },
    }).exports;
    time(through); // warms it up
    timeLoop(bump.run_swap);
    for (let r = 0; r < rounds; r++)
      calibration.push({
        outer: (time(through) - time(empty)) / CAL_CALLS,
        perEvent: (timeLoop(bump.run_swap) - timeLoop(bump.run_plain)) / (2 * CAL_CALLS),
      });
  };
  return {
    /** The capture hook's transform: the first module with an allocator swapped (swapModule), or null. */
    transform(bytes) {
      if (swapped.length > 0) return null;
      const result = swapModule(bytes, glueAllocatorNames(new Error().stack ?? ''), regionBytes);
      if (!result) return null;
      swapped.push({ entryPoints: result.entryPoints });
      return { bytes: result.bytes, imports: { [HOOK_MODULE]: imports }, alone: false };
    },
    /** Op k's function fn, called through the wrapper. */
    wrap(fn, k) {
      return wrapped(fn, k, (op) => books.before(op));
    },
    /** Before the first call: the ops counted (opCount), the wrapper's cost measured. */
    start(opCount) {
      books = createBookkeeping(opCount, iterations, epoch);
      calibrate(CAL_ROUNDS);
    },
    /** After the last call: the wrapper's cost measured again. */
    end() {
      calibrate(CAL_ROUNDS);
    },
    /**
     * What the pass measured: { swapped (per module: entry points),
     * regionBytes, region ('taken', 'none': the module's allocator had none
     * to give, 'unused'), kept (per op: calls that kept blocks of the
     * region), overflows (allocations it could not hold), calibration
     * (rounds of { outer, perEvent }: the wrapper's ns per call, the bump
     * allocator's per allocator call) }.
     */
    result() {
      return {
        swapped,
        regionBytes,
        region,
        kept: Array.from(books.keptCalls),
        overflows,
        calibration,
      };
    },
  };
}
