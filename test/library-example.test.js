import assert from 'node:assert/strict';
import { test } from 'node:test';
import { soak } from 'wasm-soak';

test('this module does not leak over 20 000 calls', async () => {
  // timeThreshold 9 (+900 %): memory is judged, not time, which a busy CI machine can make drift.
  const summary = await soak({
    module: 'soak/modules/clean.wasm',
    call: 'step',
    iterations: 20_000,
    seed: 1,
    timeThreshold: 9,
  });
  assert.equal(summary.status, 'completed');
  assert.equal(summary.verdict, 'stable', summary.findings.map((f) => f.sentence).join('\n'));
});
