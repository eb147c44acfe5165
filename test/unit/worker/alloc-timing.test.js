// The time-split pass's sampler rate (src/worker/alloc-timing.js): one
// stamped allocator call in ten calls of an op, lowered so that enough are
// stamped over the pass, never below every call; and its op wrapper: some
// blocks of calls drawn as control calls, each said to the module (ON) and
// filed, the first calls after each change filed as settling.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadBinaryen } from '../../../src/binaryen.js';
import { CTL } from '../../../src/protocol.js';
import { CONTROL_BLOCK, createTiming, SETTLE_CALLS, samplingRate } from '../../../src/worker/alloc-timing.js';
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

test('wrap: blocks of calls drawn stamped or control, said to the module through ON and filed per call, the first after a change as settling', async () => {
  const calls = 50 * CONTROL_BLOCK + 3;
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
  const filed = timing.result(calls).calls;
  assert.deepEqual(
    filed.control,
    seen.map((v) => 1 - v),
  );
  // One draw per block: a change only at a block's first call.
  for (let i = 1; i < calls; i++)
    if (i % CONTROL_BLOCK !== 0) assert.equal(filed.control[i], filed.control[i - 1], `call ${i}`);
  // Settling: the first SETTLE_CALLS calls after each change (the pass starts stamped), and no other.
  let since = SETTLE_CALLS;
  for (let i = 0; i < calls; i++) {
    if (filed.control[i] !== (i > 0 ? filed.control[i - 1] : 0)) since = 0;
    assert.equal(filed.settling[i], since < SETTLE_CALLS ? 1 : 0, `call ${i}`);
    since++;
  }
  const blocks = filed.control.filter((v, i) => v === 1 && i % CONTROL_BLOCK === 0).length;
  assert.ok(blocks > 50 / 8 && blocks < 50 / 2, `${blocks} control blocks of 50`);
  assert.ok(filed.settling.some(Boolean), 'some calls settle a change');
});
