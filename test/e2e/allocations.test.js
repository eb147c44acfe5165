// Seeing inside the allocator end to end: exact counts from the counting pass,
// the name section, mallinfo, glue modules, budgets and growth attribution.
// The pass's checks on logs built by hand: test/unit/analysis/allocations.test.js.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { decodeLog } from '../../src/analysis/log-reader.js';
import { fixture, memoryFindings, runCli, runToSummary, tempDir } from '../helpers.js';

const mod = (name) => fixture('soak', 'modules', `${name}.wasm`);

const run = runToSummary;

test('exact counts for a known pattern (malloc, calloc, realloc, free)', async () => {
  const { out, summary } = await run([
    'run',
    mod('pattern'),
    '--call',
    'step',
    '-n',
    '3000',
    '--count-allocs',
    '--seed',
    '2',
    '--fail-on',
    'none',
  ]);
  const a = summary.allocations;
  assert.deepEqual(a.instrumented, [['malloc', 'dlmalloc', 'calloc', 'realloc', 'free', 'dlfree']]);
  assert.equal(a.calls, 3000);
  assert.deepEqual([a.ops[0].allocs.median, a.ops[0].allocs.p99, a.ops[0].allocs.total], [3, 3, 9000]);
  assert.deepEqual([a.ops[0].bytes.median, a.ops[0].bytes.p99], [112, 112]);
  const count = decodeLog(join(out, 'samples-count.wslog'), { allocs: true });
  assert.equal(count.header.pass, 'count');
  for (let i = 1; i < count.calls; i++) {
    if (
      count.allocs[i] !== 3 ||
      count.frees[i] !== 3 ||
      count.allocBytes[i] !== 112 ||
      count.live[i] !== 64 ||
      count.peak[i] !== 160
    ) {
      assert.fail(
        `call ${i}: ${count.allocs[i]} allocs, ${count.frees[i]} frees, ${count.allocBytes[i]} B, live ${count.live[i]}, peak ${count.peak[i]}`,
      );
    }
  }
  assert.equal(count.frees[0], 2, 'the first call has no kept block to free');
  assert.deepEqual(memoryFindings(summary), []);
});

test('an allocator reachable only through the name section is counted', async () => {
  const { summary } = await run([
    'run',
    mod('namesonly'),
    '--call',
    'step',
    '-n',
    '2000',
    '--count-allocs',
    '--fail-on',
    'none',
  ]);
  assert.ok(summary.allocations.instrumented[0].includes('__rust_alloc'));
  assert.ok(summary.allocations.instrumented[0].includes('__rust_dealloc'));
  assert.equal(summary.allocations.ops[0].allocs.median, 2);
  assert.equal(summary.allocations.ops[0].bytes.median, 124);
  assert.equal(summary.allocations.live.end, 0);
});

test('the leaking fixture is a leak without scenario code (counting pass)', async () => {
  const { summary } = await run(['run', mod('leak'), '--call', 'step', '--count-allocs', '--seed', '4'], 1);
  assert.equal(summary.verdict, 'leak');
  assert.equal(summary.sources.liveBytes, 'counting pass');
  assert.equal(summary.allocations.ops[0].allocs.median, 2);
  assert.ok(summary.growthAttribution[0].liveLeftBehind > 20 * 19000, 'the op leaves live bytes behind');
});

test('the fragmenting fixture is fragmentation through its exported mallinfo', async () => {
  const { summary } = await run(['run', mod('fragment'), '--call', 'step', '--seed', '4'], 1);
  assert.equal(summary.verdict, 'fragmentation');
  assert.match(summary.sources.allocator.source, /mallinfo/);
  assert.equal(summary.sources.liveBytes, summary.sources.allocator.source);
  assert.ok(summary.growthAttribution[0].growthEvents > 20);
});

