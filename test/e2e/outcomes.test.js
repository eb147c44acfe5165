// Truthful outcomes through the CLI: a failed run's verdict is "error" in
// every output, -q never hides an error, every output names the tool's
// version, a previous result is kept (moved aside) unless --force, and a
// usage error leaves nothing on disk.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { decodeLog } from '../../src/analysis/log-reader.js';
import { VERSION } from '../../src/version.js';
import { fixture, readSummary, runCli, tempDir } from '../helpers.js';

const mod = (name) => fixture('soak', 'modules', `${name}.wasm`);
const read = (dir, file) => readFileSync(join(dir, file), 'utf8');
// trap.wasm's step traps at iteration 500.
const trap = (out, ...more) => runCli(['run', mod('trap'), '--call', 'step', '-n', '2000', '-o', out, ...more]);
const clean = (out, ...more) =>
  runCli(['run', mod('clean'), '--call', 'step', '-n', '300', '--fail-on', 'none', '-o', out, ...more]);

test('a failed run: verdict error, with the phase and the iteration, in every output', async () => {
  const out = tempDir();
  const r = await trap(out, '--format', 'html,md,junit');
  assert.equal(r.code, 3, r.stderr);
  const s = readSummary(out);
  assert.equal(s.status, 'failed');
  assert.equal(s.verdict, 'error');
  assert.deepEqual([s.error.phase, s.error.iteration, s.error.op], ['iteration', 500, 'step']);
  assert.match(r.stdout, /^ {2}failed, 501 iterations, verdict error$/m);
  assert.match(r.stdout, /error at iteration 500 \(op step\): RuntimeError: unreachable/);
  assert.doesNotMatch(r.stdout, /verdict stable/);
  assert.match(read(out, 'summary.md'), /❌ Run failed/);
  assert.match(read(out, 'report.html'), /<title>wasm-soak: error —/);
  const junit = read(out, 'junit.xml');
  assert.match(junit, /<error message="unreachable"/);
  assert.match(junit, /verdict: error \(failed\)/);
});

test('-q silences the report, never the error of a failed run', async () => {
  const r = await trap(tempDir(), '-q', '--format', 'md');
  assert.equal(r.code, 3);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /trap: failed, verdict error at iteration 500 \(op step\): RuntimeError: unreachable/);
});

test('every output records the tool version: summary.json, report.html, summary.md, junit.xml, the log header', async () => {
  const out = tempDir();
  const r = await clean(out, '-q', '--format', 'html,md,junit');
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(readSummary(out).tool, { name: 'wasm-soak', version: VERSION });
  assert.deepEqual(decodeLog(join(out, 'samples.wslog')).header.tool, { name: 'wasm-soak', version: VERSION });
  assert.ok(read(out, 'report.html').includes(`wasm-soak ${VERSION}`), 'report.html');
  assert.ok(read(out, 'summary.md').includes(`wasm-soak ${VERSION}`), 'summary.md');
  assert.ok(read(out, 'junit.xml').includes(`<property name="wasm-soak.version" value="${VERSION}"/>`), 'junit.xml');
});

test('re-running into a result folder keeps the previous result (moved aside) unless --force', async () => {
  const out = join(tempDir(), 'r');
  assert.equal((await clean(out, '-q', '--seed', '1', '--format', 'md')).code, 0);
  const second = await clean(out, '-q', '--seed', '2', '--format', 'md');
  assert.equal(second.code, 0, second.stderr);
  assert.ok(second.stderr.includes(`${out} held a previous result; it is kept as ${out}.1`), second.stderr);
  assert.equal(readSummary(`${out}.1`).seed, 1, 'the first result, whole');
  assert.ok(existsSync(join(`${out}.1`, 'samples.wslog')));
  assert.equal(readSummary(out).seed, 2);
  assert.equal((await clean(out, '-q', '--seed', '3', '--format', 'md')).code, 0);
  assert.equal(readSummary(`${out}.2`).seed, 2, 'the next free name');
  const forced = await clean(out, '-q', '--seed', '4', '--format', 'md', '--force');
  assert.equal(forced.code, 0, forced.stderr);
  assert.equal(readSummary(out).seed, 4, '--force writes over it');
  assert.ok(!existsSync(`${out}.3`), 'nothing moved aside with --force');
});

