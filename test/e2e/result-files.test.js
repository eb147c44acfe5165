// No file is written through a link (issue 31, item 1): a result folder
// downloaded from CI can hold a symbolic link where summary.md goes, and
// writing through it would clobber any file the user can write. Every file
// wasm-soak writes into a result folder goes through src/result-file.js (a
// temporary file created exclusively, renamed over its name); a link at a
// result file's name is refused, naming it (exit 2). Here links are planted
// at every output name of run, run --force, report, export, soak, compare and
// merge, and the files they point to (outside the folder) stay untouched.
// The runs through the CLI; the checks without a run are in
// test/unit/result-file.test.js.
import assert from 'node:assert/strict';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { LOCK_FILE } from '../../src/run/folder-lock.js';
import { fixture, runCli, tempDir } from '../helpers.js';
import { assertUntouched, plant } from '../links.js';

const mod = (name) => fixture('soak', 'modules', `${name}.wasm`);
const QUICK = ['--fail-on', 'none', '-q'];

/** The names of the links r's stderr names as refused ("X is a symbolic link"), relative to dir. */
const linksNamed = (r, dir) =>
  [...r.stderr.matchAll(/^wasm-soak: (?:cannot write [^:\n]*: )?(\S+) is a symbolic link/gm)].map((m) =>
    relative(dir, m[1]),
  );

/**
 * Runs argv again and again on a folder with links planted at names: each
 * time it must exit 2 naming links it refused, which are then removed, until
 * it succeeds. Returns the names refused, in order.
 */
async function refuseEachLink(argv, dir, names, what) {
  const refused = [];
  for (let round = 0; round <= names.length; round++) {
    const r = await runCli(argv);
    if (r.code === 0) return refused;
    assert.equal(r.code, 2, `${what}: ${r.stderr}`);
    const named = [...new Set(linksNamed(r, dir))];
    assert.ok(named.length, `${what}: names the link it refused: ${r.stderr}`);
    for (const name of named) {
      assert.ok(names.includes(name) && !refused.includes(name), `${what}: ${name} is a planted link, refused once`);
      assert.ok(lstatSync(join(dir, name)).isSymbolicLink(), `${what}: the link ${name} is left for the user`);
      rmSync(join(dir, name));
      refused.push(name);
    }
  }
  assert.fail(`${what}: still refused after every link was removed`);
}

test('run, run --force, report and export write no file through a link planted at any of their output names', async () => {
  const dir = tempDir();
  // A result with every file a run writes (--sites: the counting pass and its sites too).
  const ref = join(dir, 'ref');
  const made = await runCli(['run', mod('leak'), '--call', 'step', '-n', '2000', '--sites', '-o', ref, ...QUICK]);
  assert.equal(made.code, 0, made.stderr);
  const runNames = [...readdirSync(ref), '.wasm-soak.room'].filter((n) => n !== LOCK_FILE);
  for (const f of ['summary.json', 'summary.md', 'report.html', 'junit.xml', 'samples.wslog', 'sites.json', 'time.png'])
    assert.ok(runNames.includes(f), `the reference run wrote ${f}`);

  // run into a folder that holds only links (not a previous result: nothing is moved aside).
  const out = join(dir, 'out');
  mkdirSync(out);
  let held = plant(out, runNames, join(dir, 'outside-run'));
  const runArgv = ['run', mod('leak'), '--call', 'step', '-n', '2000', '--sites', '-o', out, ...QUICK];
  let r = await runCli(runArgv);
  assert.equal(r.code, 2, r.stderr);
  assert.match(
    r.stderr,
    /The result folder \S+ holds a symbolic link, \S+ \(to \S+victim-\d+\); wasm-soak writes no file through a link\./,
  );
  assert.match(r.stderr, /Remove the link \(rm \S+\) or give --out a folder of its own\./);
  assertUntouched(join(dir, 'outside-run'), held, 'run');
  assert.deepEqual(readdirSync(out).sort(), [...runNames].sort(), 'run: nothing written beside the links');

  // run --force over a previous result whose files are links.
  const forced = join(dir, 'forced');
  assert.equal((await runCli(['run', mod('leak'), '--call', 'step', '-n', '2000', '-o', forced, ...QUICK])).code, 0);
  for (const name of runNames) rmSync(join(forced, name), { force: true });
  held = plant(forced, runNames, join(dir, 'outside-force'));
  r = await runCli(['run', mod('leak'), '--call', 'step', '-n', '2000', '--sites', '-o', forced, '--force', ...QUICK]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /holds a symbolic link/);
  assertUntouched(join(dir, 'outside-force'), held, 'run --force');

  // report: every file it writes is a link; each is refused in turn, none written through.
  const reportNames = [
    'summary.json',
    'summary.md',
    'report.html',
    'junit.xml',
    'gnuplot-stderr.txt',
    ...readdirSync(ref).filter((n) => /\.(png|svg)$/.test(n)),
  ];
  for (const name of reportNames) rmSync(join(ref, name));
  held = plant(ref, reportNames, join(dir, 'outside-report'));
  const refused = await refuseEachLink(['report', ref, ...QUICK], ref, reportNames, 'report');
  assert.deepEqual([...refused].sort(), [...reportNames].sort(), 'report refused every link it met');
  assertUntouched(join(dir, 'outside-report'), held, 'report');
  for (const name of reportNames) assert.ok(lstatSync(join(ref, name)).isFile(), `report wrote ${name} in the end`);

  // export --csv --pprof --dhat.
  const exportNames = ['samples.csv', 'metrics.csv', 'sites.pb.gz', 'dhat.json'];
  held = plant(ref, exportNames, join(dir, 'outside-export'));
  const exported = await refuseEachLink(['export', ref, '--csv', '--pprof', '--dhat'], ref, exportNames, 'export');
  assert.deepEqual(exported.sort(), [...exportNames].sort());
  assertUntouched(join(dir, 'outside-export'), held, 'export');
});

