// The time-split pass's sampler rate (src/worker/alloc-timing.js): one
// stamped allocator call in ten calls of an op, lowered so that enough are
// stamped over the pass, never below every call.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { samplingRate } from '../../../src/worker/alloc-timing.js';

test('samplingRate: 1 stamped call in 10 calls, at least 1,000 stamped over the pass, at least every call', () => {
  // The churn fixture: 8 allocator calls per call; 20,000 calls leave 1 in 80.
  assert.equal(samplingRate(8, 20_000), 80);
  // 1,000 calls would give 100 stamps at 1 in 80: 1 in 8 gives 1,000.
  assert.equal(samplingRate(8, 1_000), 8);
  // Fewer allocator calls in the pass than 1,000: every one.
  assert.equal(samplingRate(3, 100), 1);
  assert.equal(samplingRate(0, 100), 1);
});
