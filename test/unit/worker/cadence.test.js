// src/worker/cadence.js: when the loop stops its batches for a slow sample
// or a turn of the event loop.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { batchCalls, createCadence, slowDue, slowTaken, yieldDue, yielded } from '../../../src/worker/cadence.js';

const config = { slowEvery: 100, slowMs: 50, yieldEvery: 30, yieldMs: 20, yieldFloorMs: 0.5 };

test('a batch runs to the nearer due point, within the other budgets', () => {
  const c = createCadence(config, 0);
  assert.equal(batchCalls(c, config, 0), 30);
  assert.equal(batchCalls(c, config, 20), 10);
  assert.equal(batchCalls(c, config, 20, [4, 7]), 4);
  yielded(c, config, 90, 1);
  assert.equal(batchCalls(c, config, 90), 10, 'the slow sample at 100 comes first');
});

test('a due point already passed waits on its floor: another --yield-every', () => {
  const c = createCadence(config, 0);
  assert.equal(batchCalls(c, config, 45), 30);
  assert.equal(yieldDue(c, config, 45, 0.4, false), false, 'within the floor');
  assert.equal(yieldDue(c, config, 45, 0.5, false), true);
});

test('a slow sample is due by iterations, by time, or at the end; taking it moves the next', () => {
  const c = createCadence(config, 0);
  assert.equal(slowDue(c, config, 99, 49, false), false);
  assert.equal(slowDue(c, config, 100, 1, false), true);
  assert.equal(slowDue(c, config, 5, 50, false), true);
  assert.equal(slowDue(c, config, 5, 1, true), true);
  slowTaken(c, config, 100, 10);
  assert.deepEqual([c.nextSlow, c.lastSlow], [200, 10]);
  assert.equal(slowDue(c, config, 150, 59, false), false);
});

test('a turn of the event loop is due by --yield-ms alone, and after every awaited promise', () => {
  const c = createCadence(config, 0);
  assert.equal(yieldDue(c, config, 1, 20, false), true);
  assert.equal(yieldDue(c, config, 1, 1, true), true);
  yielded(c, config, 30, 5);
  assert.deepEqual([c.nextYield, c.lastYield], [60, 5]);
});
