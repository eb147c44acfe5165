// SIGINT/SIGTERM mid-run: the current iteration finishes, every sample is
// flushed, the partial summary is written and the exit code is 130. The
// signal is sent once the log holds records (evidence that the loop runs),
// never after a fixed time, so the test does not depend on the machine's speed.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { decodeLog } from '../../src/analysis/log-reader.js';
import { fixture, readSummary, runCli, tempDir, whenFileReaches } from '../helpers.js';

const HAS_GNUPLOT = spawnSync('gnuplot', ['--version']).status === 0;

for (const signal of ['SIGINT', 'SIGTERM']) {
  test(`${signal} mid-run keeps every sample and every report, figures too, and exits 130`, async () => {
    const out = tempDir();
    const log = join(out, 'samples.wslog');
    const r = await runCli(
      ['run', fixture('soak', 'modules', 'clean.wasm'), '--call', 'step', '-n', '4000000000', '-o', out],
      {
        onSpawn(child) {
          // 256 KiB: the header and thousands of calls recorded.
          whenFileReaches(log, 262144).then(() => child.kill(signal));
        },
      },
    );
    assert.equal(r.code, 130, r.stderr);
    const s = readSummary(out);
    assert.equal(s.status, 'interrupted');
    assert.ok(s.iterations.completed > 1000 && s.iterations.completed < 4000000000);
    const data = decodeLog(log);
    assert.equal(data.calls, s.iterations.completed, 'the log holds every completed iteration');
    assert.equal(data.complete, true, 'the log was closed cleanly');
    for (let i = 0; i < data.calls; i++) if (!(data.elapsed[i] > 0)) assert.fail(`iteration ${i} has no time`);
    // The signal stopped the run, not its reports: the figures of what it
    // recorded are drawn (each bounded by --plot-timeout).
    assert.doesNotMatch(s.outputs.plotsSkipped ?? '', /interrupted/);
    assert.deepEqual(s.interrupted.cutShort, ['the run']);
    for (const f of ['summary.md', 'junit.xml', 'report.html']) assert.ok(existsSync(join(out, f)), f);
    if (HAS_GNUPLOT) for (const f of ['time.png', 'memory.png']) assert.ok(s.outputs.figures.includes(f), f);
  });
}

test('the first plain progress line is printed at once when stderr is not a terminal', async () => {
  const out = tempDir();
  let seen = false;
  const r = await runCli(
    ['run', fixture('soak', 'modules', 'clean.wasm'), '--call', 'step', '-n', '4000000000', '-o', out],
    {
      onStderr(text, child) {
        if (!seen && /it\/s/.test(text)) {
          seen = true;
          child.kill('SIGINT');
        }
      },
    },
  );
  assert.ok(seen, r.stderr);
  assert.equal(r.code, 130, r.stderr);
});

test('SIGTERM during a suite: the interrupted target is an error and the ones never run are named, in every suite output', async () => {
  const dir = tempDir();
  const clean = fixture('soak', 'modules', 'clean.wasm');
  const suite = join(dir, 'suite.json');
  writeFileSync(
    suite,
    JSON.stringify({
      targets: [
        { name: 'first', module: clean, call: 'step', iterations: 300 },
        { name: 'long', module: clean, call: 'step', iterations: 4000000000 },
        { name: 'third', module: clean, call: 'step', iterations: 300 },
      ],
    }),
  );
  const root = join(dir, 'out');
  const r = await runCli(['soak', suite, '--format', 'md,junit', '--fail-on', 'none', '-o', root], {
    onSpawn(child) {
      // The second target is under way: its log holds thousands of calls.
      whenFileReaches(join(root, 'long', 'samples.wslog'), 262144).then(() => child.kill('SIGTERM'));
    },
  });
  assert.equal(r.code, 130, r.stderr);
  const junit = readFileSync(join(root, 'junit.xml'), 'utf8');
  assert.match(junit, /<testsuites name="wasm-soak" tests="3" failures="0" errors="1" skipped="1"/);
  assert.match(
    junit,
    /<testcase classname="wasm-soak" name="long"[^>]*>\s*<error message="interrupted \(SIGTERM during the run, after [\d,]+ of 4,000,000,000 calls\): not judged whole" type="interrupted">/,
  );
  assert.match(
    junit,
    /<testcase classname="wasm-soak" name="third"[^>]*>\s*<skipped message="not run: the suite was interrupted before it \(during long\)"\/>/,
  );
  const md = readFileSync(join(root, 'summary.md'), 'utf8');
  assert.match(md, /3 targets: 1 passed, 0 failed, 1 errors, 1 not run/);
  assert.match(md, /\| long \| ⚠️ error \|/);
  assert.match(md, /\| third \| ⏹️ not run \|/);
  const result = JSON.parse(readFileSync(join(root, 'suite-result.json'), 'utf8'));
  assert.deepEqual(
    result.cases.map((c) => [c.name, c.outcome]),
    [
      ['first', 'passed'],
      ['long', 'error'],
      ['third', 'skipped'],
    ],
  );
});
