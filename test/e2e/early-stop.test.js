// The early stop of a leaking run end to end (src/analysis/early-stop.js,
// docs/verdicts.md, "Early stop"): a leaking scenario ends once its leak is
// decided and says so. The rule itself, on synthetic runs of every kind:
// test/unit/analysis/early-stop.test.js.
import assert from 'node:assert/strict';
import test from 'node:test';
import { EARLY_STOP } from '../../src/analysis/early-stop.js';
import { fixture, readSummary, runCli, tempDir } from '../helpers.js';

test('a leaking run ends once its leak is decided, and says so', async () => {
  const out = tempDir();
  // A minute planned: the leak is decided in seconds (the rule's own pace: analyses every 2 s).
  const r = await runCli(['run', fixture('soak', 'scenarios', 'leak-stats.mjs'), '--duration', '60s', '-o', out]);
  assert.equal(r.code, 1, r.stderr);
  const s = readSummary(out);
  assert.equal(s.verdict, 'leak');
  assert.equal(s.status, 'completed');
  assert.equal(s.stopReason, 'decided');
  assert.ok(s.durationMs < 60000, `${s.durationMs} ms`);
  assert.ok(s.earlyStop.calls <= s.iterations.completed && s.earlyStop.share >= EARLY_STOP.minShare);
  assert.equal(s.earlyStop.plannedCalls, null);
  assert.match(r.stderr, /wasm-soak: the leak was decided after [\d,]+ calls/);
  assert.match(r.stdout, /^ {2}ended early: the leak was decided after/m);
});
