// The analysis is pure: decoded logs in, the summary out, nothing written;
// the writers (src/report/result.js) put the same summary into summary.json.
// One definition of the early and late windows across the summary. Failed
// grows on their own: test/unit/analysis/grow-failures.test.js.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import { readResultLogs } from '../../src/analysis/log-reader.js';
import { analyzed as analyze } from '../../src/report/result.js';
import { fixture, readSummary, runCli, tempDir } from '../helpers.js';

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
