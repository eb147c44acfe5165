// The time-split pass, worker side (--time-split; docs/allocator.md, "Where
// a call's time goes"): answers the stamps of a module rewritten by
// timing-rewrite.js with clock reads, and adds each call's time inside the
// allocator, inside memory.grow and inside the module's exports to
// per-call arrays (by the call's index in the pass), with how many stamps
// of each kind it paid for, and per op, kind and size class the
// allocator's events and time. The stamps' own cost is measured in the
// same worker, before the first call and after the last, on the
// calibration module: the same wrappers around empty functions, whose
// events go through these same hooks into a slot of their own.
import { CTL, ALLOC_EVENT as EVENT } from '../protocol.js';
import { glueAllocatorNames } from './allocator/glue-names.js';
import { HOOK_MODULE } from './allocator/instrument.js';
import { calibrationModule, loadTimingRewriter, stampModule } from './allocator/timing-rewrite.js';

/** Size classes: [2^k, 2^(k+1)) bytes is class k (0 and 1 byte: class 0). */
export const SIZE_CLASSES = 33;
// Each class's event times as a histogram of TIME_BINS bins, TIME_BINS_PER_OCTAVE
// to a doubling from 1 ns (the last takes the rest), for a median a preemption cannot move.
const TIME_BINS = 96;
const TIME_BINS_PER_OCTAVE = 4;
// Per (op, kind, class): events, ns, then the histogram.
const CELL = 2 + TIME_BINS;
// The allocator's event kinds as the per-op tables index them.
const KINDS = [EVENT.alloc, EVENT.free, EVENT.realloc];
// Calls of each calibration loop per round, and rounds before and after the pass.
// Many short rounds: the analysis takes their median, which a preemption in a few cannot move.
// CAL_ROUNDS before the first call and after the last, SAMPLE_ROUNDS at each slow sample
// between (the machine's load changes during a run: the medians are over all of them).
const CAL_CALLS = 4000;
const CAL_ROUNDS = 25;
const SAMPLE_ROUNDS = 3;

// The per-call arrays, by name: raw sums of stamped intervals (ns) and counts of stamps.
const PER_CALL = [
  'allocNs', // time between the allocator's outermost entry and exit stamps
  'allocs', // its events (stamp pairs): allocations, frees and reallocations
  'allocations', // of which allocations and reallocations
  'allocsInExport', // of which inside an export's stamps
  'allocBytes', // bytes the allocations and reallocations asked for
  'growNs', // time between memory.grow's stamps
  'grows',
  'growsInAlloc', // of which inside the allocator's stamps
  'growNsInAlloc',
  'growsInExport',
  'exportNs', // time between the outermost export's stamps
  'exports',
  'nestedExports', // export stamps inside another export's
];

const sizeClass = (size) => (size < 2 ? 0 : 31 - Math.clz32(size));

/**
 * The pass's state; loads binaryen first. control: the ring's control
 * words (CALL: 1 + the op running, 0 outside a call; ITERATION: the call's
 * iteration); firstIteration: the pass's first; iterations: its calls.
 * Returns { transform, start(ops, pristine), end(), result() }.
 * Long: the hooks share the pass's state.
 */
