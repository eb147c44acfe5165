// The timed pass's medians (src/analysis/timed-medians.js): the analysis
// computes them, the report only shows them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { timedMedians } from '../../../src/analysis/timed-medians.js';

/** A decoded run of calls alternating two ops, op a at aNs and op b at bNs per call. */
function run(calls, aNs, bNs) {
  const op = Uint16Array.from({ length: calls }, (_, i) => i % 2);
  const elapsed = Float32Array.from(op, (k) => (k === 0 ? aNs : bNs));
  return { calls, elapsed, op, header: { ops: [{ name: 'a' }, { name: 'b' }] } };
}

test('the median of every call and of each op', () => {
  const m = timedMedians(run(1000, 100, 300));
  assert.equal(m.ops.a, 100);
  assert.equal(m.ops.b, 300);
  assert.ok(m.median >= 100 && m.median <= 300, `${m.median}`);
});

test('an op that was never called has no median; a run without calls has none', () => {
  const one = run(1000, 100, 100);
  one.op.fill(0);
  assert.equal(timedMedians(one).ops.b, null);
  assert.equal(timedMedians(run(0, 1, 1)), null);
  assert.equal(timedMedians(null), null);
});
