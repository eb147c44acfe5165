// run --save-baseline / --baseline: what a baseline keeps, a regressed build
// gated by it with the metric named in the summary, summary.md and
// junit.xml, an unchanged build within it, and a missing baseline.
// The checks here run no CLI and no worker; the runs through the CLI are in
// test/e2e/baseline.test.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { againstBaseline, baselineRecord } from '../../../src/analysis/against-baseline.js';
import { optionNamed } from '../../../src/options/schema.js';
import { withSentences } from '../../../src/report/sentences.js';

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

// A decoded timed run of calls at 1 µs whose control was sampled after the
// calls in controlAt (a short run samples it every 0.5 ms at most).
function shortRun(calls, controlAt) {
  return {
    header: { ops: [{ name: 'step' }], config: { calls: null, args: null } },
    calls,
    elapsed: Float32Array.from({ length: calls }, (_, i) => 1000 + (i % 7)),
    op: new Uint16Array(calls),
    stride: 1,
    metrics: { controlNs: { iter: Float64Array.from(controlAt), value: Float64Array.from(controlAt, () => 5600) } },
  };
}
const SUMMARY = {
  warmup: { iterations: 0 },
  seed: 1,
  name: 'short',
  target: { kind: 'module', module: { sha256: 'x' } },
  verdict: 'stable',
  findings: [],
  allocations: null,
  memory: { max: 1, growthEvents: 0 },
  reproduce: null,
};

test('a short run is cut into as many batches as its control covers, so its time is judged against the machine', () => {
  // 2 000 calls, the control sampled after every 250th: 32 batches of 62 calls would leave most without one.
  const sparse = baselineRecord(SUMMARY, shortRun(2000, [100, 350, 600, 850, 1100, 1350, 1600, 1850]), null, 'n');
  assert.equal(sparse.time.batchMedians.length, 8);
  assert.equal(sparse.time.controlMedians.length, 8);
  // Every batch holds a sample: all 32.
  const dense = baselineRecord(
    SUMMARY,
    shortRun(
      2000,
      Array.from({ length: 64 }, (_, i) => 10 + i * 31),
    ),
    null,
    'n',
  );
  assert.equal(dense.time.batchMedians.length, 32);
  assert.equal(dense.time.controlMedians.length, 32);
  // Fewer than 4 batches with a sample: the calls alone, in 32 batches.
  const few = baselineRecord(SUMMARY, shortRun(2000, [100, 1500]), null, 'n');
  assert.equal(few.time.batchMedians.length, 32);
  assert.equal(few.time.controlMedians, null);
  const opts = { gates: { slower: 0.05, moreAllocs: false, higherWater: false }, seed: 1, dir: 'b' };
  assert.equal(againstBaseline(sparse, sparse, opts).time.method, 'against the machine');
  assert.equal(againstBaseline(few, few, opts).time.method, 'calls alone');
});
