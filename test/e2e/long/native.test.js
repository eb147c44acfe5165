// compare's native arm (docs/compare.md, "The native yardstick"): the
// yardstick fixture built to wasm and, here, to a native shared library
// (node soak/build.js --native), compared end to end: outputs agree call for
// call, both ops' wasm ÷ native ratios and the sentence placing the gap; a
// native arm that segfaults is that arm's failure (exit 3, the signal named)
// and the other arm's results are kept; a Ctrl-C stops every arm; a
// library's own mallinfo2 is its memory;
// libraries that cannot be an arm are
// exit-2 errors naming the problem; a suite's native arm; the sentence's rule.
// The runs through the CLI; the checks without a run are in
// test/unit/report/native-gap.test.js.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { CLI, fixture, ROOT, runCli, tempDir } from '../../helpers.js';

const WASM = fixture('soak', 'modules', 'yardstick.wasm');
const NATIVE = fixture('soak', 'native', 'yardstick.so');
const readJson = (dir, file) => JSON.parse(readFileSync(join(dir, file), 'utf8'));

before(() => {
  execFileSync(process.execPath, ['soak/build.js', '--native'], { cwd: ROOT, stdio: 'ignore' });
});

test('wasm against native, same source: outputs agree call for call, per-op ratios and where the gap is', async () => {
  const out = tempDir();
  const args = ['compare', WASM, NATIVE, '--call', 'churn:1,scan:1', '--args', 'scan=buf:1024..4096'];
  const r = await runCli([...args, '--check-outputs', '--format', 'md', '-q', '-o', out]);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const c = readJson(out, 'compare.json');
  assert.deepEqual(c.outputs, { checked: true, mismatches: [] });
  assert.deepEqual(
    c.arms.map((a) => [a.name, a.kind]),
    [
      ['A', 'module'],
      ['B', 'native'],
    ],
  );
  const [y] = c.native.arms;
  assert.equal(c.native.reference, 'A');
  const byOp = Object.fromEntries(y.ops.map((o) => [o.op, o]));
  // churn allocates 64 blocks per call in wasm (the counting pass), scan none.
  assert.equal(byOp.churn.allocsPerCall, 64);
  assert.equal(byOp.scan.allocsPerCall, 0);
  for (const o of y.ops) {
    assert.ok(o.ratio.low <= o.ratio.ratio && o.ratio.ratio <= o.ratio.high, JSON.stringify(o.ratio));
    assert.equal(o.ratio.pairs, c.design.blocks);
  }
  // Same code, same clang -O2: wasm is not faster than native on either op.
  assert.ok(byOp.churn.ratio.high > 1 && byOp.scan.ratio.high > 1, JSON.stringify(y.ops));
  assert.match(
    y.sentence,
    /^churn is \d+\.\d\d× native \(95 %: .*\) at 64 allocations per call, scan .* at no allocation: /,
  );
  // yardstick.so uses the C library's malloc: its mallinfo2 would count the whole process.
  assert.match(y.memory, /^unavailable: a native library shares the process heap, and this one defines no mallinfo2/);
  // The native arm's confounds: its compiler from .comment, the malloc its buffers came from.
  const toolchain = c.confounds.differs.find((d) => d.aspect === 'toolchain (producers section)');
  assert.match(toolchain.values.B, /^\.comment: .*clang version/);
  const census = c.confounds.differs.find((d) => d.aspect === 'allocator (heap census)');
  assert.deepEqual(census.values, { A: 'dlmalloc', B: 'malloc of libc.so.6' });
  assert.ok(c.confounds.differs.some((d) => d.aspect === 'CPU features'));
  // Reported on the terminal and in compare.md.
  assert.match(r.stdout, /native yardstick \(B\):\nop +\| A \(wasm\) median +\| B \(native\) median/);
  assert.ok(r.stdout.includes(y.sentence));
  assert.match(readFileSync(join(out, 'compare.md'), 'utf8'), /## Native yardstick \(B\)\n\n\| op \|/);
});

test('a native arm that segfaults fails alone: exit 3 naming the signal, the wasm arm kept', async () => {
  const out = tempDir();
  // poke stores at address 16 from call 3000 on: round 3 of 1000-call blocks.
  const args = ['compare', WASM, NATIVE, '--call', 'poke', '--blocks', '4', '--block-calls', '1000'];
  const r = await runCli([...args, '--format', 'md', '-q', '-o', out]);
  assert.equal(r.code, 3, r.stderr + r.stdout);
  assert.match(
    r.stderr,
    /arm B \(yardstick\.so\) failed: the native library crashed with SIGSEGV \(segmentation fault/,
  );
  assert.match(r.stderr, /in its block of round 3/);
  const b = readJson(join(out, 'B'), 'summary.json');
  assert.equal(b.status, 'failed');
  assert.equal(b.error.code, 'WS_ECRASH');
  // A ran its blocks up to the crash, and its result folder is complete.
  const a = readJson(join(out, 'A'), 'summary.json');
  assert.notEqual(a.status, 'failed');
  assert.ok(a.iterations.completed >= 3000, JSON.stringify(a.iterations));
  assert.ok(existsSync(join(out, 'A', 'samples.wslog')));
});

test("Ctrl-C at the terminal (SIGINT to the whole process group) stops every arm, the native arm's process too: exit 130", async () => {
  const out = tempDir();
  const args = ['compare', WASM, NATIVE, '--call', 'churn:1,scan:1', '--args', 'scan=buf:1024..4096', '--blocks', '40'];
  const child = spawn(process.execPath, [CLI, ...args, '--fail-if-slower', 'none', '--format', 'md', '-o', out], {
    cwd: ROOT,
    detached: true, // a process group of its own, as a terminal's job
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  let sent = false;
  child.stderr.on('data', (d) => {
    stderr += d;
    if (!sent && /round 1\/40 done/.test(stderr)) {
      sent = true;
      process.kill(-child.pid, 'SIGINT');
    }
  });
  const code = await new Promise((resolve) => child.on('close', resolve));
  assert.equal(code, 130, stderr);
  assert.match(stderr, /compare: interrupted; each arm's samples and summary are in/);
  for (const arm of ['A', 'B']) assert.equal(readJson(join(out, arm), 'summary.json').status, 'interrupted', arm);
});

test('a native library with its own mallinfo2: its memory is read from it', async () => {
  const dir = tempDir();
  const lib = join(dir, 'native-heap.so');
  execFileSync('clang', [
    '-shared',
    '-fPIC',
    '-O2',
    '-Wall',
    '-Wextra',
    '-Werror',
    fixture('test', 'fixtures', 'native-heap.c'),
    '-o',
    lib,
  ]);
  const out = join(dir, 'out');
  const args = [
    'compare',
    WASM,
    lib,
    '--call',
    'churn',
    '--blocks',
    '4',
    '--block-calls',
    '500',
    '--fail-if-slower',
    'none',
  ];
  const r = await runCli([...args, '--format', 'md', '-q', '-o', out]);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const b = readJson(out, 'compare.json').arms[1];
  // 64 bytes per call, never freed: its heap is the 4 MiB arena.
  assert.match(b.memory.native, /^the library's own mallinfo2: [\d.]+ KiB live at the end, its heap at most 4\.0 MiB$/);
  assert.match(readJson(join(out, 'B'), 'summary.json').sources.native.heap, /^mallinfo2 \(the library's own/);
});

test('what cannot be a native arm is an exit-2 error naming the problem', async () => {
  const dir = tempDir();
  const run = (...args) => runCli(['compare', ...args, '-q', '-o', join(dir, 'out')]);
  // A library without the export the wasm arm names.
  const parse = fixture('soak', 'modules', 'parse.wasm');
  let r = await run(parse, NATIVE, '--call', 'parse', '--args', 'buf:16..64');
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /yardstick\.so does not export the function "parse" that the wasm arm exports/);
  // A shared library for another machine.
  const foreign = join(dir, 'foreign.so');
  const bytes = readFileSync(NATIVE);
  bytes.writeUInt16LE(process.arch === 'arm64' ? 62 : 183, 18);
  writeFileSync(foreign, bytes);
  r = await run(WASM, foreign, '--call', 'churn');
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /foreign\.so cannot be a native arm: it is built for (AArch64|x86-64), and this machine is/);
  // The native arm first: it has no signatures of its own.
  r = await run(NATIVE, WASM, '--call', 'churn');
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /a native arm takes its signatures from it/);
  // run takes no native library.
  const copy = join(dir, 'lib.so');
  copyFileSync(NATIVE, copy);
  r = await runCli(['run', copy, '--call', 'churn', '-n', '10', '-q', '-o', join(dir, 'run')]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /is a native shared library; only compare runs one/);
});

test('a suite target with a native arm prints its yardstick sentence', async () => {
  const dir = tempDir();
  const suite = join(dir, 'suite.json');
  const target = { name: 'yard', arms: [WASM, NATIVE], call: 'churn:1,scan:1', args: ['scan=buf:1024..4096'] };
  writeFileSync(suite, JSON.stringify({ targets: [{ ...target, blocks: 4, blockCalls: 500, failIfSlower: 'none' }] }));
  const r = await runCli(['soak', suite, '-o', join(dir, 'out')]);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  assert.match(r.stdout, /\n\s+B: churn is \d+\.\d\d× native .* scan .* at no allocation: /);
});
