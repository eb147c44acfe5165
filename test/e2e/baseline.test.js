// run --save-baseline / --baseline: what a baseline keeps, a regressed build
// gated by it with the metric named in the summary, summary.md and
// junit.xml, an unchanged build within it, and a missing baseline.
// The runs through the CLI; the checks without a run are in
// test/unit/baseline/baseline.test.js.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fixture, runCli, tempDir } from '../helpers.js';

const mod = (name) => fixture('soak', 'modules', `${name}.wasm`);
// The baseline's time gate is out of these tests (its subject is counts and
// memory; the gate against the machine is tested on its own below); the
// runs are judged at the default thresholds.
const QUICK = ['--call', 'step', '-n', '6000', '--format', 'md,junit', '-q', '--fail-if-slower', 'none'];
const summaryOf = (dir) => JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));

test('a baseline run, then a regressed build exits 1 and names the metric; the same build is within it', async () => {
  const root = tempDir();
  const baseline = join(root, 'nightly');
  const saved = await runCli([
    'run',
    mod('clean'),
    ...QUICK,
    '--count-allocs',
    '--seed',
    '5',
    '--save-baseline',
    baseline,
    '-o',
    join(root, 'a'),
  ]);
  assert.equal(saved.code, 0, saved.stderr);
  const record = JSON.parse(readFileSync(join(baseline, 'baseline.json'), 'utf8'));
  assert.equal(record.schema, 'wasm-soak-baseline');
  assert.equal(record.seed, 5);
  assert.equal(record.config.iterations, 6000);
  assert.equal(record.counts.calls, 6000);
  assert.ok(record.sizes.raw > 0 && record.sizes.gzip > 0 && record.sizes.brotli > 0);
  assert.ok(record.time.batchMedians.length >= 4);

  // The regressed build: one more allocation per call. Its own leak finding
  // is not gated (--fail-on none): the exit code is the baseline's.
  const out = join(root, 'b');
  const regressed = await runCli([
    'run',
    mod('leak'),
    ...QUICK,
    '--fail-on',
    'none',
    '--fail-if-more-allocs',
    '--baseline',
    baseline,
    '-o',
    out,
  ]);
  assert.equal(regressed.code, 1, regressed.stderr);
  const s = summaryOf(out);
  assert.equal(s.seed, 5, 'the baseline seed replays the same calls');
  assert.equal(s.baseline.counts.exact, true);
  assert.equal(s.baseline.counts.allocs, 6000);
  assert.deepEqual(
    s.baseline.regressions.map((g) => g.metric),
    ['allocations'],
  );
  assert.equal(s.baseline.sameTarget, false);
  assert.match(readFileSync(join(out, 'summary.md'), 'utf8'), /REGRESSION \(allocations\): 6000 more allocations/);
  assert.match(readFileSync(join(out, 'junit.xml'), 'utf8'), /type="baseline-allocations"/);

  // The same build against it: exact counts agree, nothing regresses.
  const same = join(root, 'c');
  const again = await runCli([
    'run',
    mod('clean'),
    ...QUICK,
    '--fail-if-more-allocs',
    '--baseline',
    baseline,
    '-o',
    same,
  ]);
  assert.equal(again.code, 0, again.stderr);
  const t = summaryOf(same).baseline;
  assert.equal(t.sameTarget, true);
  assert.equal(t.counts.allocs, 0);
  assert.equal(t.verdict, null);
  assert.ok(Number.isFinite(t.time.change) && t.time.low <= t.time.change && t.time.change <= t.time.high);
});

test('soak --save-baseline keeps one baseline per target; a missing baseline is exit 2', async () => {
  const root = tempDir();
  const suite = join(root, 'suite.json');
  writeFileSync(
    suite,
    JSON.stringify({ targets: [{ name: 'clean', module: mod('clean'), call: 'step', iterations: 3000 }] }),
  );
  const base = join(root, 'base');
  // --fail-on none: saving is under test, not the verdict.
  const r = await runCli([
    'soak',
    suite,
    '--save-baseline',
    base,
    '--format',
    'md',
    '-q',
    '--fail-on',
    'none',
    '-o',
    join(root, 'out'),
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(existsSync(join(base, 'clean', 'baseline.json')));
  // Against it, the passing target's changes are in the suite's summary.md and index.html too.
  const again = await runCli([
    'soak',
    suite,
    '--baseline',
    base,
    '--format',
    'md',
    '-q',
    '--fail-on',
    'none',
    '--fail-if-slower',
    'none',
    '-o',
    join(root, 'again'),
  ]);
  assert.equal(again.code, 0, again.stderr);
  const brief = /against baseline \S*clean: time [-+]?\d.*, high-water \d+\.\d \w+ → \d+\.\d \w+, verdict unchanged/;
  assert.match(readFileSync(join(root, 'again', 'summary.md'), 'utf8'), brief);
  assert.match(readFileSync(join(root, 'again', 'index.html'), 'utf8'), brief);
  const missing = await runCli(['run', mod('clean'), '--call', 'step', '--baseline', join(root, 'nope'), '-q']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /--baseline .*nope: cannot read .*baseline\.json/);
});

test('seeds: 2^32 - 1 saves a baseline a later --baseline reads; 4294967296 and 5000000000 are refused (exit 2), never folded onto 0', async () => {
  const root = tempDir();
  const baseline = join(root, 'top');
  const args = ['--call', 'step', '-n', '500', '--format', 'md', '-q', '--fail-on', 'none', '--fail-if-slower', 'none'];
  const saved = await runCli([
    'run',
    mod('clean'),
    ...args,
    '--seed',
    '4294967295',
    '--save-baseline',
    baseline,
    '-o',
    join(root, 'a'),
  ]);
  assert.equal(saved.code, 0, saved.stderr);
  const again = await runCli(['run', mod('clean'), ...args, '--baseline', baseline, '-o', join(root, 'b')]);
  assert.equal(again.code, 0, again.stderr);
  assert.doesNotMatch(again.stderr, /changed after wasm-soak wrote it/);
  assert.equal(summaryOf(join(root, 'b')).seed, 4294967295);
  for (const seed of ['4294967296', '5000000000']) {
    const r = await runCli(['run', mod('clean'), ...args, '--seed', seed, '-o', join(root, seed)]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`--seed must be an integer from 0 to 4294967295, got "${seed}"`));
    assert.equal(existsSync(join(root, seed)), false, 'refused before any folder is made');
  }
});

test('a baseline whose "findings" nests lists 200 000 deep: exit 2 naming the field, and no result folder left', async () => {
  const root = tempDir();
  const base = join(root, 'deep');
  mkdirSync(base);
  // Written as text: JSON.stringify itself runs out of stack on it.
  const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
  writeFileSync(join(base, 'baseline.json'), `{"schema":"wasm-soak-baseline","version":1,"findings":${deep}}`);
  const out = join(root, 'out');
  const r = await runCli(['run', mod('clean'), '--call', 'step', '-n', '300', '-q', '--baseline', base, '-o', out]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /has a wrong "findings\[0\]\[0\].*": it must be at most 64 levels deep/);
  assert.doesNotMatch(r.stderr, /internal error/);
  assert.equal(existsSync(out), false, 'no --out folder made');
});
