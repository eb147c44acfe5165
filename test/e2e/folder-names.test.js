// Names that become folder names (suite targets, compare arms, baselines)
// are one plain path segment and differ within a suite or a comparison:
// anything else is refused before any run (exit 2, the name and the fix),
// and nothing is written, least of all outside the folder the user chose.
// The runs through the CLI; the checks without a run are in
// test/unit/folder-names.test.js.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fixture, runCli, tempDir } from '../helpers.js';

const mod = (name) => fixture('soak', 'modules', `${name}.wasm`);
const armScenario = fixture('soak', 'scenarios', 'compare-arm.mjs');
const SHORT_RUN = ['-n', '300', '--fail-on', 'none', '--format', 'md', '-q'];
const SHORT_COMPARE = ['--fail-if-slower', 'none', '--blocks', '4', '--block-calls', '500', '--format', 'md', '-q'];

/** A temporary folder with the user's folder P (holding mine.txt) and suite.json of targets; returns { dir, parent, suite }. */
function userFolder(targets = []) {
  const dir = tempDir();
  const parent = join(dir, 'P');
  mkdirSync(parent);
  writeFileSync(join(parent, 'mine.txt'), "the user's own file\n");
  const suite = join(dir, 'suite.json');
  writeFileSync(suite, JSON.stringify({ targets }));
  return { dir, parent, suite };
}

/** compare of the allocator pair as scenario arms named first and second, into out. */
const compareArms = (first, second, out) =>
  runCli([
    'compare',
    armScenario,
    `--arm=${first}=${mod('alloc-dlmalloc')}`,
    `--arm=${second}=${mod('alloc-firstfit')}`,
    ...SHORT_COMPARE,
    '-o',
    out,
  ]);

/** Asserts that nothing was written: dir holds only P and suite.json, P only the user's file. */
function assertUntouched({ dir, parent }) {
  assert.deepEqual(readdirSync(dir).sort(), ['P', 'suite.json']);
  assert.deepEqual(readdirSync(parent), ['mine.txt']);
}

test('a suite target named .. or . is refused before any run: nothing lands beside the root or on it', async (t) => {
  for (const [name, why] of [
    ['..', /is the parent folder \(\.\.\)/],
    ['.', /is the folder itself \(\.\)/],
  ]) {
    await t.test(name, async () => {
      const folders = userFolder([{ name, module: mod('clean'), call: 'step' }]);
      const r = await runCli(['soak', folders.suite, '-o', join(folders.parent, 'root'), ...SHORT_RUN]);
      assert.equal(r.code, 2, r.stderr);
      assert.ok(r.stderr.includes(`target 1 ("${name}") of ${folders.suite}: its "name" `), r.stderr);
      assert.match(r.stderr, why);
      assert.match(r.stderr, /Give it a "name" that is one folder name/);
      assertUntouched(folders);
    });
  }
});

test('a suite target whose name is a path (x/y, ../../x, /abs) or empty is refused the same way', async () => {
  for (const name of ['x/y', '../../x', '/abs', '', 'a\\b']) {
    const folders = userFolder([{ name, module: mod('clean'), call: 'step' }]);
    const r = await runCli(['soak', folders.suite, '-o', join(folders.parent, 'root'), ...SHORT_RUN]);
    assert.equal(r.code, 2, `${name}: ${r.stderr}`);
    assert.match(r.stderr, /its "name" (contains a path separator|is empty)/, name);
    assertUntouched(folders);
  }
});

test('a comparison arm named .. in a suite file is refused before any run', async () => {
  const folders = userFolder([
    {
      name: 'builds',
      scenario: armScenario,
      arms: { '..': mod('alloc-dlmalloc'), ff: mod('alloc-firstfit') },
      blocks: 4,
      blockCalls: 500,
      failIfSlower: 'none',
    },
  ]);
  const r = await runCli(['soak', folders.suite, '-o', join(folders.parent, 'root'), '--format', 'md', '-q']);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /target 1 \("builds"\) of .*: the arm name "\.\." is the parent folder/);
  assert.match(r.stderr, /Name each arm with one folder name/);
  assertUntouched(folders);
});

test('compare --arm ..=X -o P/cmp writes nothing into P: exit 2 naming the arm', async () => {
  const folders = userFolder();
  const r = await compareArms('..', 'ff', join(folders.parent, 'cmp'));
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /--arm \.\.=\S+: the arm name "\.\." is the parent folder/);
  assert.match(r.stderr, /Example: --arm dlmalloc=build\/dlmalloc\.wasm/);
  assertUntouched(folders);
});

test('a baseline named . or .. (or empty) is refused before the run: nothing written', async () => {
  for (const argv of [
    ['--save-baseline', '..'],
    ['--save-baseline', '.'],
    ['--baseline', '..'],
    ['--baseline', ''],
  ]) {
    const dir = tempDir();
    const cwd = join(dir, 'work');
    mkdirSync(cwd);
    const r = await runCli(['run', mod('clean'), '--call', 'step', ...SHORT_RUN, ...argv], { cwd });
    assert.equal(r.code, 2, `${argv.join(' ')}: ${r.stderr}`);
    assert.ok(r.stderr.includes(`${argv[0]} ${argv[1]}: the baseline name "${argv[1]}" `), r.stderr);
    assert.match(r.stderr, /or a folder as a path with a slash/);
    assert.deepEqual(readdirSync(dir), ['work']);
    assert.deepEqual(readdirSync(cwd), [], 'no soak-results/ either');
  }
});

test('duplicate target names in a suite are refused before any run, each listed', async () => {
  const target = (name) => ({ name, module: mod('clean'), call: 'step' });
  const folders = userFolder([target('a'), target('b'), target('a'), target('c'), target('b')]);
  const r = await runCli(['soak', folders.suite, '-o', join(folders.parent, 'root'), ...SHORT_RUN]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /gives more than one target the same name: "a" \(targets 1, 3\); "b" \(targets 2, 5\)\./);
  assert.match(r.stderr, /Give each target a name of its own/);
  assertUntouched(folders);
});

test('duplicate --arm names in compare are refused before any run', async () => {
  const folders = userFolder();
  const r = await compareArms('x', 'x', join(folders.parent, 'cmp'));
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /--arm gives more than one arm the same name: "x" \(--arm 1, 2\)/);
  assertUntouched(folders);
});