export async function createTiming({ control, firstIteration, iterations }) {
  await loadTimingRewriter();
  const now = () => performance.now() * 1e6;
  // One slot past the calls: the calibration's.
  const slots = iterations + 1;
  const scratch = iterations;
  const calls = Object.fromEntries(PER_CALL.map((name) => [name, new Float64Array(slots)]));
  const {
    allocNs,
    allocs,
    allocations,
    allocsInExport,
    allocBytes,
    growNs,
    grows,
    growsInAlloc,
    growNsInAlloc,
    growsInExport,
  } = calls;
  const { exportNs, exports, nestedExports } = calls;
  const sizes = new Map(); // live block -> bytes requested, for the frees' size classes
  const stamped = [];
  let ops = 0;
  let classes = null; // per (op, kind, class): CELL numbers
  let calibrating = false;
  let tAlloc = 0;
  let inAlloc = false;
  let tGrow = 0;
  let tExport = 0;
  let exportDepth = 0;
  let exportCall = -1;
  const index = () => {
    if (control[CTL.call] === 0) return calibrating ? scratch : -1;
    const i = control[CTL.iteration] - firstIteration;
    return i >= 0 && i < iterations ? i : -1;
  };
  const opOf = () => (calibrating ? ops : control[CTL.call] - 1);
  const addClass = (kind, size, dt) => {
    if (!classes) return;
    const at = ((opOf() * KINDS.length + KINDS.indexOf(kind)) * SIZE_CLASSES + sizeClass(size)) * CELL;
    classes[at]++;
    classes[at + 1] += dt;
    const bin = dt < 1 ? 0 : Math.min(TIME_BINS - 1, Math.floor(Math.log2(dt) * TIME_BINS_PER_OCTAVE));
    classes[at + 2 + bin]++;
  };
  const hooks = {
    t_alloc_enter() {
      inAlloc = true;
      tAlloc = now();
    },
    t_alloc_exit(kind, ptr, size, oldPtr) {
      const dt = now() - tAlloc;
      inAlloc = false;
      const p = ptr >>> 0;
      let bytes = size >>> 0;
      if (kind === EVENT.free) {
        bytes = sizes.get(p) ?? 0;
        sizes.delete(p);
      } else {
        if (kind === EVENT.realloc) sizes.delete(oldPtr >>> 0);
        if (p !== 0) sizes.set(p, bytes);
      }
      const i = index();
      if (i < 0) return;
      allocNs[i] += dt;
      allocs[i]++;
      if (exportDepth > 0) allocsInExport[i]++;
      if (kind !== EVENT.free) {
        allocations[i]++;
        allocBytes[i] += bytes;
      }
      addClass(kind, bytes, dt);
    },
    t_grow_enter() {
      tGrow = now();
    },
    t_grow_exit() {
      const dt = now() - tGrow;
      const i = index();
      if (i < 0) return;
      growNs[i] += dt;
      grows[i]++;
      if (inAlloc) {
        growsInAlloc[i]++;
        growNsInAlloc[i] += dt;
      }
      if (exportDepth > 0) growsInExport[i]++;
    },
    t_export_enter() {
      const i = index();
      // A call that threw through an export never stamped its exit.
      if (i !== exportCall) {
        exportDepth = 0;
        exportCall = i;
      }
      if (exportDepth++ === 0) tExport = now();
      else if (i >= 0) nestedExports[i]++;
    },
    t_export_exit() {
      if (exportDepth === 0) return;
      if (--exportDepth > 0) return;
      const dt = now() - tExport;
      const i = index();
      if (i < 0) return;
      exportNs[i] += dt;
      exports[i]++;
    },
  };

  /** One round of the calibration: per kind, { outer, inner } ns per stamp pair; at: the calls done. */
  const round = (cal, at) => {
    const time = (run) => {
      const t0 = now();
      run(CAL_CALLS);
      return now() - t0;
    };
    const per = (name) => {
      for (const a of Object.values(calls)) a[scratch] = 0;
      const ns = time(cal[`run_${name}`]);
      return { ns, inner: { a: allocNs, g: growNs, x: exportNs }[name][scratch] / CAL_CALLS };
    };
    const plain = time(cal.run_plain);
    const out = { at };
    for (const name of ['a', 'g', 'x']) {
      const { ns, inner } = per(name);
      out[name] = { outer: (ns - plain) / CAL_CALLS, inner };
    }
    return out;
  };
  const calibrations = [];
  let cal = null; // the calibration module's exports
  const calibrate = (rounds, at) => {
    if (!cal) return;
    calibrating = true;
    try {
      round(cal, at); // warms the hooks up
      for (let r = 0; r < rounds; r++) calibrations.push(round(cal, at));
    } finally {
      calibrating = false;
      for (const a of Object.values(calls)) a[scratch] = 0;
      classes?.fill(0, ops * KINDS.length * SIZE_CLASSES * CELL);
    }
  };

  return {
    /** The capture hook's transform: the module stamped (stampModule), or null. */
    transform(bytes) {
      const result = stampModule(bytes, glueAllocatorNames(new Error().stack ?? ''));
      if (!result) return null;
      stamped.push({ entryPoints: result.entryPoints, exports: result.exports });
      return { bytes: result.bytes, imports: { [HOOK_MODULE]: hooks }, alone: false };
    },
    /** Before the first call: the run's ops are known (opCount), the stamps' cost measured. */
    start(opCount, pristine) {
      ops = opCount;
      classes = new Float64Array((ops + 1) * KINDS.length * SIZE_CLASSES * CELL);
      const module = new pristine.Module(calibrationModule());
      cal = new pristine.Instance(module, { [HOOK_MODULE]: hooks }).exports;
      calibrate(CAL_ROUNDS, 0);
    },
    /** At a slow sample, between calls (done: the calls done): a few rounds of the calibration. */
    sample(done) {
      calibrate(SAMPLE_ROUNDS, done);
    },
    /** After the last call (done: the calls done): the stamps' cost measured again. */
    end(done) {
      calibrate(CAL_ROUNDS, done);
    },
    /**
     * What the pass measured: { stamped (per module: entry points, exports
     * wrapped), calibration (rounds of { at, a, g, x: { outer, inner } }: ns
     * per stamp pair, measured when at calls were done), calls (PER_CALL arrays, by call index), classes
     * ({ kinds, sizeClasses, ops, binsPerOctave, cell, values: per op, kind
     * and class, cell numbers: events, ns, then a histogram of the events'
     * times, bin b from 2^(b / binsPerOctave) ns) }.
     */
    result(done) {
      const n = Math.min(done, iterations);
      return {
        stamped,
        calibration: calibrations,
        calls: Object.fromEntries(Object.entries(calls).map(([k, a]) => [k, Array.from(a.subarray(0, n))])),
        classes: {
          kinds: KINDS,
          sizeClasses: SIZE_CLASSES,
          ops,
          binsPerOctave: TIME_BINS_PER_OCTAVE,
          cell: CELL,
          values: classes ? Array.from(classes.subarray(0, ops * KINDS.length * SIZE_CLASSES * CELL)) : [],
        },
      };
    },
  };
}
