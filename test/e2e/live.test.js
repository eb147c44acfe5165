// The progress line's preliminary verdict (src/analysis/live.js) on a real
// run's log: the live and the final verdicts agree, also thinned. The live
// analysis on synthetic runs: test/unit/analysis/live.test.js.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import test from 'node:test';
import { createLiveAnalysis } from '../../src/analysis/live.js';
import { fixture, readSummary, runCli, tempDir } from '../helpers.js';
import { feed, logRecords } from '../synthetic.js';

test('live and final verdicts agree on a fixture log, also thinned', async () => {
  const out = tempDir();
  const r = await runCli([
    'run',
    fixture('soak', 'modules', 'slowdown.wasm'),
    '--call',
    'step',
    '--seed',
    '7',
    '-o',
    out,
  ]);
  assert.equal(r.code, 1, r.stderr);
  const s = readSummary(out);
  // The progress line's last words are the preliminary verdict of the whole run.
  // (The second timed pass that a slowdown brings shows no preliminary verdict of its own.)
  assert.match(r.stderr, new RegExp(`preliminary verdict: ${s.verdict} \\(so far\\)\\n[^]*$`));
  const [, again] = r.stderr.split('timing the same');
  assert.ok(again, 'the slowdown was timed again');
  assert.doesNotMatch(again, /preliminary verdict/);
  const { header, records } = logRecords(join(out, 'samples.wslog'));
  const cfg = { warmup: header.config.warmup, timeThreshold: header.config.timeThreshold };
  const live = createLiveAnalysis({ header, cfg, capacity: 4096 });
  feed(records, live.consume);
  const thinned = live.analyze();
  assert.ok(thinned.stride >= 4);
  assert.equal(thinned.verdict, s.verdict);
});