test('the dlmalloc clean workload stays stable with the counting pass', async () => {
  const { summary } = await run([
    'run',
    mod('clean'),
    '--call',
    'step',
    '--count-allocs',
    '--seed',
    '4',
    '--fail-on',
    'leak,fragmentation,growth',
  ]);
  assert.deepEqual(memoryFindings(summary), []);
  assert.equal(summary.allocations.ops[0].allocs.median, 1);
});

test('budgets are exact gates that name the op and the iteration', async () => {
  const over = await run(['run', mod('pattern'), '--call', 'step', '-n', '500', '--max-allocs-per-call', '2'], 1);
  const f = over.summary.findings.find((x) => x.kind === 'budget');
  assert.equal(f.op, 'step');
  assert.equal(f.iteration, 0);
  assert.match(f.sentence, /Call 0 \(op step\) made 3 allocations; the budget is 2 per call/);
  await run([
    'run',
    mod('pattern'),
    '--call',
    'step',
    '-n',
    '500',
    '--max-allocs-per-call',
    'step=3',
    '--max-bytes-per-call',
    '112',
    '--fail-on',
    'none',
  ]);
  const bytes = await run(['run', mod('pattern'), '--call', 'step', '-n', '500', '--max-bytes-per-call', '100'], 1);
  assert.match(
    bytes.summary.findings.find((x) => x.kind === 'budget').sentence,
    /112 B of allocations; the budget is 100 B/,
  );
});

test('a budget with a malformed entry is a usage error', async () => {
  const r = await runCli(['run', mod('pattern'), '--call', 'step', '--max-allocs-per-call', 'lots', '-q']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--max-allocs-per-call has a malformed entry/);
});

test('a budget for an op the run does not have is a usage error before any call', async () => {
  const out = tempDir();
  const r = await runCli([
    'run',
    mod('pattern'),
    '--call',
    'step',
    '--max-bytes-per-call',
    'nosuch=8',
    '-o',
    out,
    '-q',
  ]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /names the op "nosuch", which the run does not have/);
  assert.ok(!existsSync(join(out, 'samples.wslog')), 'no call was made');
});

test('sources: the stack pointer is sampled, missing sources say how to enable them', async () => {
  const { out, summary } = await run([
    'run',
    mod('drift'),
    '--call',
    'step',
    '-n',
    '3000',
    '--slow-every',
    '100',
    '--fail-on',
    'none',
  ]);
  assert.equal(summary.verdict, 'stack-drift');
  assert.match(summary.findings[0].sentence, /shadow stack pointer sinks by 15\.\d KiB per 1,000 calls/);
  assert.equal(summary.sources.stackPointer.source, 'exported __stack_pointer global');
  assert.equal(summary.sources.heapTop.source, null);
  assert.match(summary.sources.heapTop.enable, /sbrk/);
  const { iter, value } = decodeLog(join(out, 'samples.wslog')).metrics.stackPointer;
  const n = value.length - 1;
  assert.equal(value[0] - value[n], 16 * (iter[n] - iter[0]), 'the stack pointer drifts down 16 B a call');
});

test('a counting pass that counts more live bytes than the memory holds is inconsistent: its live bytes decide nothing', async () => {
  const { summary } = await run([
    'run',
    fixture('test', 'fixtures', 'named-drifting-free.wasm'),
    '--call',
    'unseen',
    '-n',
    '2000',
    '--count-allocs',
    '--fail-on',
    'none',
  ]);
  const pass = summary.sources.countingPass;
  assert.equal(pass.caveat, 'inconsistent');
  assert.deepEqual(pass.contradiction, { iteration: 65, liveBytes: 66000, limitBytes: 65536, limit: 'memory' });
  assert.deepEqual(summary.allocations.contradiction, pass.contradiction);
  assert.match(
    pass.note,
    /counted 64\.5 KiB live after call 66, more than the whole linear memory \(64\.0 KiB\): it missed frees/,
  );
  assert.notEqual(summary.sources.liveBytes, 'counting pass');
  assert.deepEqual(memoryFindings(summary), []);
});
