// run --save-baseline / --baseline: what a baseline keeps, a regressed build
// gated by it with the metric named in the summary, summary.md and
// junit.xml, an unchanged build within it, and a missing baseline.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { againstBaseline } from '../src/analysis/against-baseline.js';
import { optionNamed } from '../src/options/schema.js';
import { withSentences } from '../src/report/sentences.js';
import { fixture, runCli, tempDir } from './helpers.js';

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

test("a run against a baseline is judged against each night's machine", () => {
  // 32 batch medians around 1 µs (±2 %), the control around 5.6 µs; tonight
  // the machine, and so every call, is 30 % slower.
  const wobble = (i) => 1 + 0.02 * Math.sin(i * 1.7);
  const record = (slower, control = true) => ({
    name: 'nightly',
    seed: 1,
    target: { sha256: 'x' },
    config: {},
    counts: null,
    sizes: null,
    memory: { highWater: 1 },
    time: {
      median: 1000 * slower,
      batchMedians: Array.from({ length: 32 }, (_, i) => 1000 * slower * wobble(i)),
      controlMedians: control ? Array.from({ length: 32 }, (_, i) => 5600 * slower * wobble(i + 3)) : null,
    },
  });
  const gates = { slower: 0.05, moreAllocs: false, higherWater: false };
  const opts = { gates, seed: 1, dir: 'b' };
  const machine = againstBaseline(record(1.3), record(1), opts);
  assert.equal(machine.time.method, 'against the machine');
  assert.ok(machine.time.withinNoise, JSON.stringify(machine.time));
  assert.ok(machine.time.callsAlone.low > 0.25 && machine.time.machine.low > 0.25, JSON.stringify(machine.time));
  assert.deepEqual(machine.regressions, []);
  // A baseline saved without a control: the calls alone, a regression.
  const alone = againstBaseline(record(1.3), record(1, false), opts);
  assert.equal(alone.time.method, 'calls alone');
  assert.deepEqual(alone.regressions, [{ kind: 'regression', metric: 'time', gate: 0.05 }]);
  const worded = withSentences({ baseline: alone }).baseline.regressions[0].sentence;
  assert.match(
    worded,
    /^time per call rose 30\.0 % against baseline nightly \(95 % interval .*\), beyond --fail-if-slower 5\.0 %$/,
  );
});

test('--fail-if-higher-water and --fail-if-more-allocs gate beyond a tolerance, worded in human units', async () => {
  const MiB = 1024 ** 2;
  const record = (highWater, allocs) => ({
    name: 'nightly',
    seed: 1,
    target: { sha256: 'x' },
    config: {},
    counts: { calls: 1000, allocs, bytes: 0, liveEnd: 0 },
    sizes: null,
    memory: { highWater },
    time: { median: 1000, batchMedians: [], controlMedians: null },
  });
  const against = (gates, run, base) =>
    againstBaseline(run, base, {
      gates: { slower: null, moreAllocs: true, higherWater: true, ...gates },
      seed: 1,
      dir: 'b',
    });
  // The same seed, 3.1 MiB one night and 3.3 MiB the next (the numbers): within the default 20 % + 1 MiB.
  assert.deepEqual(against({}, record(3.3 * MiB, 2000), record(3.1 * MiB, 2000)).regressions, []);
  // Beyond both parts: 3.1 → 4.5 MiB is +45 % and +1.4 MiB.
  const higher = against({}, record(4.5 * MiB, 2000), record(3.1 * MiB, 2000));
  assert.deepEqual(higher.regressions, [
    { kind: 'regression', metric: 'high-water', tolerance: { relative: 0.2, absolute: MiB } },
  ]);
  assert.equal(
    withSentences({ baseline: higher }).baseline.regressions[0].sentence,
    "memory high-water mark 4.5 MiB, 1.4 MiB above baseline nightly's 3.1 MiB, beyond the tolerance of 20 % and 1.0 MiB (--fail-if-higher-water)",
  );
  // A tolerance given: 0 gates any rise; one part alone gates beyond it.
  const parse = (text, name) => optionNamed(name).parse(text, name);
  const zero = parse('0', 'higher-water-tolerance');
  assert.equal(
    against({ higherWaterTolerance: zero }, record(3.3 * MiB, 2000), record(3.1 * MiB, 2000)).regressions.length,
    1,
  );
  const pct = parse('5%', 'higher-water-tolerance');
  assert.deepEqual(pct, { relative: 0.05, absolute: null });
  assert.equal(
    against({ higherWaterTolerance: pct }, record(3.3 * MiB, 2000), record(3.1 * MiB, 2000)).regressions.length,
    1,
  );
  assert.deepEqual(parse('10%+512KiB', 'higher-water-tolerance'), { relative: 0.1, absolute: 512 * 1024 });
  assert.throws(() => parse('lots', 'higher-water-tolerance'), /must be a percentage such as 10%, a size such as 1MiB/);
  // Allocations: exact counts of the same calls, any rise at the default 0; 1%+10 lets 20 more of 2000 pass.
  const allocs = against({}, record(MiB, 2020), record(MiB, 2000));
  assert.deepEqual(allocs.regressions, [
    { kind: 'regression', metric: 'allocations', calls: 1000, tolerance: { relative: null, absolute: 0 } },
  ]);
  assert.match(
    withSentences({ baseline: allocs }).baseline.regressions[0].sentence,
    /^20 more allocations than baseline nightly over the same 1000 calls, beyond the tolerance of 0 allocations \(--fail-if-more-allocs\)$/,
  );
  const loose = parse('1%+10', 'more-allocs-tolerance');
  assert.deepEqual(against({ moreAllocsTolerance: loose }, record(MiB, 2020), record(MiB, 2000)).regressions, []);
  assert.equal(against({ moreAllocsTolerance: loose }, record(MiB, 2021), record(MiB, 2000)).regressions.length, 1);
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
