// The runner end to end through the CLI: raw and scenario targets, weighted
// mixes, buffer arguments, memory capture, back-pressure, seeds, CSV export.
// These tests are about mechanics; verdicts have tests of their own, so runs
// pass --fail-on none (a loaded machine can make a short run's timing drift).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { decodeLog } from '../../src/analysis/log-reader.js';
import { fixture, readSummary, runCli, tempDir } from '../helpers.js';

const RAW = fixture('soak', 'modules');

function assertContiguous(data, n) {
  assert.equal(data.calls, n);
  for (let i = 0; i < data.calls; i++) assert.ok(data.elapsed[i] > 0, `call ${i} has a time`);
}

test('raw module: every iteration is logged with time and memory', async () => {
  const out = tempDir();
  const r = await runCli([
    'run',
    join(RAW, 'clean.wasm'),
    '--call',
    'step',
    '-n',
    '3000',
    '--seed',
    '7',
    '-o',
    out,
    '-q',
    '--slow-every',
    '1000',
    '--fail-on',
    'none',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const s = readSummary(out);
  assert.equal(s.status, 'completed');
  assert.equal(s.iterations.completed, 3000);
  assert.equal(s.ops[0].name, 'step');
  assert.equal(s.ops[0].count, 3000);
  assert.ok(s.memory.start >= 65536 && s.memory.end >= s.memory.start);
  assert.ok(s.time.early.median > 0 && s.time.late.p99 >= s.time.late.median);
  assert.match(s.target.module.sha256, /^[0-9a-f]{64}$/);
  assert.match(s.reproduce, /--seed 7$/);
  const data = decodeLog(join(out, 'samples.wslog'));
  assertContiguous(data, 3000);
  assert.equal(data.complete, true);
  assert.ok(data.metrics.rss.value.length >= 3 && data.metrics.jsHeap.value.length >= 3);
  assert.ok(data.metrics['memory:memory'], 'the exported memory is tracked by name');
  assert.equal(data.header.env.node, process.version);
  assert.ok(data.header.env.cpu.length > 0);
  const pkg = JSON.parse(readFileSync(fixture('package.json'), 'utf8'));
  assert.equal(data.header.tool.version, pkg.version, "the log says package.json's version");
});

test('weighted mix follows the weights and the seed reproduces the op sequence', async () => {
  const runs = [];
  for (const seed of ['11', '11', '12']) {
    const out = tempDir();
    const r = await runCli([
      'run',
      join(RAW, 'parse.wasm'),
      '--call',
      'parse:3,checksum:1',
      '--args',
      'parse=buf:1..512',
      '-n',
      '4000',
      '--seed',
      seed,
      '-o',
      out,
      '-q',
      '--fail-on',
      'none',
    ]);
    assert.equal(r.code, 0, r.stderr);
    runs.push(decodeLog(join(out, 'samples.wslog')));
  }
  const parse = runs[0].op.filter((o) => o === 0).length;
  assert.ok(parse > 2700 && parse < 3300, `parse ran ${parse} of 4000 times for weight 3:1`);
  assert.deepEqual(Array.from(runs[0].op), Array.from(runs[1].op));
  assert.notDeepEqual(Array.from(runs[0].op), Array.from(runs[2].op));
});

test('buffer arguments reach the export through its allocator without leaking', async () => {
  const out = tempDir();
  const r = await runCli([
    'run',
    join(RAW, 'parse.wasm'),
    '--call',
    'parse',
    '--args',
    'buf:64..4096',
    '-n',
    '3000',
    '--seed',
    '3',
    '-o',
    out,
    '-q',
    '--slow-every',
    '500',
    '--fail-on',
    'none',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const s = readSummary(out);
  assert.equal(s.ops[0].count, 3000);
  // Every buffer is freed after its call, so the heap stays at its working size.
  assert.ok(s.memory.end <= s.memory.afterWarmup + 65536, `memory ${s.memory.afterWarmup} -> ${s.memory.end}`);
});

test('scenario: ops, async ops, seeded ctx, stats() recorded as live bytes', async () => {
  const out = tempDir();
  // The scenario keeps every value it draws, so its live bytes grow: a leak
  // by design; this test is about the mechanics, not the verdict.
  const r = await runCli([
    'run',
    fixture('test', 'scenarios', 'mix.mjs'),
    '-n',
    '2000',
    '--seed',
    '5',
    '-o',
    out,
    '-q',
    '--slow-every',
    '100',
    '--fail-on',
    'none',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const s = readSummary(out);
  assert.equal(s.name, 'mix');
  assert.deepEqual(
    s.ops.map((o) => o.name),
    ['small', 'text', 'later'],
  );
  assert.equal(
    s.ops.reduce((a, o) => a + o.count, 0),
    2000,
  );
  const data = decodeLog(join(out, 'samples.wslog'));
  assertContiguous(data, 2000);
  const asyncCalls = Array.from(data.flags).filter((f) => f & 4).length;
  assert.equal(asyncCalls, s.ops[2].count, 'async op calls carry the async flag');
  const live = data.metrics.liveBytes.value;
  assert.ok(live.length >= 20 && live[live.length - 1] > live[0]);
});

test('memory capture: an imported memory created with new WebAssembly.Memory', async () => {
  const out = tempDir();
  // The module grows its memory on purpose (a growth finding): --fail-on none.
  const r = await runCli([
    'run',
    fixture('test', 'scenarios', 'capture-imported.mjs'),
    '-n',
    '5000',
    '-o',
    out,
    '-q',
    '--fail-on',
    'none',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const s = readSummary(out);
  assert.equal(s.memory.memories.length, 1);
  assert.equal(s.memory.memories[0].label, 'env.memory');
  assert.equal(s.memory.start, 65536);
  assert.equal(s.memory.end, 65536 * 6, 'five growth steps (calls 1000..5000) are seen');
  assert.equal(s.memory.growthEvents, 5);
});

test('memory capture: a memory exported under a minified name', async () => {
  const out = tempDir();
  const r = await runCli([
    'run',
    fixture('test', 'scenarios', 'capture-minified.mjs'),
    '-n',
    '1000',
    '-o',
    out,
    '-q',
    '--fail-on',
    'none',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const s = readSummary(out);
  assert.deepEqual(
    s.memory.memories.map((m) => m.label),
    ['O'],
  );
  assert.equal(s.memory.start, 65536);
});

test('back-pressure: a tiny ring makes the loop wait and no sample is lost', async () => {
  const out = tempDir();
  const r = await runCli([
    'run',
    join(RAW, 'empty.wasm'),
    '--call',
    'noop',
    '-n',
    '20000',
    '--ring-records',
    '16',
    '-o',
    out,
    '-q',
    '--fail-on',
    'none',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const s = readSummary(out);
  assert.ok(s.samples.backPressureWaits > 0, 'the loop had to wait');
  assertContiguous(decodeLog(join(out, 'samples.wslog')), 20000);
});

test('export --csv writes one row per call and the slow samples', async () => {
  const out = tempDir();
  await runCli(['run', join(RAW, 'clean.wasm'), '--call', 'step', '-n', '500', '-o', out, '-q', '--fail-on', 'none']);
  const r = await runCli(['export', out, '--csv']);
  assert.equal(r.code, 0, r.stderr);
  const rows = readFileSync(join(out, 'samples.csv'), 'utf8').trim().split('\n');
  assert.equal(rows[0], 'iteration,op,elapsed_ns,memory_bytes,grew,threw');
  assert.equal(rows.length, 501);
  assert.match(rows[1], /^0,step,\d+(\.\d+)?,\d+,[01],0$/);
  const metrics = readFileSync(join(out, 'metrics.csv'), 'utf8');
  assert.match(metrics, /^series,iteration,t_ms,value\n/);
  assert.match(metrics, /\nrss,/);
});

test('--json prints the summary on stdout', async () => {
  const out = tempDir();
  const r = await runCli([
    'run',
    join(RAW, 'clean.wasm'),
    '--call',
    'step',
    '-n',
    '300',
    '-o',
    out,
    '--json',
    '--fail-on',
    'none',
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).iterations.completed, 300);
});

test('instances created and dropped every call are not kept alive by the runner', async () => {
  const out = tempDir();
  const r = await runCli([
    'run',
    fixture('test', 'scenarios', 'instance-per-call.mjs'),
    '-n',
    '20000',
    '-o',
    out,
    '-q',
    '--fail-on',
    'leak,fragmentation,growth,js-heap-growth',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const s = readSummary(out);
  assert.ok(s.memory.untrackedMemories > 19000, 'past the cap, memories are counted, not tracked');
  assert.ok(s.memory.end <= 64 * 65536, `tracked memories are held weakly (end ${s.memory.end})`);
  assert.ok(
    !s.findings.some((f) => ['leak', 'growth', 'js-heap-growth'].includes(f.kind)),
    s.findings.map((f) => f.sentence).join(' '),
  );
});

test('--duration without -n runs until the time is up; with -n, whichever limit comes first', async () => {
  const clean = (out, ...limits) =>
    runCli(['run', join(RAW, 'clean.wasm'), '--call', 'step', ...limits, '-o', out, '-q', '--fail-on', 'none']);
  const alone = tempDir();
  const r = await clean(alone, '--duration', '1s');
  assert.equal(r.code, 0, r.stderr);
  const s = readSummary(alone);
  assert.equal(s.stopReason, 'duration', 'the -n default does not cut a --duration run short');
  assert.equal(s.iterations.requested, null);
  assert.ok(s.iterations.completed > 20000, `${s.iterations.completed} calls: more than the -n default`);
  const both = tempDir();
  const b = await clean(both, '-n', '500', '--duration', '1h');
  assert.equal(b.code, 0, b.stderr);
  const t = readSummary(both);
  assert.equal(t.stopReason, 'iterations');
  assert.deepEqual(t.iterations, { requested: 500, completed: 500 });
});

test('--duration stops a long run on time and says so', async () => {
  const out = tempDir();
  const r = await runCli([
    'run',
    join(RAW, 'clean.wasm'),
    '--call',
    'step',
    '-n',
    '4000000000',
    '--duration',
    '1s',
    '-o',
    out,
    '-q',
    '--fail-on',
    'none',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const s = readSummary(out);
  assert.equal(s.stopReason, 'duration');
  assert.ok(s.iterations.completed > 1000 && s.iterations.completed < 4000000000);
  assert.ok(s.durationMs >= 990 && s.durationMs < 3000, `ran ${s.durationMs} ms`);
});
