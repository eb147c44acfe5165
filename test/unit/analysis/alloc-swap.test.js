// The allocator swap's analysis (src/analysis/alloc-swap.js) on a synthetic
// pass whose halves differ by a known cost: the calls routed to the
// module's own allocator less those routed to the bump allocator, less what
// the routing costs more one way than the other, against the time-split
// pass's allocator part; calls that settled a block left out; an op that
// kept blocks left out; a run whose allocator could not be swapped.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { swapSummary } from '../../../src/analysis/alloc-swap.js';

// The routing's calibrated cost per allocator call: 2 ns to the module's own allocator, 3 ns to the bump allocator.
const ROUND = { own: 2, bump: 3 };
const N = 400;
const EVENTS = 4;

/**
 * Two ops alternating over N calls, in halves of 8 calls (the first of
 * each settling: bumped 2, and twice as slow): 1000 ns with the bump
 * allocator, plus 300 ns (the allocator) and the routing's difference
 * (4 allocator calls of 2 - 3 ns) with the module's own.
 */
function pass(result = {}) {
  const bumped = Array.from({ length: N }, (_, i) => (i % 8 === 0 ? 2 : (i >> 3) & 1));
  const calls = bumped.map((b) => (b === 2 ? 2000 : b === 1 ? 1000 + EVENTS * 3 : 1000 + 300 + EVENTS * 2));
  return {
    calls,
    op: Array.from({ length: N }, (_, i) => i % 2),
    result: {
      swapped: [{ entryPoints: ['malloc', 'free'] }],
      regionBytes: 1 << 20,
      region: 'taken',
      kept: [0, 3],
      bumped,
      blockCalls: 8,
      overflows: 0,
      calibration: [ROUND, ROUND, { own: 90, bump: 1 }],
      ...result,
    },
  };
}
const EVENTS_PER_CALL = new Array(N).fill(EVENTS);
const SPLIT = [0, 1].map(() => ({ ns: { allocator: 320 }, allocatorShare: { low: 0.25, high: 0.4 }, callNs: 1000 }));
const OPS = [{ name: 'parse' }, { name: 'cache' }];

test('swapSummary: the own allocator’s half less the bump allocator’s, less the routing’s difference', () => {
  const s = swapSummary(pass(), EVENTS_PER_CALL, 16, OPS, SPLIT);
  assert.equal(s.status, 'measured');
  assert.deepEqual(s.costs, { own: 2, bump: 3, extra: -1, extraSd: 0 });
  const [parse, cache] = s.ops;
  assert.equal(parse.status, 'measured');
  // 192 calls after warm-up, of which 48 settled a block.
  assert.equal(parse.calls, 144);
  assert.equal(parse.allocatorNs, 300);
  // Every call of a half the same: the interval is the routing's whole cost (4 calls of 2 + 3 ns) each way.
  assert.deepEqual([parse.low, parse.high], [280, 320]);
  assert.deepEqual(parse.stamped, { ns: 320, low: 250, high: 400 });
  assert.equal(parse.agree, true);
  // An op whose calls kept blocks of the region is left out, with how many.
  assert.equal(cache.status, 'keeps-memory');
  assert.equal(cache.keptCalls, 3);
  assert.equal(cache.allocatorNs, null);
  assert.equal(cache.agree, null);
});

test('swapSummary: outside the stamped interval, the two disagree', () => {
  const split = SPLIT.map((o) => ({ ...o, allocatorShare: { low: 0.05, high: 0.1 } }));
  assert.equal(swapSummary(pass(), EVENTS_PER_CALL, 0, OPS, split).ops[0].agree, false);
});

test('swapSummary: no op measured when nothing was swapped, the region was missing or too small', () => {
  for (const [result, status] of [
    [{ swapped: [] }, 'not-swapped'],
    [{ region: 'none' }, 'no-region'],
    [{ overflows: 2 }, 'overflow'],
  ]) {
    const s = swapSummary(pass(result), EVENTS_PER_CALL, 0, OPS, SPLIT);
    assert.equal(s.status, status);
    assert.equal(s.ops[0].allocatorNs, null);
  }
});
