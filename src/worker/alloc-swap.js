// The allocator swap pass, worker side (--time-split; docs/allocator.md,
// "The allocator swapped for a bump allocator"): the module's allocator
// routed (swap-rewrite.js) to a bump allocator in blocks of calls drawn at
// random, and to its own allocator in the others, so that the two halves
// differ by the allocator alone and run in the same pass; until a call of
// an op is seen keeping a block of the region past its end: that op keeps
// memory between calls, its blocks stay below a raised mark, and its calls
// go to its own allocator from then on. Each op is called through a wrapper
// that numbers the call, says its half to the module (one store into a wasm
// global) and files it. The routing's own costs, both ways, are
// measured in the same worker, before the first call and after the last, on
// an allocator that does nothing.
import { glueAllocatorNames } from './allocator/glue-names.js';
import { HOOK_MODULE } from './allocator/instrument.js';
import { loadSwapRewriter, SWAP_IMPORTS, swapCalibrationModule, swapModule } from './allocator/swap-rewrite.js';
import { wrapOp } from './op-wrapper.js';
import { xorshift32 } from './xorshift.js';

// Allocations (and frees) of the calibration per round, and rounds before the first call and after the last.
const CAL_CALLS = 4000;
const CAL_ROUNDS = 25;
// The halves come in blocks of BLOCK calls, each block's drawn at random, so
// that a call mostly follows one of its own half (the two allocators' memory
// evicts each other from the caches); the first SETTLE calls of a block are
// not compared (bumped 2).
const BLOCK = 128;
const SETTLE = 16;

/**
 * The op wrappers' bookkeeping: before(op) numbers the next call, draws
 * whether it bumps and says so in epoch (a wasm global); kept(call) hears
 * that a call kept blocks of the region. ops: the run's ops count; calls:
 * the most calls. bumped: per call (by its number - 1), 1 when it bumped,
 * 2 when it settled a block (BLOCK, SETTLE), 0 when it went to the
 * module's own allocator.
 */
function createBookkeeping(ops, calls, epoch) {
  const keeps = new Uint8Array(ops); // ops seen keeping blocks between calls
  const keptCalls = new Float64Array(ops); // per op: calls that kept blocks of the region
  const opOf = new Uint16Array(calls + 1); // per call number (from 1): its op
  const bumped = new Uint8Array(calls);
  let n = 0;
  const draw = xorshift32(0x2545f491); // the halves, the same in every pass
  let half = 0;
  const before = (op) => {
    n = n < calls ? n + 1 : 1;
    opOf[n] = op;
    if ((n - 1) % BLOCK === 0) {
      half = (draw() >>> 7) & 1;
    }
    const on = keeps[op] === 1 ? 0 : half;
    bumped[n - 1] = (n - 1) % BLOCK < SETTLE ? 2 : on;
    epoch.value = n * 2 + on;
  };
  const kept = (call) => {
    const op = opOf[call];
    keptCalls[op]++;
    keeps[op] = 1;
  };
  return { before, kept, keptCalls, bumped };
}

/**
 * The pass's state; loads binaryen first. regionBytes: the bump
 * allocator's region; iterations: the pass's calls. Returns { transform,
 * wrap(fn, k), start(ops), end(), result() }.
 */
export async function createSwap({ regionBytes, iterations }) {
  await loadSwapRewriter();
  const epoch = new WebAssembly.Global({ value: 'i32', mutable: true }, 0);
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

  // The routing's costs per allocator call, on an allocator that does nothing
  // (swapCalibrationModule): to the bump allocator, and to the module's own.
  let pristine = null; // the engine's WebAssembly, past the capture hooks (start's)
  const instance = (epoch) =>
    new pristine.Instance(new pristine.Module(swapCalibrationModule()), {
      [HOOK_MODULE]: {
        [SWAP_IMPORTS.epoch]: new WebAssembly.Global({ value: 'i32', mutable: true }, epoch),
        [SWAP_IMPORTS.kept]: () => {},
        [SWAP_IMPORTS.region]: () => {},
        [SWAP_IMPORTS.over]: () => {},
      },
    }).exports;
  let cal = null;
  const calibrate = (rounds) => {
    cal ??= { bump: instance(3), own: instance(2) };
    const perEvent = (run) => {
      const t0 = performance.now();
      run(CAL_CALLS);
      return ((performance.now() - t0) * 1e6) / (2 * CAL_CALLS);
    };
    perEvent(cal.bump.run_swap); // warms them up
    perEvent(cal.own.run_swap);
    for (let r = 0; r < rounds; r++) {
      const plain = perEvent(cal.bump.run_plain);
      calibration.push({ bump: perEvent(cal.bump.run_swap) - plain, own: perEvent(cal.own.run_swap) - plain });
    }
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
      return wrapOp(fn, k, (op) => books.before(op));
    },
    /**
     * Before the first call: the ops counted (opCount), the routing's costs
     * measured on the engine's own WebAssembly (pristine: the capture hooks
     * would take the calibration module for the target's).
     */
    start(opCount, engine) {
      pristine = engine;
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
     * region), bumped (per call: 1 when it bumped, 2 when it settled a
     * block of calls), blockCalls (the calls of a block), overflows
     * (allocations the region could not hold), calibration (rounds of {
     * bump, own }: the routing's ns per allocator call to the bump
     * allocator and to the module's own) }.
     */
    result() {
      return {
        swapped,
        regionBytes,
        region,
        kept: Array.from(books.keptCalls),
        bumped: Array.from(books.bumped),
        blockCalls: BLOCK,
        overflows,
        calibration,
      };
    },
  };
}
