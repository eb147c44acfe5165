// The time-split pass's sampler rate (src/worker/alloc-timing.js): one
// stamped allocator call in ten calls of an op, lowered so that enough are
// stamped over the pass, never below every call; and its op wrapper: some
// calls drawn as control calls, each said to the module (ON) and filed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadBinaryen } from '../../../src/binaryen.js';
import { CTL } from '../../../src/protocol.js';
import { createTiming, samplingRate } from '../../../src/worker/alloc-timing.js';
import { HOOK_MODULE } from '../../../src/worker/allocator/instrument.js';
import { ON } from '../../../src/worker/allocator/timing-rewrite.js';

test('samplingRate: 1 stamped call in 10 calls, at least 1,000 stamped over the pass, at least every call', () => {
  // The churn fixture: 8 allocator calls per call; 20,000 calls leave 1 in 80.
  assert.equal(samplingRate(8, 20_000), 80);
  // 1,000 calls would give 100 stamps at 1 in 80: 1 in 8 gives 1,000.
  assert.equal(samplingRate(8, 1_000), 8);
  // Fewer allocator calls in the pass than 1,000: every one.
  assert.equal(samplingRate(3, 100), 1);
  assert.equal(samplingRate(0, 100), 1);
});

test('wrap: each call drawn stamped or control, said to the module through ON and filed per call', async () => {
  const calls = 400;
  const control = new Int32Array(16);
  const timing = await createTiming({ control, firstIteration: 0, iterations: calls });
  const binaryen = await loadBinaryen();
  const text = binaryen.parseText('(module (memory 1) (func (export "work")))');
  const bytes = text.emitBinary();
  text.dispose();
  const on = timing.transform(bytes).imports[HOOK_MODULE][ON];
  const seen = [];
  const op = timing.wrap(function run(state, ctx) {
    seen.push(on.value);
    return [this, state, ctx];
  }, 0);
  control[CTL.call] = 1;
  for (let i = 0; i < calls; i++) {
    control[CTL.iteration] = i;
    // The wrapper passes this and the arguments on.
    assert.deepEqual(op.call('recv', 's', i), ['recv', 's', i]);
  }
  const filed = timing.result(calls).calls.control;
  assert.deepEqual(
    filed,
    seen.map((v) => 1 - v),
  );
  const controls = filed.filter(Boolean).length;
  assert.ok(controls > calls / 8 && controls < calls / 2, `${controls} control calls of ${calls}`);
});