test('soak, compare and merge write no file through a link planted at their output names or target folders', async () => {
  const dir = tempDir();
  const suite = join(dir, 'suite.json');
  writeFileSync(suite, JSON.stringify({ targets: [{ name: 'a', module: mod('clean'), call: 'step' }] }));
  const SHORT = ['-n', '300', '--format', 'md,junit', ...QUICK];

  // soak: the root's reports and the target's folder (a link to a folder outside).
  const root = join(dir, 'S');
  mkdirSync(root);
  const elsewhere = join(dir, 'elsewhere');
  mkdirSync(elsewhere);
  symlinkSync(elsewhere, join(root, 'a'));
  // (junit.xml or suite-result.json would make the root a previous result: below.)
  let held = plant(root, ['summary.md', 'index.html'], join(dir, 'outside-soak'));
  let r = await runCli(['soak', suite, ...SHORT, '-o', root]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /holds a symbolic link/);
  assertUntouched(join(dir, 'outside-soak'), held, 'soak');
  assert.deepEqual(readdirSync(elsewhere), [], 'soak: nothing written into the folder a target link points to');
  // A root whose junit.xml and suite-result.json are links (a look-alike of a previous result): refused, not moved.
  const lookalike = join(dir, 'S2');
  mkdirSync(lookalike);
  held = plant(lookalike, ['junit.xml', 'suite-result.json', 'summary.md'], join(dir, 'outside-soak2'));
  r = await runCli(['soak', suite, ...SHORT, '-o', lookalike]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /holds a symbolic link/);
  assertUntouched(join(dir, 'outside-soak2'), held, 'soak into a look-alike');
  assert.deepEqual(readdirSync(lookalike).sort(), ['junit.xml', 'suite-result.json', 'summary.md']);

  // compare: its three files and an arm's folder.
  const cmp = join(dir, 'C');
  mkdirSync(cmp);
  symlinkSync(elsewhere, join(cmp, 'A'));
  held = plant(cmp, ['compare.json', 'compare.md', 'compare.html'], join(dir, 'outside-compare'));
  const compareArgv = ['compare', mod('work'), mod('work'), '--call', 'step', '--blocks', '4', '--block-calls', '300'];
  r = await runCli([...compareArgv, '-q', '-o', cmp]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /holds a symbolic link/);
  assertUntouched(join(dir, 'outside-compare'), held, 'compare');
  assert.deepEqual(readdirSync(elsewhere), [], 'compare: nothing written into the folder an arm link points to');

  // merge: a real suite result merged into a folder whose report names are links.
  const shard = join(dir, 'shard');
  assert.equal((await runCli(['soak', suite, ...SHORT, '-o', shard])).code, 0);
  const merged = join(dir, 'M');
  mkdirSync(merged);
  held = plant(merged, ['summary.md', 'index.html'], join(dir, 'outside-merge'));
  r = await runCli(['merge', shard, '-o', merged]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /holds a symbolic link/);
  assertUntouched(join(dir, 'outside-merge'), held, 'merge');
  assert.ok(!existsSync(join(elsewhere, 'junit.xml')));
});

test('a report that cannot be written whole (a file size limit) leaves the previous one whole', async () => {
  const out = join(tempDir(), 'r');
  assert.equal((await runCli(['run', mod('leak'), '--call', 'step', '-n', '2000', '-o', out, ...QUICK])).code, 0);
  const before = readFileSync(join(out, 'report.html'));
  assert.ok(before.length > 100 * 1024, `report.html is larger than the limit below (${before.length} B)`);
  // 64 KiB per file: summary.json fits, report.html does not.
  const r = await runCli(['report', out, ...QUICK], { shell: 'ulimit -f 128;' });
  assert.equal(r.code, 3, r.stderr);
  assert.match(r.stderr, /cannot write the reports in \S+: EFBIG/);
  assert.ok(readFileSync(join(out, 'report.html')).equals(before), 'the previous report.html, byte for byte');
  assert.deepEqual(
    readdirSync(out).filter((n) => n.endsWith('.partial')),
    [],
    'no temporary file left',
  );
});
