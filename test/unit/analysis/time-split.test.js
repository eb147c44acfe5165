// The time-split analysis (src/analysis/time-split.js) on synthetic stamps
// whose parts are known: the stamps' cost taken off, the four parts, the
// interval, memory.grow apart from warm-up, and the advice's code.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adviceOf, stampCosts, timeSplitSummary } from '../../../src/analysis/time-split.js';

const COST = { a: { outer: 100, inner: 40 }, g: { outer: 80, inner: 30 }, x: { outer: 90, inner: 50 } };
// Three calibration rounds; the odd one (a preemption) moves no median.
const ROUNDS = [COST, COST, { a: { outer: 900, inner: 700 }, g: COST.g, x: COST.x }];

/**
 * Stamps of n calls of one op, each: algorithm 1000 ns, allocator 400 ns
 * over 4 events (2 allocations of 24 B, 2 frees), glue 200 ns, a grow of
 * 300 ns in the first warm calls; the logged call time adds every stamp's
 * outer cost, the intervals their inner cost.
 */
function synthetic(n, warm) {
  const names = [
    'allocNs',
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
  ];
  const calls = Object.fromEntries(names.map((k) => [k, new Array(n).fill(0)]));
  const elapsed = [];
  for (let i = 0; i < n; i++) {
    const grew = i < warm ? 1 : 0;
    calls.allocNs[i] = 400 + 4 * COST.a.inner;
    calls.allocs[i] = 4;
    calls.allocations[i] = 2;
    calls.allocsInExport[i] = 4;
    calls.allocBytes[i] = 48;
    calls.growNs[i] = grew * (300 + COST.g.inner);
    calls.grows[i] = grew;
    calls.growsInExport[i] = grew;
    calls.exports[i] = 1;
    const inside = 1000 + 400 + grew * 300;
    calls.exportNs[i] = inside + COST.x.inner + 4 * COST.a.outer + grew * COST.g.outer;
    elapsed.push(inside + 200 + 4 * COST.a.outer + grew * COST.g.outer + COST.x.outer);
  }
  return {
    calls: elapsed,
    op: new Array(n).fill(0),
    stamps: {
      calibration: ROUNDS,
      stamped: [{ entryPoints: ['malloc', 'free'], exports: 1 }],
      calls,
      classes: { kinds: [1, 2, 3], sizeClasses: 33, ops: 1, values: new Array(3 * 33 * 2).fill(0) },
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
  // Every call the same: the interval is the share itself.
  assert.deepEqual(o.allocatorShare, { share: 0.25, low: 0.25, high: 0.25 });
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

test('adviceOf: the largest part past its threshold, else the algorithm', () => {
  assert.equal(adviceOf({ algorithm: 0.5, allocator: 0.2, grow: 0, glue: 0.3 }).code, 'glue');
  assert.equal(adviceOf({ algorithm: 0.8, allocator: 0.05, grow: 0.06, glue: 0.09 }).code, 'grow');
  const a = adviceOf({ algorithm: 0.95, allocator: 0.02, grow: 0, glue: 0.03 });
  assert.equal(a.code, 'algorithm');
  assert.equal(a.share, 0.95);
});
