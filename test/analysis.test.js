// The analysis is pure: decoded logs in, the summary out, nothing written;
// the writers (src/report/result.js) put the same summary into summary.json.
// One definition of the early and late windows across the summary.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import { readResultLogs } from '../src/analysis/log-reader.js';
import { analyzed as analyze } from '../src/report/result.js';
import { withSentences } from '../src/report/sentences.js';
import { fixture, readSummary, runCli, tempDir } from './helpers.js';

// Every file of dir with its size, modification time and content hash.
function snapshot(dir) {
  return readdirSync(dir)
    .sort()
    .map((name) => {
      const path = join(dir, name);
      const st = statSync(path);
      return {
        name,
        size: st.size,
        mtimeMs: st.mtimeMs,
        sha: createHash('sha256').update(readFileSync(path)).digest('hex'),
      };
    });
}

test('analyze returns the summary and writes nothing', async () => {
  const out = tempDir();
  const r = await runCli([
    'run',
    fixture('soak', 'modules', 'leak.wasm'),
    '--call',
    'step',
    '--count-allocs',
    '--seed',
    '5',
    '-o',
    out,
    '-q',
    '--format',
    'md',
  ]);
  assert.equal(r.code, 1, r.stderr);
  const written = readSummary(out);
  const before = snapshot(out);

  const logs = readResultLogs(out);
  const c = logs.timed.header.config;
  const cfg = { warmup: c.warmup, timeThreshold: c.timeThreshold, failOn: c.failOn, budgets: c.budgets };
  const run = { status: written.status, reason: written.stopReason, error: null, untrackedMemories: 0 };
  const count = { status: 'completed', frees: written.sources.countingPass.frees };
  const { summary, figureData } = analyze({ ...logs, cfg, run, count });

  assert.deepEqual(snapshot(out), before, 'the result folder is unchanged');
  assert.equal(figureData.calls, 20000);
  // The writers added only what they wrote.
  const { figures, plotsSkipped, ...outputs } = written.outputs;
  assert.deepEqual(summary.outputs, outputs);
  assert.deepEqual({ ...summary, outputs: null }, { ...written, outputs: null });
  assert.equal(summary.verdict, 'leak');
  assert.equal(summary.sources.liveBytes, 'counting pass');
});

test('one early and late window for the summary rows, per-op rows and the time test', async () => {
  const out = tempDir();
  // --fail-on none: the windows are under test, not the verdict (a loaded
  // machine can make 8000 short calls drift, exit 1).
  const r = await runCli([
    'run',
    fixture('soak', 'modules', 'clean.wasm'),
    '--call',
    'step',
    '-n',
    '8000',
    '--seed',
    '3',
    '-o',
    out,
    '-q',
    '--format',
    'md',
    '--fail-on',
    'none',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const s = readSummary(out);
  const time = s.series.find((x) => x.name === 'time');
  assert.ok(time.tested);
  const { early, late } = time.windows;
  for (const [row, w] of [
    [s.time.early, early],
    [s.time.late, late],
    [s.ops[0].time.early, early],
    [s.ops[0].time.late, late],
  ]) {
    assert.equal(row.from, w.from);
    assert.equal(row.to, w.to);
    assert.equal(row.n, w.to - w.from);
  }
  // The first and last fifth of the time test's window, which starts at its warm-up.
  assert.equal(early.from, time.window.from);
  assert.equal(late.to, time.window.to);
  const span = time.window.to - time.window.from;
  assert.ok(Math.abs(early.to - early.from - span / 5) <= span / 50, JSON.stringify(time.windows));
});

// Failed memory.grow calls (src/analysis/grow-failures.js): the finding
// says why (worded by src/report/sentences.js), and joins a
// memory-exhausted finding the trend already made.
test('failed grows: the reason in words, and one memory-exhausted finding with the trend', async () => {
  const { growFailedFinding, withGrowFailures } = await import('../src/analysis/grow-failures.js');
  const { GROW_REASON } = await import('../src/protocol.js');
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
