// The time-split analysis (src/analysis/time-split.js) on synthetic stamps
// whose parts are known: the stamps' cost taken off (the calibration's,
// or where the module runs, from control calls paired with the timed
// pass's), the four parts, the allocator's time from a sample of its
// calls, the interval, memory.grow apart from warm-up, and the advice's code.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adviceOf, stampCosts, timeSplitSummary } from '../../../src/analysis/time-split.js';

const COST = {
  a: { outer: 100, inner: 40 },
  u: { outer: 3, inner: 0 },
  g: { outer: 80, inner: 30 },
  x: { outer: 90, inner: 50 },
};
// Three calibration rounds; the odd one (a preemption) moves no median.
const ROUNDS = [COST, COST, { ...COST, a: { outer: 900, inner: 700 } }];

/**
 * Stamps of n calls of one op, each: algorithm 1000 ns (plus extra(i), a
 * call's input), allocator 400 ns
 * over 4 events (2 allocations of 24 B, 2 frees) of 100 ns each, of which
 * sampledPerCall (a function of the call) are stamped, glue 200 ns, a grow
 * of 300 ns in the first warm calls; the logged call time adds every
 * stamp's outer cost, the intervals their inner cost, stampNs (the
 * calibration's, or more where the module runs), and nullsPerCall null
 * samples take stampNs each. context: { x, a, control } where the stamps
 * cost more than the calibration says: x ns per export stamp pair, a per
 * allocator stamp pair, and the calls control(i) says stamped nowhere.
 */
function synthetic(
  n,
  warm,
  sampledPerCall = () => 4,
  stampNs = COST.a.inner,
  nullsPerCall = () => 0,
  context = null,
  extra = () => 0,
) {
  const outer = { x: context?.x ?? COST.x.outer, a: context?.a ?? COST.a.outer };
  const names = [
    'allocNs',
    'allocNsSq',
    'sampled',
    'nullNs',
    'nullNsSq',
    'nulls',
    'sampledInExport',
    'allocs',
    'allocations',
    'allocsInExport',
    'allocBytes',
    'growNs',
    'grows',
    'growsInAlloc',
    'growNsInAlloc',
    'growsInExport',
    'exportNs',
    'exports',
    'nestedExports',
    'control',
    'settling',
  ];
  const calls = Object.fromEntries(names.map((k) => [k, new Array(n).fill(0)]));
  const elapsed = [];
  for (let i = 0; i < n; i++) {
    const grew = i < warm ? 1 : 0;
    if (context?.control(i)) {
      calls.control[i] = 1;
      calls.growNs[i] = grew * (300 + COST.g.inner);
      calls.grows[i] = grew;
      elapsed.push(1000 + extra(i) + 400 + grew * (300 + COST.g.outer) + 200);
      continue;
    }
    const k = sampledPerCall(i);
    calls.sampled[i] = k;
    const z = nullsPerCall(i);
    calls.allocNs[i] = k * (100 + stampNs);
    calls.allocNsSq[i] = k * (100 + stampNs) ** 2;
    calls.nulls[i] = z;
    calls.nullNs[i] = z * stampNs;
    calls.nullNsSq[i] = z * stampNs ** 2;
    calls.sampledInExport[i] = k + z;
    calls.allocs[i] = 4;
    calls.allocations[i] = 2;
    calls.allocsInExport[i] = 4;
    calls.allocBytes[i] = 48;
    calls.growNs[i] = grew * (300 + COST.g.inner);
    calls.grows[i] = grew;
    calls.growsInExport[i] = grew;
    calls.exports[i] = 1;
    const inside = 1000 + extra(i) + 400 + grew * 300;
    const stamps = (k + z) * outer.a + (4 - k) * COST.u.outer + grew * COST.g.outer;
    calls.exportNs[i] = inside + COST.x.inner + stamps;
    elapsed.push(inside + 200 + stamps + outer.x);
  }
  return {
    calls: elapsed,
    op: new Array(n).fill(0),
    stamps: {
      calibration: ROUNDS,
      stamped: [{ entryPoints: ['malloc', 'free'], exports: 1 }],
      calls,
      rates: [4 / sampledPerCall(0) || 1],
      classes: {
        kinds: [1, 2, 3],
        sizeClasses: 34,
        ops: 1,
        cell: 3,
        binsPerOctave: 1,
        values: new Array(3 * 34 * 3).fill(0),
      },
    },
  };
}

