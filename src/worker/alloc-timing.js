// The time-split pass, worker side (--time-split; docs/allocator.md, "Where
// a call's time goes"): answers the stamps of a module rewritten by
// timing-rewrite.js with clock reads, and adds each call's time inside the
// sampled allocator calls, inside memory.grow and inside the module's
// exports to per-call arrays (by the call's index in the pass), with how
// many stamps of each kind it paid for and its allocator calls as the
// module's counters tell them (every one, sampled or not); and per op, kind
// and size class the sampled events and their time. Each sampled exit
// draws the countdown to the next sampled allocator call, 1 in N on average
// with N per op (samplingRate). The scenario's calls come in blocks of
// CONTROL_BLOCK, one block in CONTROL_EVERY, drawn at random, of control calls,
// stamped nowhere (the stamps' whole cost where the module runs is the
// stamped calls' time against theirs: the analysis's stamp-context.js);
// the first SETTLE_CALLS calls after a change between the two are settling
// calls, compared in neither. The stamps' own cost is also measured in the
// same worker, before the first call and after the last, on the
// calibration module: the same wrappers around empty functions, whose
// events go through the same hooks into a slot of their own.
import { CTL, ALLOC_EVENT as EVENT } from '../protocol.js';
import { glueAllocatorNames } from './allocator/glue-names.js';
import { HOOK_MODULE } from './allocator/instrument.js';
import { calibrationModule, loadTimingRewriter, NULL_SAMPLE, ON, stampModule } from './allocator/timing-rewrite.js';
import { wrapOp } from './op-wrapper.js';
import { xorshift32 } from './xorshift.js';

/** Size classes: [2^k, 2^(k+1)) bytes is class k (0 and 1 byte: class 0); one more for the frees. */
const SIZE_CLASSES = 33;
// A free is filed in a class of its own: its block's size was asked for by
// an allocation the sampler most likely did not stamp.
const FREE_CLASS = SIZE_CLASSES;
const CLASSES = SIZE_CLASSES + 1;
// Each class's event times as a histogram of TIME_BINS bins, TIME_BINS_PER_OCTAVE
// to a doubling from 1 ns (the last takes the rest), for a median a preemption cannot move.
const TIME_BINS = 96;
const TIME_BINS_PER_OCTAVE = 4;
// Per (op, kind, class): sampled events, ns, then the histogram.
const CELL = 2 + TIME_BINS;
// The allocator's event kinds as the per-op tables index them.
const KINDS = [EVENT.alloc, EVENT.free, EVENT.realloc];
// Calls of each calibration loop per round, and rounds before the first call and after the last.
// Many short rounds: the analysis takes their median, which a preemption in a few cannot move.
// None between calls: a round there left the module's next calls slower (on
// lz4-wasm-nodejs by 3 to 4 % of a 5 µs call), its own code and data in the caches.
const CAL_CALLS = 4000;
const CAL_ROUNDS = 25;
// The sampler: sampled allocator calls per call the rate aims at (each one
// leaves wasm twice and reads the clock twice), and the samples per op it
// keeps at least over the pass (the rate is lowered to keep them).
const SAMPLES_PER_CALL = 0.1;
const MIN_SAMPLES = 1000;
// One sample in NULL_EVERY is a null one: its two stamps with nothing
// between, where the real ones are taken (the stamps cost more there, with
// the module's code between them, than in the calibration's tight loop).
const NULL_EVERY = 4;
// One block of CONTROL_BLOCK scenario calls in CONTROL_EVERY (drawn at random before
// its first call) is a block of control calls: the module's wrappers then
// stamp and count nothing, so that the analysis can measure the stamps'
// whole cost where the module runs, the stamped calls' time against the
// control calls'. A change between the two carries over into the next
// calls (a crossover's carryover: on lz4-wasm-nodejs the first control call
// after stamped ones ran 5 to 25 % slower, the first stamped call after
// control ones 2 to 3 times slower; the control calls, when every fourth
// call was one, 4 to 6 % slower than in a pass of control calls alone), so
// the calls come in blocks, and the first SETTLE_CALLS calls after a change are
// settling calls, analysed in neither group.
const CONTROL_EVERY = 4;
export const CONTROL_BLOCK = 16;
export const SETTLE_CALLS = 2;

