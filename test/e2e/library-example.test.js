import assert from 'node:assert/strict';
import { test } from 'node:test';
import { soak } from 'wasm-soak';

test('this module neither leaks nor slows over 20 000 calls', async () => {
  // Default thresholds: a slowdown is judged against the machine's own drift
  // (docs/verdicts.md), so a busy machine makes a run inconclusive, not red.
  const summary = await soak({
    module: 'soak/modules/clean.wasm',
    call: 'step',
    iterations: 20_000,
    seed: 1,
  });
  assert.equal(summary.status, 'completed');
  assert.deepEqual(
    summary.findings.map((f) => f.sentence),
    [],
  );
  assert.equal(summary.exitCode, 0);
});
