// A suite in CI: `soak --expect` reports a matched verdict as a passing
// testcase named as the suite names the target, timed by the wall clock;
// index.html and summary.md cover the whole suite; `--shard K/N` runs a
// deterministic share and `merge` puts the shares back together into the
// same suite report as one unsharded run.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fixture, readSummary, runCli, tempDir } from '../helpers.js';

const mod = (name) => fixture('soak', 'modules', `${name}.wasm`);
const LIMIT = { timeout: 240000 };
const dir = tempDir('wasm-soak-suite-');
after(() => rmSync(dir, { recursive: true, force: true }));

// Two targets share a module (the names must stay the suite's); one
// expectation is wrong on purpose.
const suite = join(dir, 'suite.json');
writeFileSync(
  suite,
  JSON.stringify({
    name: 'ci',
    targets: [
      { name: 'clean', module: mod('clean'), call: 'step', seed: 1, expect: 'stable' },
      { name: 'leak', module: mod('leak'), call: 'step', seed: 2, expect: ['leak', 'growth'] },
      { name: 'leak-again', module: mod('leak'), call: 'step', seed: 3, expect: ['leak', 'growth'] },
      { name: 'clean-but-leak-expected', module: mod('clean'), call: 'step', seed: 4, expect: 'leak' },
    ],
  }),
);
// Default thresholds: the fixtures' memory verdicts are deterministic, and
// time is judged against the machine's own control (a noisy machine leaves a
// clean target inconclusive for machine noise, which breaks no expectation).
const soak = (out, ...more) => runCli(['soak', suite, '--expect', '-q', '--format', 'md', '-o', out, ...more]);

const testcases = (xml) =>
  [...xml.matchAll(/<testcase classname="wasm-soak" name="([^"]+)" time="([\d.]+)">([\s\S]*?)<\/testcase>/g)].map(
    ([, name, time, body]) => ({
      name,
      time: Number(time),
      outcome: /<error /.test(body) ? 'error' : /<failure /.test(body) ? 'failed' : 'passed',
    }),
  );
// What a suite report says, without its times.
const verdicts = (root) =>
  JSON.parse(readFileSync(join(root, 'suite-result.json'), 'utf8')).cases.map(({ name, outcome, message, expect }) => ({
    name,
    outcome,
    message,
    expect,
  }));
// A case's verdict with time-only indecision read as the stable verdict it
// stands for under --expect (suite-result.js): runs on a loaded machine differ there.
const timeSettled = (c) => ({
  ...c,
  outcome: /time could not be judged/.test(c.message) ? 'passed' : c.outcome,
  message: c.message
    .replace(/^verdict inconclusive \([^)]*\), expected stable: .*$/, 'verdict stable, as expected')
    .replace(/^verdict inconclusive, /, 'verdict stable, '),
});
// A time's decimal point is escaped in Markdown (3\.2 s): the escape is part of the time.
const untimed = (md) => md.replace(/\d[\d.,\\]* (ms|s|min|h)\b/g, 'T').replace(/\(T wall time.*\)/, '');

