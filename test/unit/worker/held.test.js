// src/worker/held.js: when a held sample is due.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HELD_CHECKPOINTS, heldDue } from '../../../src/worker/held.js';

test('held checkpoints are evenly spaced by iterations, or by time in a --duration run', () => {
  const byCalls = { iterations: 3200, durationMs: null };
  assert.equal(HELD_CHECKPOINTS, 32);
  assert.equal(heldDue(byCalls, 0, 0, 0), true, 'the first at the start');
  assert.equal(heldDue(byCalls, 5, 499, 1e9), false, 'time does not count without --duration');
  assert.equal(heldDue(byCalls, 5, 500, 0), true);
  const byTime = { iterations: null, durationMs: 32_000 };
  assert.equal(heldDue(byTime, 3, 1e9, 2999), false, 'calls do not count without -n');
  assert.equal(heldDue(byTime, 3, 0, 3000), true);
});
