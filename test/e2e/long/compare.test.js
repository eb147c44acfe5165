// `wasm-soak compare`: the ABBA block order, the checked outputs'
// trampoline, the stated confounds, and comparisons of the soak fixtures
// end to end: a planted 20 % slowdown found with an interval that covers it
// while an arm that does the same work is within the control's noise, a
// checked-output mismatch named at its first call, the allocator pair's
// sizes and counts, the gates, and identical builds judged as one family
// (no arm called different).
// The runs through the CLI; the checks without a run are in
// test/unit/compare/compare.test.js.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { CTL, CTL_WORDS } from '../../../src/protocol.js';
import { fixture, runCli, tempDir } from '../../helpers.js';

const mod = (name) => fixture('soak', 'modules', `${name}.wasm`);
const readJson = (dir) => JSON.parse(readFileSync(join(dir, 'compare.json'), 'utf8'));
const QUICK = ['--call', 'step', '--format', 'md', '-q', '--seed', '7'];
// Short comparisons that report without the time gate.
const SHORT = ['--fail-if-slower', 'none', '--blocks', '4', '--block-calls', '500', '--format', 'md', '-q'];

test('the block gate does not pause after the run’s last call; before it, it waits for the grant', async () => {
  // Seen in 2 of 36 comparisons of five arms: a batch whose time ran out on
  // the run's last call returned before the loop said it was done, and the
  // arm paused for a block that never came (the comparison hung).
  const control = new Int32Array(new SharedArrayBuffer(CTL_WORDS * 4));
  Atomics.store(control, CTL.grant, 1);
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    import(workerData.url).then(({ createBlockGate }) => {
      const control = new Int32Array(workerData.sab);
      const gate = createBlockGate({ control, blockCalls: 10, calls: 20, slots: null, post() {}, enter() {} });
      gate.wait(20);
      parentPort.postMessage('after the last call');
      gate.wait(10);
      parentPort.postMessage('granted');
    });`;
  const url = new URL('../../../src/worker/blocks.js', import.meta.url).href;
  const worker = new Worker(code, { eval: true, workerData: { sab: control.buffer, url } });
  const messages = [];
  const next = () =>
    new Promise((resolve, reject) => {
      const bound = setTimeout(() => reject(new Error(`the gate is still paused after: ${messages}`)), 60_000);
      worker.once('message', (m) => {
        clearTimeout(bound);
        messages.push(m);
        resolve(m);
      });
    });
  try {
    assert.equal(await next(), 'after the last call');
    const granted = next();
    Atomics.add(control, CTL.grant, 1);
    Atomics.notify(control, CTL.grant);
    assert.equal(await granted, 'granted');
  } finally {
    await worker.terminate();
  }
});

test('a planted 20 % slowdown is found, an arm doing the same work is within the control, a wrong output is named', async () => {
  const out = tempDir();
  const args = [mod('work'), mod('work-slow'), mod('work-wrong'), '--control', '--check-outputs'];
  const r = await runCli(['compare', ...args, '--blocks', '8', '--block-calls', '1000', '-o', out, ...QUICK]);
  assert.equal(r.code, 1, r.stderr);
  const c = readJson(out);
  assert.deepEqual(
    c.arms.map((a) => [a.name, a.role]),
    [
      ['A', 'arm'],
      ['B', 'arm'],
      ['C', 'arm'],
      ['control', 'control'],
    ],
  );
  const [slow, same] = c.differences;
  // Generous bound: the interval, widened by 5 points, covers the planted +20 %.
  assert.ok(slow.time.low - 0.05 <= 0.2 && 0.2 <= slow.time.high + 0.05, JSON.stringify(slow.time));
  assert.equal(slow.time.real, true);
  assert.ok(c.regressions.some((g) => g.arm === 'B' && g.metric === 'time'));
  // work-wrong does exactly A's work: no real difference, no time regression.
  assert.equal(same.arm, 'C');
  assert.equal(same.time.real, false, JSON.stringify(same.time));
  assert.ok(!c.regressions.some((g) => g.arm === 'C' && g.metric === 'time'));
  // Its outputs differ from call 3000 on: named at that call; B's agree.
  assert.deepEqual(
    c.outputs.mismatches.map((m) => [m.arm, m.iteration]),
    [['C', 3000]],
  );
  assert.match(r.stdout, /REGRESSION \(outputs\): checked outputs differ: C's call 3000/);
  assert.match(r.stdout, /^stated confounds:/);
});

test('three copies of one build at default settings: no arm is called different (issue 20, case 8)', async () => {
  const dir = tempDir();
  const copies = ['a', 'b', 'c'].map((name) => {
    const path = join(dir, `${name}.wasm`);
    copyFileSync(mod('work'), path);
    return path;
  });
  const out = join(dir, 'out');
  const r = await runCli(['compare', ...copies, '--call', 'step', '--format', 'md', '-q', '-o', out]);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const c = readJson(out);
  assert.deepEqual(c.intervals.correction, 'bonferroni');
  assert.equal(c.intervals.claims, 2);
  assert.equal(c.intervals.armLevel, 0.975);
  for (const d of c.differences) {
    assert.equal(d.time.real, false, JSON.stringify(c.intervals) + JSON.stringify(d.time));
    assert.equal(d.time.level, 0.975);
    assert.ok(d.time.noiseFloor >= c.intervals.spreadFloor);
  }
  assert.match(r.stdout, /Bonferroni-corrected for the 2 arms compared with A: each interval at 97\.5 %/);
  assert.match(r.stdout, /Δ B +\| Δ C/);
  assert.match(readFileSync(join(out, 'compare.md'), 'utf8'), /Bonferroni-corrected/);
});

test('dlmalloc vs a first-fit allocator: sizes, exact counts, confounds and the three outputs', async () => {
  const out = tempDir();
  const args = [mod('alloc-dlmalloc'), mod('alloc-firstfit'), '--boundary', '--check-outputs'];
  const r = await runCli(['compare', ...args, ...SHORT, '-o', out, '--call', 'step']);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const c = readJson(out);
  const [a, b] = c.arms;
  // The size-optimised allocator wins on size, raw and compressed.
  for (const k of ['raw', 'gzip', 'brotli']) assert.ok(b.size[k] < a.size[k] / 2, `${k}: ${a.size[k]} vs ${b.size[k]}`);
  assert.match(a.sha256, /^[0-9a-f]{64}$/);
  assert.notEqual(a.sha256, b.sha256);
  // The same workload: exactly the same allocations, bytes and live bytes.
  assert.equal(a.counts.allocsPerCall, 4);
  assert.equal(b.counts.allocs, a.counts.allocs);
  assert.equal(b.counts.bytes, a.counts.bytes);
  assert.equal(b.counts.liveEnd, a.counts.liveEnd);
  assert.equal(c.differences[0].allocs, 0);
  assert.deepEqual(c.outputs.mismatches, []);
  // The census recognises dlmalloc but not the first-fit heap: a stated confound.
  const census = c.confounds.differs.find((d) => d.aspect === 'allocator (heap census)');
  assert.deepEqual(census.values, { A: 'dlmalloc', B: 'not recognised' });
  assert.ok(c.confounds.matches.some((m) => m.aspect === 'toolchain (producers section)'));
  // The boundary module ran in the same blocks and is a share of each arm's call.
  assert.equal(c.arms[2].role, 'boundary');
  for (const name of ['A', 'B']) assert.ok(c.boundary.share[name] > 0 && c.boundary.share[name] < 1);
  assert.match(r.stdout, /\n\s*metric\s+\| A\s+\| B\s+\| Δ\n/);
  const md = readFileSync(join(out, 'compare.md'), 'utf8');
  assert.ok(md.indexOf('## Stated confounds') < md.indexOf('## TL;DR'));
  assert.match(md, /\| metric \| A \| B \| Δ \|/);
  const html = readFileSync(join(out, 'compare.html'), 'utf8');
  assert.ok(!/<script|https?:\/\//.test(html.replace('http://www.w3.org/2000/svg', '')), 'self-contained');
  assert.match(html, /<svg/);
  for (const arm of ['A', 'B', 'boundary']) assert.ok(existsSync(join(out, arm, 'summary.json')), arm);
});

test('the gates: more allocations and a higher high-water mark exit 1 and are named', async () => {
  const out = tempDir();
  const r = await runCli([
    'compare',
    mod('clean'),
    mod('leak'),
    '--fail-if-slower',
    'none',
    '--fail-if-more-allocs',
    '--fail-if-higher-water',
    '--higher-water-tolerance',
    '0', // the leak's few KiB are far within the default 20 % and 1 MiB
    '--blocks',
    '4',
    '--block-calls',
    '2000',
    '-o',
    out,
    ...QUICK,
  ]);
  assert.equal(r.code, 1, r.stderr);
  const c = readJson(out);
  assert.deepEqual(c.regressions.map((g) => g.metric).sort(), ['allocations', 'high-water']);
  assert.equal(c.differences[0].allocsPerCall, 1);
  // A verdict change is listed as A's verdict → B's (short runs may be inconclusive).
  const v = c.differences[0].verdict;
  if (c.arms[0].verdict === c.arms[1].verdict) assert.equal(v, null);
  else assert.deepEqual(v, { from: c.arms[0].verdict, to: c.arms[1].verdict });
  assert.match(r.stdout, /REGRESSION \(allocations\): B allocates more than A/);
  assert.match(
    r.stdout,
    /REGRESSION \(high-water\): B's memory high-water mark is \d+\.\d (KiB|MiB) above A's, beyond the tolerance of 0 B \(--fail-if-higher-water\)/,
  );
});

test('compare refuses fewer than two modules and a scenario', async () => {
  const one = await runCli(['compare', mod('work'), '--call', 'step']);
  assert.equal(one.code, 2);
  assert.match(one.stderr, /compare needs at least 2 modules, got 1/);
  const scenario = await runCli([
    'compare',
    mod('work'),
    fixture('soak', 'scenarios', 'clean-stats.mjs'),
    '--call',
    'step',
  ]);
  assert.equal(scenario.code, 2);
  assert.match(scenario.stderr, /compare takes raw modules, or one scenario with --arm/);
});

test('a suite target with arms runs as a comparison and checks its expected winners', async () => {
  const dir = tempDir();
  const suite = join(dir, 'suite.json');
  const target = {
    name: 'allocators',
    arms: [mod('alloc-dlmalloc'), mod('alloc-firstfit')],
    call: 'step',
    blocks: 4,
    blockCalls: 500,
    expect: { smaller: 'A' }, // wrong on purpose: B is the smaller build
  };
  writeFileSync(suite, JSON.stringify({ targets: [target] }));
  // Without -q: the per-target lines are under test (-q silences them).
  const r = await runCli(['soak', suite, '--expect', '--format', 'md', '-o', join(dir, 'out')]);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /allocators: the smallest arm \(gzip -9\) is B, expected A/);
  assert.match(r.stdout, /B vs A: time ×[\d.]+ \(95 %/);
  assert.ok(existsSync(join(dir, 'out', 'allocators', 'compare.json')));
});

test('a scenario compared across builds: setup(ctx) gets each arm’s module in ctx.arm', async () => {
  const out = tempDir();
  const r = await runCli([
    'compare',
    fixture('soak', 'scenarios', 'compare-arm.mjs'),
    '--arm',
    `dl=${mod('alloc-dlmalloc')}`,
    '--arm',
    `ff=${mod('alloc-firstfit')}`,
    ...SHORT,
    '-o',
    out,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const c = readJson(out);
  assert.deepEqual(
    c.arms.map((a) => a.name),
    ['dl', 'ff'],
  );
  assert.ok(c.arms[1].size.gzip < c.arms[0].size.gzip);
  assert.equal(c.arms[1].counts.allocs, c.arms[0].counts.allocs);
  const refused = await runCli([
    'compare',
    fixture('soak', 'scenarios', 'compare-arm.mjs'),
    '--arm',
    `dl=${mod('work')}`,
  ]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /needs at least 2 --arm NAME=PATH, got 1/);
});

test("a package's .js glue given as a scenario's --arm: exit 2 saying what an arm may be, nothing written", async () => {
  const dir = tempDir();
  const glue = join(dir, 'lib_bg.js');
  writeFileSync(glue, 'export function greet() {}\n');
  const out = join(dir, 'cmp');
  const r = await runCli([
    'compare',
    fixture('soak', 'scenarios', 'compare-arm.mjs'),
    '--arm',
    `dl=${mod('alloc-dlmalloc')}`,
    '--arm',
    `glue=${glue}`,
    ...SHORT,
    '-o',
    out,
  ]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(
    r.stderr,
    /--arm glue=.*lib_bg\.js: an arm of a scenario is a WebAssembly module \(its \.wasm file\), and .* is JavaScript/,
  );
  assert.doesNotMatch(r.stderr, /internal error/);
  assert.equal(existsSync(out), false);
});

test('an arm that traps fails the comparison (exit 3) and stops the others', async () => {
  const out = tempDir();
  const r = await runCli([
    'compare',
    mod('clean'),
    mod('trap'),
    ...SHORT,
    '--block-calls',
    '2000',
    '-o',
    out,
    '--call',
    'step',
  ]);
  assert.equal(r.code, 3, r.stderr);
  assert.match(r.stderr, /arm B \(trap\.wasm\) failed/);
  assert.ok(existsSync(join(out, 'A', 'summary.json')) && existsSync(join(out, 'B', 'summary.json')));
});

test('counts from a boundary-only counting pass are a stated confound, marked, and never gated', async () => {
  // A wraps only wasm-bindgen-shaped boundary functions (its step allocates
  // unseen); B's pass is complete and sees one allocation per call.
  const out = tempDir();
  const a = fixture('test', 'fixtures', 'boundary-alloc.wasm');
  const b = fixture('test', 'fixtures', 'forwarder-alloc.wasm');
  const r = await runCli([
    'compare',
    a,
    b,
    '--fail-if-more-allocs',
    '--check-outputs',
    ...SHORT,
    '-o',
    out,
    '--call',
    'step',
  ]);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const c = readJson(out);
  assert.deepEqual(
    c.arms.map((x) => x.counting),
    ['boundary-only', 'complete'],
  );
  assert.equal(c.differences[0].counts.comparable, false);
  assert.deepEqual(c.regressions, [], 'no allocations regression from an incomparable pass');
  const counting = c.confounds.differs.find((d) => d.aspect === 'allocation counting');
  assert.match(counting.values.A, /^boundary only/);
  assert.equal(counting.values.B, 'complete');
  assert.match(
    r.stdout,
    /allocations per call\s+\| 0 \(boundary-only\)\s+\| 1\s+\| not comparable: A's counting is boundary-only/,
  );
  assert.match(r.stdout, /outputs agree \(2,500 calls\)/);
});
