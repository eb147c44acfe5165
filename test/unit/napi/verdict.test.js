// addon/napi/verdict.c: verdictAnalyzeRun reads its options by the list of verdict
// defaults, and refuses a seed the JS side would refuse instead of folding
// it onto another.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAddon } from '../../../src/native.js';
import { VERDICT_DEFAULTS } from '../../../src/protocol.js';

const addon = loadAddon();
const elapsed = new Float32Array(400).fill(1000);

test('a seed that is not a safe non-negative integer is refused, as JS refuses it', () => {
  for (const seed of [-1, 1.5, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY]) {
    assert.throws(
      () => addon.verdictAnalyzeRun(elapsed, [], { seed }),
      { code: 'WS_EINVAL', message: /seed/ },
      String(seed),
    );
  }
  assert.doesNotThrow(() => addon.verdictAnalyzeRun(elapsed, [], { seed: 2 ** 53 - 1 }));
});

test('every verdict option is read by its name, and one left out takes its default', () => {
  const base = addon.verdictAnalyzeRun(elapsed, [], { seed: 1 });
  assert.equal(base.jsHeapThreshold, VERDICT_DEFAULTS.jsHeapThreshold);
  assert.equal(base.memFloorPerCall, VERDICT_DEFAULTS.memFloorPerCall);
  const given = addon.verdictAnalyzeRun(elapsed, [], {
    seed: 1,
    jsHeapThreshold: 7,
    memFloorPerCall: 3,
    memFloorRelative: 0.5,
  });
  assert.deepEqual([given.jsHeapThreshold, given.memFloorPerCall, given.memFloorRelative], [7, 3, 0.5]);
});