test('soak keeps a previous suite root (moved aside) unless --force; its usage errors touch nothing', async () => {
  const dir = tempDir();
  const suite = join(dir, 'suite.json');
  writeFileSync(suite, JSON.stringify({ targets: [{ name: 'clean', module: mod('clean'), call: 'step' }] }));
  const root = join(dir, 'results');
  const soak = (...more) =>
    runCli(['soak', suite, '-o', root, '-n', '300', '--fail-on', 'none', '-q', '--format', 'md', ...more]);
  assert.equal((await soak('--seed', '1')).code, 0);
  const second = await soak('--seed', '2');
  assert.equal(second.code, 0, second.stderr);
  assert.ok(second.stderr.includes(`${root} held a previous result; it is kept as ${root}.1`), second.stderr);
  assert.equal(readSummary(join(`${root}.1`, 'clean')).seed, 1);
  assert.ok(existsSync(join(`${root}.1`, 'junit.xml')));
  assert.equal(readSummary(join(root, 'clean')).seed, 2);
  assert.equal((await soak('--seed', '3', '--force')).code, 0);
  assert.equal(readSummary(join(root, 'clean')).seed, 3, '--force writes over it');
  // A usage error in the suite's options stops it before the root is touched.
  const bad = await soak('--warmup', '999999');
  assert.equal(bad.code, 2);
  assert.deepEqual(readdirSync(dir).sort(), ['results', 'results.1', 'suite.json']);
  assert.equal(readSummary(join(root, 'clean')).seed, 3);
});

test("soak puts back the previous root on a target's input error (exit 2 leaves nothing on disk)", async () => {
  const dir = tempDir();
  const suite = join(dir, 'suite.json');
  const root = join(dir, 'out');
  const soak = (targets) => {
    writeFileSync(suite, JSON.stringify({ targets }));
    return runCli(['soak', suite, '-o', root, '-n', '300', '--fail-on', 'none', '-q', '--format', 'md', '--seed', '1']);
  };
  assert.equal((await soak([{ name: 'clean', module: mod('clean'), call: 'step' }])).code, 0);
  writeFileSync(join(root, 'mine.txt'), 'mine\n');
  const before = readdirSync(root, { recursive: true }).sort();
  const r = await soak([
    { name: 'clean', module: mod('clean'), call: 'step' },
    { name: 'missing', module: join(dir, 'missing.wasm'), call: 'step' },
  ]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /missing: .*missing\.wasm/);
  assert.match(r.stderr, /nothing was kept, as after any input error \(exit 2\); the previous result is back in place/);
  assert.deepEqual(readdirSync(root, { recursive: true }).sort(), before, 'the previous root, as it was');
  assert.equal(readFileSync(join(root, 'mine.txt'), 'utf8'), 'mine\n');
  assert.ok(!existsSync(`${root}.1`), 'no folder left aside');
  // Into a new root: no root at all.
  rmSync(root, { recursive: true });
  const fresh = await soak([{ name: 'missing', module: join(dir, 'missing.wasm'), call: 'step' }]);
  assert.equal(fresh.code, 2, fresh.stderr);
  assert.ok(!existsSync(root), 'the root made for the suite is removed');
});

/** Every name under dir (recursively, "." files too), sorted: what a refused command must leave as it was. */
const tree = (dir) => readdirSync(dir, { recursive: true }).sort();

