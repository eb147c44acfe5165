// Bounded disk (--max-log-bytes): a capped log stays under its cap however
// long the run, is thinned past half of it (docs/log-format.md, "Thinned
// logs"), and the analysis gets the same verdict, counts and slopes from it.
// The runs through the CLI; the checks without a run are in
// test/unit/run/log-writer.test.js.
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fixture, readSummary, runCli, tempDir } from '../helpers.js';

const MiB = 1024 * 1024;

test('a capped run of a leaking fixture gets the verdict, counts and slope of the uncapped run, in a log under the cap', async () => {
  const leak = fixture('soak', 'modules', 'leak.wasm');
  const run = async (cap) => {
    const out = tempDir();
    // --full-run: both runs make all their calls (an early stop would end them at different calls, slopes apart).
    const r = await runCli([
      'run',
      leak,
      '--call',
      'step',
      '-n',
      '400000',
      '--seed',
      '11',
      '--full-run',
      '-o',
      out,
      '-q',
      ...cap,
    ]);
    assert.equal(r.code, 1, r.stderr);
    return { out, s: readSummary(out), size: statSync(join(out, 'samples.wslog')).size };
  };
  const capped = await run(['--format', 'md', '--max-log-bytes', '1M']);
  const full = await run(['--format', 'md']);
  assert.ok(capped.size <= MiB, `${capped.size} bytes`);
  assert.ok(full.size > 10 * MiB);
  assert.equal(full.s.samples.thinning, null);
  const t = capped.s.samples.thinning;
  assert.ok(t.stride > 1 && t.fullIterations > 0 && t.capBytes === MiB, JSON.stringify(t));
  assert.match(t.note, /one call per \d+ iterations/);
  // The census sees the leak's live bytes in both runs: a leak, never growth.
  assert.equal(full.s.verdict, 'leak');
  assert.equal(capped.s.verdict, 'leak');
  assert.equal(capped.s.iterations.completed, 400000);
  assert.equal(capped.s.ops[0].count, 400000);
  assert.equal(capped.s.memory.growthEvents, full.s.memory.growthEvents);
  // The slope of live bytes sampled by the census, whose cadence follows its
  // CPU budget: two runs of the same calls sample at other calls, and their
  // slopes differed by up to 8 % here (43.2 to 46.8 KiB per 1,000 calls over
  // six runs, capped or not); the capped run's is within 10 % of the other's.
  const slope = (s) => s.findings.find((f) => f.kind === capped.s.verdict).slope.perKiloIterations;
  assert.ok(Math.abs(slope(capped.s) / slope(full.s) - 1) < 0.1, `${slope(capped.s)} vs ${slope(full.s)}`);
  assert.ok(capped.s.warmup.iterations < 400000 / 5);
});

test('--max-log-bytes below 1M is a usage error', async () => {
  const r = await runCli(['run', fixture('soak', 'modules', 'leak.wasm'), '--call', 'step', '--max-log-bytes', '64K']);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /--max-log-bytes must be a size of at least 1M/);
});