// The per-call numbers, by name: raw sums of stamped intervals (ns) and
// counts. A call's numbers lie side by side (one record of PER_CALL.length
// numbers per call), so that a stamp touches one or two cache lines.
const PER_CALL = [
  'allocNs', // time between the sampled allocator calls' entry and exit stamps
  'allocNsSq', // the sum of their squares (ns^2), for the sampling's variance
  'sampled', // sampled allocator calls (stamp pairs)
  'nullNs', // time between the null samples' stamps
  'nullNsSq',
  'nulls', // null samples (stamp pairs)
  'sampledInExport', // sampled calls and null samples inside an export's stamps
  'allocs', // every outermost allocator call (the module's counters): allocations, frees, reallocations
  'allocsInExport', // of which inside an export's stamps
  'allocations', // of which allocations and reallocations
  'allocBytes', // bytes the allocations and reallocations asked for
  'growNs', // time between memory.grow's stamps
  'grows',
  'growsInAlloc', // of which inside a sampled allocator call's stamps
  'growNsInAlloc',
  'growsInExport',
  'exportNs', // time between the outermost export's stamps
  'exports',
  'nestedExports', // export stamps inside another export's
  'control', // 1: a control call (nothing stamped or counted)
  'settling', // 1: one of the first SETTLE_CALLS calls after a change between stamped and control calls
];

const sizeClass = (size) => (size < 2 ? 0 : 31 - Math.clz32(size));

/**
 * The mean countdown between two sampled allocator calls for an op whose
 * calls so far made eventsPerCall allocator calls each and of which
 * expectedCalls are expected in the pass: SAMPLES_PER_CALL sampled calls
 * per call, lowered to 1 in fewer so that MIN_SAMPLES are sampled; at least 1.
 */
export function samplingRate(eventsPerCall, expectedCalls) {
  const sparse = eventsPerCall / SAMPLES_PER_CALL;
  const enough = (eventsPerCall * expectedCalls) / MIN_SAMPLES;
  return Math.max(1, Math.floor(Math.min(sparse, enough)));
}

/**
 * The pass's state; loads binaryen first. control: the ring's control
 * words (CALL: 1 + the op running, 0 outside a call; ITERATION: the call's
 * iteration); firstIteration: the pass's first; iterations: its calls.
 * Returns { transform, wrap(fn, k), start(ops, pristine), end(done), result(done) }.
 * Long: the hooks share the pass's state.
 */
