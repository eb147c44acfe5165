// The stamps' whole cost where the module runs (src/analysis/stamp-context.js)
// from synthetic calls whose costs are known: the interquartile mean that a
// preemption in either pass cannot move, each kind's cost from its group
// against the plain or control calls, the calibration's cost where a
// group has too few calls, and the ops' costs pooled by their precision.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contextCosts, pooledCosts, trimmedMean } from '../../../src/analysis/stamp-context.js';

const FALLBACK = { x: 90, a: 100, n: 100 };

test('trimmedMean: the middle half’s mean, with a standard error; a few wild values move neither end', () => {
  const t = trimmedMean([5, 1, 3, 2, 4, 6, 7, 8]);
  assert.equal(t.mean, 4.5);
  assert.equal(t.n, 8);
  assert.ok(t.se > 0);
  assert.equal(trimmedMean([5, 1e9, 3, 2, 4, 6, -1e9, 8]).mean, 4.5);
  assert.ok(Number.isNaN(trimmedMean([]).mean));
});

/**
 * Calls of one op: control 1 in 4; the others with 3 export stamp pairs,
 * one sampled allocator call in every third and one null sample in every
 * fifth; d = base + the stamps' costs + a symmetric jitter, and every 50th
 * call preempted by 1 ms in one pass or the other.
 */
function rows(count, { base, x, a, n }) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const control = i % 4 === 0 ? 1 : 0;
    const sampled = !control && i % 3 === 0 ? 1 : 0;
    const nulls = !control && !sampled && i % 5 === 0 ? 1 : 0;
    const exports = control ? 0 : 3;
    const jitter = ((i * 7) % 5) - 2;
    const preempted = i % 50 === 7 ? 1e6 : i % 50 === 31 ? -1e6 : 0;
    out.push({
      d: base + exports * x + sampled * a + nulls * n + jitter + preempted,
      control,
      exports,
      sampled,
      nulls,
    });
  }
  return out;
}

test('contextCosts: each stamp kind’s cost from the calls with it against those without, preemptions trimmed', () => {
  const c = contextCosts(rows(2000, { base: 300, x: 150, a: 1100, n: 500 }), FALLBACK);
  assert.equal(c.base, 300);
  assert.equal(c.x.source, 'context');
  assert.ok(Math.abs(c.x.ns - 150) < 1, `x ${c.x.ns}`);
  assert.ok(Math.abs(c.a.ns - 1100) < 3, `a ${c.a.ns}`);
  assert.ok(Math.abs(c.n.ns - 500) < 3, `n ${c.n.ns}`);
  assert.ok(c.x.se > 0 && c.a.se > 0 && c.n.se > 0);
  assert.equal(c.groups.control, 500);
});

test('contextCosts: the calibration’s cost where a group has too few calls (a raw module: no control call)', () => {
  const c = contextCosts(
    rows(2000, { base: 0, x: 150, a: 1100, n: 500 }).filter((r) => !r.control),
    FALLBACK,
  );
  assert.equal(c.base, null);
  assert.deepEqual(c.x, { ns: 90, se: null, source: 'calibration' });
  assert.equal(c.a.source, 'context');
  const few = contextCosts(rows(40, { base: 0, x: 150, a: 1100, n: 500 }), FALLBACK);
  assert.deepEqual(few.n, { ns: 100, se: null, source: 'calibration' });
});

test('pooledCosts: each kind the ops measured, weighted by their precision, given to every op; a kind one op measured left', () => {
  const calibrated = { ns: 100, se: null, source: 'calibration' };
  const costs = [
    { x: { ns: 100, se: 10, source: 'context' }, a: { ns: 900, se: 50, source: 'context' }, n: calibrated, base: 0 },
    { x: { ns: 200, se: 100, source: 'context' }, a: calibrated, n: calibrated, base: 5 },
    { x: calibrated, a: calibrated, n: calibrated, base: null },
  ];
  const pooled = pooledCosts(costs);
  const w = 1 / 100 + 1 / 10_000;
  for (const c of pooled) {
    assert.ok(Math.abs(c.x.ns - (100 / 100 + 200 / 10_000) / w) < 1e-9);
    assert.ok(Math.abs(c.x.se - Math.sqrt(1 / w)) < 1e-9);
  }
  assert.deepEqual([pooled[0].x.opNs, pooled[1].x.opNs, pooled[2].x.opNs], [100, 200, null]);
  // One op measured a: each keeps its own.
  assert.deepEqual(
    pooled.map((c) => c.a),
    costs.map((c) => c.a),
  );
  assert.equal(pooled[1].base, 5);
  assert.equal(costs[0].x.ns, 100);
});
