// SIGINT/SIGTERM mid-run: the current iteration finishes, every sample is
// flushed, the partial summary is written and the exit code is 130.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { readRun } from '../src/analysis/log-reader.js';
import { fixture, readSummary, runCli, tempDir } from './helpers.js';

for (const signal of ['SIGINT', 'SIGTERM']) {
  test(`${signal} mid-run keeps every sample and exits 130`, async () => {
    const out = tempDir();
    let sent = false;
    const r = await runCli(
      ['run', fixture('soak', 'modules', 'clean.wasm'), '--call', 'step', '-n', '50000000', '-o', out],
      {
        onStderr(text, child) {
          // Plain progress lines appear every 10 s when not a TTY; the first one
          // is printed at once, so wait for it, then give the loop a moment.
          if (!sent && /it\/s/.test(text)) {
            sent = true;
            setTimeout(() => child.kill(signal), 300);
          }
        },
      },
    );
    assert.equal(r.code, 130, r.stderr);
    const s = readSummary(out);
    assert.equal(s.status, 'interrupted');
    assert.ok(s.iterations.completed > 1000 && s.iterations.completed < 50000000);
    const data = readRun(join(out, 'samples.wslog'));
    assert.equal(data.calls, s.iterations.completed, 'the log holds every completed iteration');
    assert.equal(data.complete, true, 'the log was closed cleanly');
    for (let i = 0; i < data.calls; i++) if (!(data.elapsed[i] > 0)) assert.fail(`iteration ${i} has no time`);
  });
}
