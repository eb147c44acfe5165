// Failed grows (src/analysis/grow-failures.js): the reason in words, and one
// memory-exhausted finding beside the trend.
import assert from 'node:assert/strict';
import test from 'node:test';
import { withSentences } from '../../../src/report/sentences.js';

// Failed memory.grow calls (src/analysis/grow-failures.js): the finding
// says why (worded by src/report/sentences.js), and joins a
// memory-exhausted finding the trend already made.
test('failed grows: the reason in words, and one memory-exhausted finding with the trend', async () => {
  const { growFailedFinding, withGrowFailures } = await import('../../../src/analysis/grow-failures.js');
  const { GROW_REASON } = await import('../../../src/protocol.js');
  const header = { ops: [{ name: 'step' }], memories: [{ label: 'memory', initialBytes: 65536, maximumBytes: null }] };
  const g = (reason, memoryBytes) => ({ total: 3, records: 2, iteration: 7, op: 0, reason, bytes: 65536, memoryBytes });
  const worded = (findings) => withSentences({ findings }).findings;
  const wasm32 = growFailedFinding(g(GROW_REASON['wasm32-limit'], 4294967296), header, 'counting');
  assert.equal(wasm32.reason, 'wasm32-limit');
  assert.equal(wasm32.limitBytes, 4294967296);
  assert.equal(wasm32.sentence, undefined, 'the analysis returns facts');
  assert.match(
    worded([wasm32])[0].sentence,
    /^memory\.grow failed 3 times \(seen by the counting pass.*iteration 7 \(op step\).*4 GiB limit of wasm32/,
  );
  const refused = growFailedFinding(g(GROW_REASON.refused, 1 << 20), header, 'timed');
  assert.match(worded([refused])[0].sentence, /the engine refused it/);
  assert.equal(growFailedFinding(null, header, 'timed'), null);
  const trend = [
    { kind: 'memory-exhausted', series: 'memory', iteration: 5, op: 'step', bytes: 262144, limitBytes: 262144 },
  ];
  const merged = withGrowFailures(trend, header, g(GROW_REASON['declared-maximum'], 262144));
  assert.equal(merged.length, 1);
  assert.equal(merged[0].failedGrows, 3);
  assert.match(
    worded(merged)[0].sentence,
    /^Linear memory reached 256(\.0)? KiB at iteration 5 \(op step\): its declared maximum \(256(\.0)? KiB\)\. .* memory\.grow failed 3 times/,
  );
  const led = withGrowFailures([{ kind: 'slowdown' }], header, null, g(GROW_REASON.refused, 65536));
  assert.deepEqual(
    led.map((f) => [f.kind, f.pass]),
    [
      ['memory-exhausted', 'counting'],
      ['slowdown', undefined],
    ],
  );
});
