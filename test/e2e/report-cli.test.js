// Reports end to end through the CLI: what a run leaves in its result folder,
// `wasm-soak report DIR` regenerating it (also from a log cut mid-record),
// --format, and gnuplot missing with and without --require-plots.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fixture, readSummary, runCli, tempDir } from '../helpers.js';

const FIGURES = ['time', 'memory', 'distribution'];
const REPORTS = ['report.html', 'summary.md', 'junit.xml'];
const RECORD = 32; // bytes per call record (docs/log-format.md)

const dirs = [];
function out() {
  const d = tempDir('wasm-soak-report-cli-');
  dirs.push(d);
  return join(d, 'out');
}
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const read = (dir, file) => readFileSync(join(dir, file), 'utf8');
const nonEmpty = (dir, file) => existsSync(join(dir, file)) && statSync(join(dir, file)).size > 0;
const outputs = (figures) => [...figures.flatMap((f) => [`${f}.png`, `${f}.svg`, `${f}-narrow.svg`]), ...REPORTS];

function assertOutputs(dir, figures) {
  for (const f of outputs(figures)) assert.ok(nonEmpty(dir, f), `${f} written`);
  const html = read(dir, 'report.html');
  for (const f of figures)
    assert.match(
      html,
      new RegExp(`<figure id="fig-${f}"><div class="plot wide"><svg[\\s\\S]*?<div class="plot narrow"><svg`),
      `${f} inlined, with its narrow render`,
    );
  assert.match(read(dir, 'summary.md'), /^## /);
  assert.match(read(dir, 'junit.xml'), /<testcase classname="wasm-soak" name="[^"]+"/);
}

function removeOutputs(dir, figures) {
  for (const f of outputs(figures)) unlinkSync(join(dir, f));
}

const leak = (dir, ...more) => [
  'run',
  fixture('soak/modules/leak.wasm'),
  '--call',
  'step',
  '-n',
  '2000',
  '--seed',
  '11',
  '-q',
  '-o',
  dir,
  ...more,
];

test('a run leaves figures (PNG and SVG), report.html, summary.md and junit.xml', async () => {
  const dir = out();
  const r = await runCli(leak(dir, '--fail-on', 'none'));
  assert.equal(r.code, 0, r.stderr);
  assertOutputs(dir, FIGURES);
  assert.ok(!existsSync(join(dir, 'ops.png')), 'no ops figure for a single op');
  assert.deepEqual(
    readSummary(dir).outputs.figures.sort(),
    outputs(FIGURES)
      .filter((f) => !REPORTS.includes(f))
      .sort(),
  );
  assert.match(read(dir, 'gnuplot-stderr.txt'), /# time\.png: ok/);
  assert.match(read(dir, 'report.html'), /--seed 11/, 'the command to reproduce carries the seed');
});

test('an op mix also gets ops.png, and growth markers name their op', async () => {
  const dir = out();
  const r = await runCli([
    'run',
    fixture('soak/modules/parse.wasm'),
    '--call',
    'parse:3,checksum:1',
    '--args',
    'parse=buf:1..300000',
    '-n',
    '2000',
    '--seed',
    '3',
    '-q',
    '--fail-on',
    'none',
    '-o',
    dir,
  ]);
  assert.equal(r.code, 0, r.stderr);
  assertOutputs(dir, [...FIGURES, 'ops']);
  const ops = read(dir, 'ops.svg');
  assert.match(ops, />parse</);
  assert.match(ops, />checksum</);
  // parse's buffers (allocated for the call) make memory grow a few times.
  assert.ok(readSummary(dir).memory.growthEvents > 0);
  assert.match(read(dir, 'memory.svg'), /grew during parse/);
});

test('`wasm-soak report DIR` regenerates every output, also from a log cut mid-record', async () => {
  const dir = out();
  assert.equal((await runCli(leak(dir, '--fail-on', 'none'))).code, 0);
  const before = readSummary(dir);

  removeOutputs(dir, FIGURES);
  unlinkSync(join(dir, 'summary.json'));
  let r = await runCli(['report', dir]);
  assert.equal(r.code, 0, r.stderr);
  assertOutputs(dir, FIGURES);
  const again = readSummary(dir);
  assert.equal(again.status, 'completed');
  assert.equal(again.samples.calls, before.samples.calls);
  assert.equal(again.verdict, before.verdict);

  // A crash: the log loses its end mark and 50 records and a half, and the
  // run never wrote summary.json.
  removeOutputs(dir, FIGURES);
  unlinkSync(join(dir, 'summary.json'));
  const log = join(dir, 'samples.wslog');
  truncateSync(log, statSync(log).size - (RECORD * 50 + 5));
  r = await runCli(['report', dir]);
  assert.notEqual(r.code, 2, `a torn log is readable: ${r.stderr}`);
  assertOutputs(dir, FIGURES);
  const crashed = readSummary(dir);
  assert.equal(crashed.status, 'failed');
  assert.equal(crashed.samples.complete, false);
  assert.ok(crashed.samples.tornBytes > 0, 'the cut record is counted as torn');
  assert.ok(crashed.samples.calls > 0 && crashed.samples.calls < before.samples.calls);
  const closed = /ended without closing its log/;
  assert.match(crashed.error.message, closed);
  assert.match(read(dir, 'report.html'), closed);
  assert.match(read(dir, 'summary.md'), closed);
  assert.match(read(dir, 'junit.xml'), /<error message="the run ended without closing its log/);
});

test('`wasm-soak report` of a completed run whose log lost its second half says so: failed, not completed', async () => {
  const dir = out();
  assert.equal((await runCli(leak(dir, '--fail-on', 'none', '--format', 'md,junit'))).code, 0);
  const before = readSummary(dir);
  assert.equal(before.status, 'completed');
  const log = join(dir, 'samples.wslog');
  truncateSync(log, Math.floor(statSync(log).size / 2) + 3);
  const r = await runCli(['report', dir, '--fail-on', 'none', '--format', 'md,junit']);
  assert.equal(r.code, 3, r.stderr);
  assert.doesNotMatch(r.stdout, /completed/);
  const s = readSummary(dir);
  assert.equal(s.status, 'failed');
  assert.equal(s.samples.complete, false);
  assert.ok(s.samples.calls < before.samples.calls);
  const lost = new RegExp(
    `samples\\.wslog has lost its end: it holds ${s.samples.calls.toLocaleString('en-US')} of the ${before.iterations.completed.toLocaleString('en-US')} calls the run completed`,
  );
  assert.match(s.error.message, lost);
  assert.match(read(dir, 'summary.md'), lost);
  assert.match(read(dir, 'junit.xml'), /<error message="samples\.wslog has lost its end/);
});

test('`wasm-soak report DIR --format md` writes only summary.md', async () => {
  const dir = out();
  assert.equal((await runCli(leak(dir, '--fail-on', 'none', '--format', 'md'))).code, 0);
  const files = () =>
    readdirSync(dir)
      .filter((f) => /\.(png|svg|html|md|xml)$/.test(f))
      .sort();
  assert.deepEqual(files(), ['summary.md'], 'run --format md');
  unlinkSync(join(dir, 'summary.md'));
  const r = await runCli(['report', dir, '--format', 'md']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(files(), ['summary.md'], 'report --format md');
  assert.ok(!existsSync(join(dir, 'gnuplot-stderr.txt')), 'gnuplot not run');
  const bad = await runCli(['report', dir, '--format', 'pdf']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /pdf/);
});

test('gnuplot missing: the run completes, the report says how to get plots, --require-plots exits 3', async () => {
  const env = { WASM_SOAK_GNUPLOT: '/nonexistent' };
  const clean = (dir, ...more) => [
    'run',
    fixture('soak/modules/clean.wasm'),
    '--call',
    'step',
    '-n',
    '2000',
    '--seed',
    '1',
    '-q',
    '--fail-on',
    'none',
    '-o',
    dir,
    ...more,
  ];

  const dir = out();
  let r = await runCli(clean(dir), { env });
  assert.equal(r.code, 0, r.stderr);
  for (const f of REPORTS) assert.ok(nonEmpty(dir, f), `${f} written without gnuplot`);
  assert.ok(!readdirSync(dir).some((f) => /\.(png|svg)$/.test(f)), 'no figures');
  const html = read(dir, 'report.html');
  assert.match(html, /Plots were skipped/);
  assert.match(html, /gnuplot was not found \(\/nonexistent\)/);
  assert.match(html, /apt-get install gnuplot-nox/);
  assert.match(read(dir, 'summary.md'), /apt-get install gnuplot-nox/);
  assert.match(read(dir, 'gnuplot-stderr.txt'), /\/nonexistent/, 'gnuplot-stderr.txt kept');
  assert.match(readSummary(dir).outputs.plotsSkipped, /gnuplot was not found/);
  // Not silent: one line on stderr with the install command.
  const warning = r.stderr.split('\n').filter((l) => /figures skipped/.test(l));
  assert.equal(warning.length, 1, r.stderr);
  assert.match(warning[0], /gnuplot was not found .*apt-get install gnuplot-nox, then run wasm-soak report /);

  const dir2 = out();
  r = await runCli(clean(dir2, '--require-plots'), { env });
  assert.equal(r.code, 3, r.stderr);
  const s = readSummary(dir2);
  assert.equal(s.exitCode, 3);
  assert.match(s.outputs.plotsSkipped, /plots were required but gnuplot was not found/);
  assert.ok(nonEmpty(dir2, 'report.html') && nonEmpty(dir2, 'gnuplot-stderr.txt'));

  r = await runCli(['report', dir2, '--require-plots'], { env });
  assert.equal(r.code, 3, 'report --require-plots without gnuplot');
});

test('--count-allocs: the reports show inside the allocator, a budget is a failure', async () => {
  // pattern makes exactly 3 allocations of 112 bytes in all per call, and
  // frees them; a budget of 2 allocations per call breaks at the first call.
  const dir = out();
  const r = await runCli([
    'run',
    fixture('soak/modules/pattern.wasm'),
    '--call',
    'step',
    '-n',
    '2000',
    '--seed',
    '7',
    '--count-allocs',
    '--max-allocs-per-call',
    '2',
    '-q',
    '-o',
    dir,
  ]);
  assert.equal(r.code, 1, r.stderr);
  const s = readSummary(dir);
  assert.equal(s.sources.liveBytes, 'counting pass');
  assert.deepEqual([s.allocations.ops[0].allocs.median, s.allocations.ops[0].bytes.median], [3, 112]);
  assert.ok(s.findings.some((f) => f.kind === 'budget'));

  const html = read(dir, 'report.html');
  const section = html.match(/<section id="allocator">[\s\S]*?<\/section>/)?.[0] ?? '';
  assert.match(section, /<h2>Inside the allocator<\/h2>/);
  assert.match(section, /<th>live bytes<\/th><td class="found">found<\/td><td>counting pass<\/td>/);
  assert.match(section, /<th>counting pass<\/th><td class="found">found<\/td><td>completed; instrumented [^<]*malloc/);
  assert.match(
    section,
    /<th>heap top<\/th><td class="missing">missing<\/td><td><span class="muted">to enable: export sbrk/,
  );
  // step: 2,000 calls, 3 allocations and 112 bytes per call (median and
  // p99), nothing left behind, and both passes' median time.
  assert.match(
    section,
    /<td>step<\/td><td>2,000<\/td><td>3<\/td><td>3<\/td><td>112 B<\/td><td>112 B<\/td><td>[\d,]+<\/td><td>0 B<\/td><td>[\d.]+ (ns|µs)<\/td><td>[\d.]+ (ns|µs)<\/td>/,
  );
  assert.match(section, /<tr><td>step<\/td><td>0<\/td><td>0 B<\/td><td>0 B<\/td><\/tr>/, 'growth by op');
  assert.match(html, /<th>call<\/th><td>iteration 0 \(op step\)<\/td>/);
  assert.match(html, /<th>value<\/th><td>3 allocations \(budget 2 allocations per call\)<\/td>/);

  const md = read(dir, 'summary.md');
  assert.match(md, /^## ❌ Allocation budget exceeded: pattern/);
  assert.match(md, /\| step \| 2,000 \| 3 \| 3 \| 112 B \| 112 B \| 0 B \| [\d.]+ (ns|µs) \| [\d.]+ (ns|µs) \|/);
  assert.match(md, /<sub>Sources: [^\n]*live bytes: counting pass/);

  const junit = read(dir, 'junit.xml');
  assert.match(junit, /failures="1"/);
  assert.match(
    junit,
    /<failure message="Call 0 \(op step\) made 3 allocations; the budget is 2 per call[^"]*" type="budget">/,
  );
  // Live bytes in the memory figure, if drawn, are keyed by their source,
  // with the peak within calls (160 B: 96 B above the 64 B left live) above.
  const memory = read(dir, 'memory.svg');
  assert.doesNotMatch(memory, /live bytes \((?!counting pass|held free|heap census)/);
  assert.match(memory, /peak live within calls \(up to 96 B above live\)/);
});

test('a shadow stack that never moves is a line of text, not an empty figure', async () => {
  const dir = out();
  const flat = fixture('test', 'fixtures', 'flat-stack.wasm');
  const r = await runCli([
    'run',
    flat,
    '--call',
    'step',
    '-n',
    '3000',
    '--seed',
    '3',
    '--fail-on',
    'none',
    '-q',
    '-o',
    dir,
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(readSummary(dir).sources.stackPointer.source, /__stack_pointer/);
  assert.ok(nonEmpty(dir, 'memory.png'), 'the other figures are drawn');
  assert.ok(!existsSync(join(dir, 'stack.png')), 'no stack figure');
  assert.match(
    read(dir, 'report.html'),
    /<th>shadow stack<\/th><td>flat at 0 B: the stack pointer \([^)]*\) stayed put/,
  );
  assert.match(read(dir, 'summary.md'), /^Shadow stack flat at 0 B: /m);
});

test('report and export of a folder whose samples.wslog is a FIFO: exit 2 at once, never waiting for a writer', async (t) => {
  const dir = tempDir();
  const made = spawnSync('mkfifo', [join(dir, 'samples.wslog')]);
  if (made.status !== 0) {
    t.skip('mkfifo is not available');
    return;
  }
  // A FIFO opened for reading waits for a writer: the bound is that hang's.
  for (const args of [
    ['report', dir],
    ['export', dir, '--csv'],
  ]) {
    const r = await runCli(args, { timeoutMs: 60_000 });
    assert.equal(r.timedOut, false, `${args[0]} hung on the FIFO`);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /samples\.wslog is not a regular file \(a FIFO\)/);
  }
});
