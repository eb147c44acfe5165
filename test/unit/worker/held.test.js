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

test('a slow sample with no held sample due gets null, not a promise: the loop awaits nothing', async () => {
  const { createHeld } = await import('../../../src/worker/held.js');
  const config = { iterations: 3200, durationMs: null };
  const metrics = [];
  const runner = {};
  const { addon } = await import('../../../src/addon.js');
  const saved = addon.metric;
  addon.metric = (_r, id, value) => metrics.push([id, value]);
  try {
    const objects = { seen: () => false };
    const posted = [];
    const held = createHeld({ config, on: true, objects, enter: () => {}, post: (m) => posted.push(m) });
    // Checkpoint 1 is due at the start: no glue objects, so the JS heap after a GC, at once.
    assert.equal(held.sample(runner, 0, 0, 0), null);
    assert.equal(metrics.length, 1);
    // The next is due at call 100: none before it.
    assert.equal(held.sample(runner, 50, 0, 0), null);
    assert.equal(metrics.length, 1);
    // With glue objects seen, a due sample waits for the finalizers: a promise.
    objects.seen = () => true;
    objects.cleanups = () => 0;
    objects.snapshot = () => {};
    objects.counts = () => [{ name: 'Doc', created: 3, freed: 1, reclaimed: 2, collected: 0 }];
    const pending = held.sample(runner, 100, 0, 0);
    assert.ok(pending instanceof Promise);
    await pending;
    // Its object counts went to the main thread (the progress line's objects).
    assert.deepEqual(posted, [{ type: 'objects', iteration: 100, classes: objects.counts() }]);
  } finally {
    addon.metric = saved;
  }
});