export async function createTiming({ control, firstIteration, iterations }) {
  await loadTimingRewriter();
  const now = () => performance.now() * 1e6;
  // One slot past the calls: the calibration's.
  const slots = iterations + 1;
  const scratch = iterations;
  // Written once now: a page first touched during a call would fault inside it.
  const record = new Float64Array(slots * PER_CALL.length).fill(0);
  const F = Object.fromEntries(PER_CALL.map((name, k) => [name, k]));
  const at = (i) => i * PER_CALL.length;
  // The clock reads at the open stamps, in a typed array: a number kept in a
  // closure's variable would be a new heap object at each stamp.
  const open = new Float64Array(3);
  const [ALLOC, GROW, EXPORT] = [0, 1, 2];
  const stamped = [];
  let ops = 0;
  let classes = null; // per (op, kind, class): CELL numbers
  let opCalls = null; // per op: calls seen, allocator calls counted, mean countdown
  let opEvents = null;
  let opRate = null;
  let callsSeen = 0;
  let calibrating = false;
  let inAlloc = false;
  let exportDepth = 0;
  let exportCall = -1;
  const countdown = xorshift32(0x9e3779b9); // the countdowns, the same in every pass
  const controlDraw = xorshift32(0x6c078965); // the control blocks, the same in every pass
  let wrappedCalls = 0; // scenario calls through the wrapper so far
  let sinceChange = SETTLE_CALLS; // calls since the last change between stamped and control
  // Whether the running call is stamped (the module's ON import; 0 in a control call).
  const on = new WebAssembly.Global({ value: 'i32', mutable: true }, 1);
  let stamping = true; // on's value
  const index = () => {
    if (control[CTL.call] === 0) return calibrating ? scratch : -1;
    const i = control[CTL.iteration] - firstIteration;
    return i >= 0 && i < iterations ? i : -1;
  };
  const opOf = () => (calibrating ? ops : control[CTL.call] - 1);
  const addClass = (kind, size, dt) => {
    if (!classes) return;
    const cls = kind === EVENT.free ? FREE_CLASS : sizeClass(size);
    const c = ((opOf() * KINDS.length + KINDS.indexOf(kind)) * CLASSES + cls) * CELL;
    classes[c]++;
    classes[c + 1] += dt;
    const bin = dt < 1 ? 0 : Math.min(TIME_BINS - 1, Math.floor(Math.log2(dt) * TIME_BINS_PER_OCTAVE));
    classes[c + 2 + bin]++;
  };
  // The next sample as the module takes it (timing-rewrite.js): the
  // countdown to it times 2, plus 1 for a null one. The countdown is uniform
  // in [1, 2N - 1] (mean N, the op's rate), so that no period of the
  // module's calls aliases with it; one in NULL_EVERY samples is null.
  const nextSample = () => {
    if (calibrating || !opRate) return 2;
    const o = opOf();
    if (o < 0 || o >= ops) return 2;
    if (opCalls[o] > 0) {
      const expected = (iterations * opCalls[o]) / Math.max(1, callsSeen);
      opRate[o] = samplingRate(opEvents[o] / opCalls[o], expected);
    }
    const u = countdown() / 2 ** 32;
    const gap = 1 + Math.floor(u * (2 * opRate[o] - 1));
    return gap * 2 + (Math.floor(u * 2 ** 20) % NULL_EVERY === 0 ? 1 : 0);
  };

  // The events of an outermost export counted before it was entered (the
  // module's counters start again at every export exit).
  let outside = 0;
  const hooks = {
    [ON]: on,
    t_alloc_enter() {
      inAlloc = true;
      open[ALLOC] = now();
    },
    t_alloc_exit(kind, _ptr, size) {
      const dt = now() - open[ALLOC];
      inAlloc = false;
      const i = index();
      if (i >= 0) {
        const r = at(i);
        if (exportDepth > 0) record[r + F.sampledInExport]++;
        if (kind === NULL_SAMPLE) {
          record[r + F.nullNs] += dt;
          record[r + F.nullNsSq] += dt * dt;
          record[r + F.nulls]++;
        } else {
          record[r + F.allocNs] += dt;
          record[r + F.allocNsSq] += dt * dt;
          record[r + F.sampled]++;
          addClass(kind, size >>> 0, dt);
        }
      }
      return nextSample();
    },
    t_grow_enter() {
      open[GROW] = now();
    },
    t_grow_exit() {
      const dt = now() - open[GROW];
      const i = index();
      if (i < 0) return;
      const r = at(i);
      record[r + F.growNs] += dt;
      record[r + F.grows]++;
      if (inAlloc) {
        record[r + F.growsInAlloc]++;
        record[r + F.growNsInAlloc] += dt;
      }
      if (exportDepth > 0) record[r + F.growsInExport]++;
    },
    t_export_enter(events) {
      const i = index();
      // A call that threw through an export never stamped its exit.
      if (i !== exportCall) {
        exportDepth = 0;
        exportCall = i;
        if (i >= 0 && !calibrating && opCalls) {
          opCalls[control[CTL.call] - 1]++;
          callsSeen++;
        }
      }
      if (exportDepth++ === 0) {
        outside = events;
        open[EXPORT] = now();
      } else if (i >= 0) record[at(i) + F.nestedExports]++;
    },
    t_export_exit(events, allocated, bytes) {
      const t = now();
      const i = index();
      if (i >= 0) {
        const r = at(i);
        record[r + F.allocs] += events;
        record[r + F.allocations] += allocated;
        record[r + F.allocBytes] += bytes >>> 0;
        if (exportDepth > 0) record[r + F.allocsInExport] += events - outside;
        if (!calibrating && opEvents) opEvents[control[CTL.call] - 1] += events;
      }
      outside = 0;
      if (exportDepth === 0) return;
      if (--exportDepth > 0 || i < 0) return;
      const r = at(i);
      record[r + F.exportNs] += t - open[EXPORT];
      record[r + F.exports]++;
    },
  };

  /**
   * One round of the calibration: per kind (a: a sampled allocator call, u:
   * one the countdown passes over, g, x), { outer, inner } ns per call; at: the calls done.
   */
  const round = (cal, done) => {
    const time = (run) => {
      const t0 = now();
      run(CAL_CALLS);
      return now() - t0;
    };
    const inners = { a: F.allocNs, u: null, g: F.growNs, x: F.exportNs };
    const per = (name) => {
      record.fill(0, at(scratch));
      const ns = time(cal[`run_${name}`]);
      return { ns, inner: inners[name] === null ? 0 : record[at(scratch) + inners[name]] / CAL_CALLS };
    };
    const plain = time(cal.run_plain);
    const out = { at: done };
    for (const name of Object.keys(inners)) {
      const { ns, inner } = per(name);
      out[name] = { outer: (ns - plain) / CAL_CALLS, inner };
    }
    return out;
  };
  const calibrations = [];
  let cal = null; // the calibration module's exports
  const calibrate = (rounds, done) => {
    if (!cal) return;
    calibrating = true;
    on.value = 1;
    stamping = true;
    try {
      round(cal, done); // warms the hooks up
      for (let r = 0; r < rounds; r++) calibrations.push(round(cal, done));
    } finally {
      calibrating = false;
      record.fill(0, at(scratch));
      classes?.fill(0, ops * KINDS.length * CLASSES * CELL);
    }
  };

  return {
    /** The capture hook's transform: the module stamped (stampModule), or null. */
    transform(bytes) {
      const result = stampModule(bytes, glueAllocatorNames(new Error().stack ?? ''));
      if (!result) return null;
      stamped.push({ entryPoints: result.entryPoints, exports: result.exports, trivialExports: result.trivialExports });
      return { bytes: result.bytes, imports: { [HOOK_MODULE]: hooks }, alone: false };
    },
    /**
     * A scenario's op k's function fn, called through a wrapper that, at a
     * block's first call, draws whether its calls are control calls
     * (CONTROL_BLOCK, CONTROL_EVERY), says so to the module (ON) and files the call
     * as control or stamped, and as settling when it is one of the first
     * SETTLE_CALLS calls after a change.
     */
    wrap(fn, k) {
      return wrapOp(fn, k, () => {
        if (wrappedCalls++ % CONTROL_BLOCK === 0) {
          const control = controlDraw() % CONTROL_EVERY === 0;
          // Written only when it changes: a write from JS costs about 15 ns.
          if (control === stamping) {
            stamping = !control;
            on.value = control ? 0 : 1;
            sinceChange = 0;
          }
        }
        const i = index();
        if (i >= 0) {
          record[at(i) + F.control] = stamping ? 0 : 1;
          record[at(i) + F.settling] = sinceChange < SETTLE_CALLS ? 1 : 0;
        }
        sinceChange++;
      });
    },
    /** Before the first call: the run's ops are known (opCount), the stamps' cost measured. */
    start(opCount, pristine) {
      ops = opCount;
      classes = new Float64Array((ops + 1) * KINDS.length * CLASSES * CELL);
      opCalls = new Float64Array(ops);
      opEvents = new Float64Array(ops);
      opRate = new Float64Array(ops).fill(1);
      const module = new pristine.Module(calibrationModule());
      cal = new pristine.Instance(module, { [HOOK_MODULE]: hooks }).exports;
      calibrate(CAL_ROUNDS, 0);
    },
    /** After the last call (done: the calls done): the stamps' cost measured again. */
    end(done) {
      calibrate(CAL_ROUNDS, done);
    },
    /**
     * What the pass measured: { stamped (per module: entry points, exports
     * wrapped), calibration (rounds of { at, a, u, g, x: { outer, inner } }:
     * ns per call, measured when at calls were done), calls (PER_CALL
     * arrays, by call index), rates (per op, the mean countdown between
     * sampled allocator calls when the pass ended), classes ({ kinds,
     * sizeClasses (the last: the frees, whose size is not known), ops,
     * binsPerOctave, cell, values: per op, kind and class, cell numbers:
     * sampled events, ns, then a histogram of their times, bin b from
     * 2^(b / binsPerOctave) ns) }.
     */
    result(done) {
      const n = Math.min(done, iterations);
      return {
        stamped,
        calibration: calibrations,
        calls: Object.fromEntries(
          PER_CALL.map((name, k) => [name, Array.from({ length: n }, (_, i) => record[at(i) + k])]),
        ),
        rates: opRate ? Array.from(opRate) : [],
        classes: {
          kinds: KINDS,
          sizeClasses: CLASSES,
          ops,
          binsPerOctave: TIME_BINS_PER_OCTAVE,
          cell: CELL,
          values: classes ? Array.from(classes.subarray(0, ops * KINDS.length * CLASSES * CELL)) : [],
        },
      };
    },
  };
}