test('stampCosts: the rounds’ medians, so that a preempted round moves nothing', () => {
  const c = stampCosts(ROUNDS);
  assert.equal(c.a.inner, 40);
  assert.equal(c.a.outer, 100);
  assert.equal(c.x.inner, 50);
});

test('timeSplitSummary: the four parts with the stamps taken off, grow apart from warm-up', () => {
  const raw = synthetic(100, 10);
  const timed = { elapsed: new Float64Array(100).fill(1600), op: new Uint16Array(100) };
  const t = timeSplitSummary(raw, timed, 10, [{ name: 'parse' }]);
  const o = t.ops[0];
  assert.equal(o.calls, 90);
  assert.equal(o.callNs, 1600);
  assert.equal(o.timedCallNs, 1600);
  assert.deepEqual(o.ns, { algorithm: 1000, allocator: 400, grow: 0, glue: 200 });
  assert.equal(o.shares.allocator, 0.25);
  assert.equal(o.allocsPerCall, 2);
  assert.equal(o.bytesPerAlloc, 24);
  // Every call the same, every allocator call stamped: the interval is the share itself.
  assert.deepEqual(o.allocatorShare, { share: 0.25, low: 0.25, high: 0.25 });
  // No null sample: the stamps' own interval is the calibration's.
  assert.deepEqual(o.sampling, { rate: 1, sampled: 360, nulls: 0, stampNs: 40, nsPerEvent: 100, se: 0 });
  assert.equal(o.grow.warmup.grows, 10);
  assert.equal(o.grow.steady.grows, 0);
  assert.equal(o.grow.warmup.share, 300 / 1900);
  assert.deepEqual(o.advice, { code: 'allocator', share: 0.25, bound: 1 / 0.75 });
});

test('timeSplitSummary: calls past the typical quantile (a preemption) move no part', () => {
  const raw = synthetic(100, 0);
  raw.calls[50] += 1e6; // one preempted call
  const timed = { elapsed: new Float64Array(100).fill(1600), op: new Uint16Array(100) };
  const o = timeSplitSummary(raw, timed, 0, [{ name: 'parse' }]).ops[0];
  assert.equal(o.calls, 99);
  assert.equal(o.ns.glue, 200);
});

test('timeSplitSummary: one allocator call in four stamped, its mean times every call the module counted', () => {
  const raw = synthetic(100, 0, (i) => (i % 4 === 0 ? 4 : 0));
  const timed = { elapsed: new Float64Array(100).fill(1600), op: new Uint16Array(100) };
  const o = timeSplitSummary(raw, timed, 0, [{ name: 'parse' }]).ops[0];
  // Calls are ranked with the stamps taken off: the stamped ones are as typical as the rest.
  assert.equal(o.calls, 100);
  assert.equal(o.callNs, 1600);
  assert.deepEqual(o.ns, { algorithm: 1000, allocator: 400, grow: 0, glue: 200 });
  assert.equal(o.sampling.sampled, 100);
  assert.equal(o.sampling.nsPerEvent, 100);
  assert.equal(o.eventsPerCall, 4);
});

test('timeSplitSummary: the null samples’ interval, not the calibration’s, is taken off the sampled calls', () => {
  // Where the module runs, a stamp pair holds 70 ns, not the calibration's 40.
  const raw = synthetic(
    100,
    0,
    () => 2,
    70,
    (i) => (i % 2 ? 1 : 0),
  );
  const timed = { elapsed: new Float64Array(100).fill(1600), op: new Uint16Array(100) };
  const o = timeSplitSummary(raw, timed, 0, [{ name: 'parse' }]).ops[0];
  assert.equal(o.sampling.nulls, 50);
  assert.equal(o.sampling.stampNs, 70);
  assert.equal(o.sampling.nsPerEvent, 100);
  assert.equal(o.ns.allocator, 400);
  assert.equal(o.callNs, 1600);
});

/**
 * 400 calls where the module runs an export's stamps cost 250 ns and an
 * allocator's 900 (the calibration: 90 and 100); the calls control(i)
 * says (one in four by default) are stamped nowhere, one stamped call in
 * three has one allocator call stamped; extra: synthetic's.
 */
const withControls = (extra = () => 0, control = (i) => i % 4 === 0) =>
  synthetic(
    400,
    0,
    (i) => (i % 3 === 0 ? 1 : 0),
    COST.a.inner,
    () => 0,
    { x: 250, a: 900, control },
    extra,
  );

