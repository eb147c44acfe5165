// One definition of the early and late windows across the summary.

import assert from 'node:assert/strict';
import test from 'node:test';
import { fixture, readSummary, runCli, tempDir } from './helpers.js';

test('one early and late window for the summary rows, per-op rows and the time test', async () => {
  const out = tempDir();
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