test('-o . (or a parent of the working folder) is refused, and a folder wasm-soak did not make is never moved', async () => {
  const dir = tempDir();
  const project = join(dir, 'project');
  mkdirSync(join(project, '.git'), { recursive: true });
  mkdirSync(join(project, 'sub'));
  writeFileSync(join(project, 'main.c'), 'int main(void) { return 0; }\n');
  // A previous result in the working folder, as a run into -o . made one before: it makes . look like a result.
  writeFileSync(join(project, 'summary.json'), '{}\n');
  writeFileSync(join(project, 'junit.xml'), '<testsuites/>\n');
  const suite = join(dir, 'suite.json');
  writeFileSync(suite, JSON.stringify({ targets: [{ name: 'clean', module: mod('clean'), call: 'step' }] }));
  const before = tree(dir);
  const SHORT = ['-n', '300', '--fail-on', 'none', '-q', '--format', 'md'];
  for (const [what, argv, cwd] of [
    ['run -o .', ['run', mod('clean'), '--call', 'step', ...SHORT, '-o', '.'], project],
    [
      'run -o .. from a folder below',
      ['run', mod('clean'), '--call', 'step', ...SHORT, '-o', '..'],
      join(project, 'sub'),
    ],
    ['run -o . --force', ['run', mod('clean'), '--call', 'step', ...SHORT, '-o', '.', '--force'], project],
    ['soak -o .', ['soak', suite, ...SHORT, '-o', '.'], project],
    [
      'compare -o .',
      ['compare', mod('work'), mod('work'), '--call', 'step', '--blocks', '4', '-q', '-o', '.'],
      project,
    ],
  ]) {
    const r = await runCli(argv, { cwd });
    assert.equal(r.code, 2, `${what}: ${r.stderr}`);
    assert.match(
      r.stderr,
      /The result folder \.{1,2} is (the current directory|a parent of the current directory \(.*\)): /,
      what,
    );
    assert.match(r.stderr, /Give --out a folder of its own/, what);
    assert.deepEqual(tree(dir), before, `${what}: nothing moved, written or removed`);
  }

  // A folder that looks like a result but that wasm-soak did not make (no marker): nothing is moved out of it.
  const foreign = join(dir, 'reports');
  mkdirSync(foreign);
  writeFileSync(join(foreign, 'junit.xml'), '<testsuites/>\n');
  writeFileSync(join(foreign, 'mine.txt'), 'mine\n');
  const foreignRun = join(dir, 'out');
  mkdirSync(foreignRun);
  writeFileSync(join(foreignRun, 'summary.json'), '{"mine":true}\n');
  const beforeForeign = tree(dir);
  for (const [what, argv] of [
    ['soak into a folder with a foreign junit.xml', ['soak', suite, ...SHORT, '-o', foreign]],
    [
      'run into a folder with a foreign summary.json',
      ['run', mod('clean'), '--call', 'step', ...SHORT, '-o', foreignRun],
    ],
  ]) {
    const r = await runCli(argv);
    assert.equal(r.code, 2, `${what}: ${r.stderr}`);
    assert.match(
      r.stderr,
      /holds files that look like a result .*but wasm-soak did not make it \(it has no \.wasm-soak\.result file\)/,
      what,
    );
    assert.deepEqual(tree(dir), beforeForeign, `${what}: nothing moved, written or removed`);
  }
  // A folder wasm-soak made carries its marker, and is moved aside as before.
  const made = join(dir, 'made');
  assert.equal((await runCli(['run', mod('clean'), '--call', 'step', ...SHORT, '-o', made])).code, 0);
  assert.ok(existsSync(join(made, '.wasm-soak.result')), 'the marker');
  const again = await runCli(['run', mod('clean'), '--call', 'step', ...SHORT, '-o', made]);
  assert.equal(again.code, 0, again.stderr);
  assert.ok(existsSync(join(`${made}.1`, 'summary.json')) && existsSync(join(made, '.wasm-soak.result')));
});

test('usage errors leave nothing on disk', async (t) => {
  const cases = [
    ['an export that does not exist', (out) => ['run', mod('clean'), '--call', 'nope', '-n', '10', '-o', out]],
    ['a raw target that is no module', (out) => ['run', fixture('test', 'fixtures', 'not-wasm.wasm'), '-o', out]],
    ['an unresolved import', (out) => ['run', fixture('test', 'fixtures', 'needs-import.wasm'), '-o', out]],
    ['a bad option value', (out) => ['run', mod('clean'), '--call', 'step', '-n', 'ten', '-o', out]],
  ];
  for (const [what, argv] of cases) {
    await t.test(what, async () => {
      const dir = tempDir();
      const r = await runCli(argv(join(dir, 'a', 'b')));
      assert.equal(r.code, 2, r.stderr);
      assert.deepEqual(readdirSync(dir), [], 'no folder created');
      // The default result folder (soak-results/<name> in the working folder) neither.
      const cwd = tempDir();
      const d = await runCli(argv(join(dir, 'x')).slice(0, -2), { cwd });
      assert.equal(d.code, 2, d.stderr);
      assert.deepEqual(readdirSync(cwd), [], 'no soak-results/ created');
    });
  }
  await t.test('into a folder that holds a previous result: it stays in place, untouched', async () => {
    const out = join(tempDir(), 'r');
    assert.equal((await clean(out, '-q', '--seed', '5', '--format', 'md')).code, 0);
    const before = readdirSync(out).sort();
    const r = await runCli(['run', mod('clean'), '--call', 'nope', '-n', '10', '-o', out]);
    assert.equal(r.code, 2);
    assert.deepEqual(readdirSync(out).sort(), before);
    assert.equal(readSummary(out).seed, 5);
    assert.ok(!existsSync(`${out}.1`));
  });
  await t.test('into an existing folder: only what the run added is removed', async () => {
    const out = tempDir();
    const r = await runCli(['run', mod('clean'), '--call', 'nope', '-n', '10', '-o', out]);
    assert.equal(r.code, 2);
    assert.ok(existsSync(out));
    assert.deepEqual(readdirSync(out), []);
  });
});