test('timeSplitSummary: the stamps’ cost where the module runs, from the control calls, not the calibration’s', () => {
  const raw = withControls();
  const timed = { elapsed: new Float64Array(400).fill(1600), op: new Uint16Array(400) };
  const t = timeSplitSummary(raw, timed, 0, [{ name: 'parse' }]);
  const o = t.ops[0];
  assert.equal(t.pairedWithTimed, true);
  assert.equal(o.stampContext.x.ns, 250);
  assert.equal(o.stampContext.x.source, 'context');
  assert.equal(o.stampContext.a.ns, 900);
  // No null sample: the calibration's cost stands in for it.
  assert.equal(o.stampContext.n.source, 'calibration');
  assert.equal(o.stampContext.base, 0);
  assert.deepEqual(o.stampContext.groups, { control: 100, plain: 200, sampled: 100, null: 0 });
  // The parts come from the 300 stamped calls and add up to the timed call.
  assert.equal(o.calls, 300);
  assert.equal(o.callNs, 1600);
  assert.equal(o.controlCallNs, 1600);
  assert.equal(o.timedCallNs, 1600);
  assert.equal(o.drift, 0);
  assert.equal(o.callSe, 0);
  assert.deepEqual(o.ns, { algorithm: 1000, allocator: 400, grow: 0, glue: 200 });
});

test('timeSplitSummary: each call against the timed pass’s same call, so that its input’s time cancels', () => {
  // Inputs from 0 to 9.1 µs of work: unpaired, the control calls' and the
  // stamped calls' trimmed means differ by their inputs as much as by the stamps.
  const extra = (i) => ((i * 37) % 14) * 700;
  const raw = withControls(extra);
  const elapsed = Float64Array.from({ length: 400 }, (_, i) => 1600 + extra(i));
  const o = timeSplitSummary(raw, { elapsed, op: new Uint16Array(400) }, 0, [{ name: 'parse' }]).ops[0];
  assert.equal(o.stampContext.x.ns, 250);
  assert.equal(o.stampContext.a.ns, 900);
  // The sum against the timed pass's time of the same calls.
  assert.equal(o.callNs, o.timedCallNs);
  assert.equal(o.drift, 0);
  // Passes whose calls do not line up are not paired: each call alone.
  const shuffled = { elapsed, op: Uint16Array.from({ length: 400 }, (_, i) => i % 2) };
  const t = timeSplitSummary(raw, shuffled, 0, [{ name: 'parse' }, { name: 'other' }]);
  assert.equal(t.pairedWithTimed, false);
});

test('timeSplitSummary: the calls settling a change between stamped and control calls are compared in neither group', () => {
  // Blocks of 16 calls, the first 4 control calls: the first call after each
  // change (0 and 4 in every block) runs 5 µs slower, the previous block's carryover.
  const raw = withControls(undefined, (i) => i % 16 < 4);
  for (let i = 0; i < 400; i += 16)
    for (const s of [i, i + 4]) {
      raw.stamps.calls.settling[s] = 1;
      raw.calls[s] += 5000;
    }
  const timed = { elapsed: new Float64Array(400).fill(1600), op: new Uint16Array(400) };
  const o = timeSplitSummary(raw, timed, 0, [{ name: 'parse' }]).ops[0];
  const { control, plain, sampled } = o.stampContext.groups;
  assert.deepEqual([control, plain + sampled], [75, 275]);
  assert.equal(o.stampContext.x.ns, 250);
  assert.equal(o.stampContext.a.ns, 900);
  assert.equal(o.calls, 275);
  assert.equal(o.callNs, 1600);
  assert.equal(o.controlCallNs, 1600);
  assert.equal(o.drift, 0);
  assert.deepEqual(o.ns, { algorithm: 1000, allocator: 400, grow: 0, glue: 200 });
});

test('adviceOf: the largest part past its threshold, else the algorithm', () => {
  assert.equal(adviceOf({ algorithm: 0.5, allocator: 0.2, grow: 0, glue: 0.3 }).code, 'glue');
  assert.equal(adviceOf({ algorithm: 0.8, allocator: 0.05, grow: 0.06, glue: 0.09 }).code, 'grow');
  const a = adviceOf({ algorithm: 0.95, allocator: 0.02, grow: 0, glue: 0.03 });
  assert.equal(a.code, 'algorithm');
  assert.equal(a.share, 0.95);
});