let whole;
test(
  "soak --expect: matched verdicts pass, a mismatch fails, names and wall times are the suite's",
  LIMIT,
  async () => {
    whole = join(dir, 'whole');
    const started = performance.now();
    const r = await soak(whole);
    const wallS = (performance.now() - started) / 1000;
    assert.equal(r.code, 1, r.stderr);
    const xml = readFileSync(join(whole, 'junit.xml'), 'utf8');
    assert.match(xml, /<testsuites name="wasm-soak" tests="4" failures="1" errors="0"/);
    assert.match(xml, /<testsuite name="ci" [^>]*timestamp="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d" hostname="[^"]+">/);
    const cases = testcases(xml);
    assert.deepEqual(
      cases.map((c) => [c.name, c.outcome]),
      [
        ['clean', 'passed'],
        ['leak', 'passed'],
        ['leak-again', 'passed'],
        ['clean-but-leak-expected', 'failed'],
      ],
    );
    assert.match(xml, /<failure message="verdict stable, expected leak" type="unexpected-verdict">/);
    // The finding of a passing case is in its system-out.
    assert.match(xml, /expected: leak or growth\n(leak|growth): /);
    for (const c of cases) {
      const s = readSummary(join(whole, c.name));
      assert.equal(s.name, c.name, 'summary.json carries the suite name');
      // Wall time: the worker's start, the loop, the analysis and the reports.
      assert.ok(
        c.time > s.durationMs / 1000,
        `${c.name}: wall time ${c.time} s is more than the loop's ${s.durationMs} ms`,
      );
    }
    const total = Number(/<testsuite name="ci" [^>]*time="([\d.]+)"/.exec(xml)[1]);
    assert.ok(total <= wallS && total >= cases.reduce((t, c) => t + c.time, 0) - 0.01, `suite time ${total} s`);

    const html = readFileSync(join(whole, 'index.html'), 'utf8');
    for (const c of cases) assert.ok(html.includes(`<a href="${c.name}/summary.md">${c.name}</a>`), c.name);
    assert.match(html, /<td data-label="verdict">stable<\/td><td data-label="expected">leak<\/td>/);
    const md = readFileSync(join(whole, 'summary.md'), 'utf8');
    assert.match(md, /\| clean-but-leak-expected \| ❌ failed \| stable \| leak \|/);
    // A failing row says how to reproduce it, paths relative to the suite file's folder.
    const reproduce = /^- clean-but-leak-expected: `(wasm-soak run [^`]+)`$/m.exec(md)?.[1];
    assert.match(reproduce ?? '', /^wasm-soak run \.\.\/\S*soak\/modules\/clean\.wasm --call step .*--seed 4$/);
    assert.doesNotMatch(md, /\]\(/, 'no links to files a step summary cannot show');
  },
);

test('two shards merged give the same suite report as one unsharded run', LIMIT, async () => {
  assert.ok(whole, 'the unsharded run ran');
  const shards = [join(dir, 'shard-1'), join(dir, 'shard-2')];
  for (const [i, out] of shards.entries()) {
    const r = await soak(out, '--shard', `${i + 1}/2`);
    // Shard 1 holds clean and leak-again, as expected; shard 2 the wrong expectation.
    assert.equal(r.code, [0, 1][i], r.stderr);
  }
  assert.deepEqual(
    verdicts(shards[0]).map((c) => c.name),
    ['clean', 'leak-again'],
  );
  // A shard's reports say which part of the suite they cover.
  assert.match(readFileSync(join(shards[0], 'summary.md'), 'utf8'), /^## wasm-soak: ci \(shard 1\/2\)$/m);
  assert.match(readFileSync(join(shards[1], 'index.html'), 'utf8'), /2 targets: .*\(shard 2\/2\)/);
  const merged = join(dir, 'merged');
  const r = await runCli(['merge', ...shards, '-o', merged]);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /4 targets from 2 folders: 3 passed, 1 failed, 0 errors/);
  // Each run judges time anew: a clean target that one run left inconclusive
  // on time alone (a loaded machine) is stable in the other; the merge is
  // compared with that difference settled.
  assert.deepEqual(verdicts(merged).map(timeSettled), verdicts(whole).map(timeSettled));
  const strip = (root) =>
    testcases(readFileSync(join(root, 'junit.xml'), 'utf8')).map(({ name, outcome }) => [name, outcome]);
  assert.deepEqual(strip(merged), strip(whole));
  const body = (root) =>
    untimed(readFileSync(join(root, 'summary.md'), 'utf8'))
      .split('\n')
      .slice(2)
      .filter((line) => !/\bclean\b|inconclusive|passed, \d+ failed/.test(line));
  assert.deepEqual(body(merged), body(whole));
  // The merged index links into the shards' folders.
  assert.match(
    readFileSync(join(merged, 'index.html'), 'utf8'),
    /<a href="\.\.\/shard-2\/leak\/summary\.md">leak<\/a>/,
  );

  const missing = await runCli(['merge', shards[1], '-o', join(dir, 'partial')]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /Shard 1\/2 of the suite is missing/);
  assert.ok(!existsSync(join(dir, 'partial')), 'a usage error writes nothing');
});

test("run --format junit: the testcase's time is the run's wall time", LIMIT, async () => {
  const out = join(dir, 'one');
  // --fail-on none: the testcase's time is under test, not the verdict (a
  // loaded machine can make the clean fixture drift: exit 1, a failure).
  const r = await runCli([
    'run',
    mod('clean'),
    '--call',
    'step',
    '-q',
    '--format',
    'junit',
    '--fail-on',
    'none',
    '-o',
    out,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const [c] = testcases(readFileSync(join(out, 'junit.xml'), 'utf8'));
  assert.equal(c.outcome, 'passed');
  assert.ok(c.time > readSummary(out).durationMs / 1000, `${c.time} s is more than the loop's time`);
});
