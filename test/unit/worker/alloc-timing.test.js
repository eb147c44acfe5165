// The time-split pass's sampler rate (src/worker/alloc-timing.js): one
// stamped allocator call in ten calls of an op, lowered so that enough are
// stamped over the pass, never below every call; and its op wrapper: blocks
// of calls drawn as control calls, each said to the module (ON) and filed,
// with the calls just after a change marked as settling.
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

test('wrap: blocks of calls drawn stamped or control, said to the module through ON, filed per call with the settling ones', async () => {
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
  // Bit 0: a control call, as ON said to the module.
  assert.deepEqual(
    filed.map((v) => v & 1),
    seen.map((v) => 1 - v),
  );
  const controls = seen.filter((v) => v === 0).length;
  assert.ok(controls > calls / 8 && controls < calls / 2, `${controls} control calls of ${calls}`);
  // Each kind holds for whole blocks of 16 calls, and the first 4 calls after a change are settling (bit 1).
  let run = 1;
  for (let i = 1; i < calls; i++) {
    if (seen[i] === seen[i - 1]) run++;
    else {
      assert.equal(run % 16, 0, `a run of ${run} calls ending at call ${i}`);
      run = 1;
    }
    assert.equal((filed[i] & 2) !== 0, i > 0 && run <= 4, `call ${i}`);
  }
});
