// The analysis of a comparison (src/compare/analyze-compare.js) on arms built
// by hand: the time ratio of each arm to A and whether it is real, the
// control's interval as a floor and never a claim, the boundary module's
// share, the differences in counts and memory, and the gates that turn them
// into regressions and exit 1 (docs/compare.md).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeCompare } from '../../../src/compare/analyze-compare.js';
import { EXIT_CODE } from '../../../src/protocol.js';

const DESIGN = { blocks: 8, blockCalls: 200, order: 'ABK', seed: 5, reproduce: 'wasm-soak compare a b' };
const CALLS = (DESIGN.blocks + 1) * DESIGN.blockCalls;

/** A decoded timed log of one op whose calls take about ns each (a fixed ±2 % pattern), jitter: block b's calls × (1 + jitter(b)). */
function timed(ns, jitter = () => 0) {
  const elapsed = Float32Array.from(
    { length: CALLS },
    (_, i) => ns * (1 + 0.02 * (((i * 7919) % 13) / 6 - 1)) * (1 + jitter(Math.floor(i / DESIGN.blockCalls))),
  );
  return {
    header: { ops: [{ name: 'step', weight: 1 }] },
    calls: CALLS,
    elapsed,
    op: new Uint16Array(CALLS),
    metrics: {},
  };
}

/** An arm: role, time per call, its counting pass (allocations; null: none) and its high-water mark. */
function arm(
  name,
  {
    role = 'arm',
    ns = 1000,
    jitter,
    allocs = 1000,
    partial = false,
    highWater = 1 << 20,
    producers = { language: ['C'] },
    verdict = 'stable',
  } = {},
) {
  return {
    name,
    role,
    path: `${name}.wasm`,
    dir: `out/${name}`,
    facts: {
      kind: 'wasm',
      sha256: name,
      size: { raw: 1000, gzip: 500, brotli: 400 },
      producers,
      features: [],
      imports: [],
      memories: ['1-∞ pages'],
      allocatorExports: 'malloc, free',
    },
    summary: {
      status: 'completed',
      verdict,
      findings: [],
      allocations:
        allocs === null
          ? null
          : {
              calls: CALLS,
              instrumented: [['malloc', 'free']],
              complete: true,
              partial,
              allocs: { total: allocs },
              bytes: { total: allocs * 16 },
              live: { end: 0 },
            },
      memory: { max: highWater, end: highWater, growthEvents: 2 },
    },
    timed: timed(ns, jitter),
  };
}

const NO_GATES = { slower: null, moreAllocs: false, higherWater: false };
const OUTPUTS = { checked: false, mismatches: [] };

test('an arm 50 % slower than A is a real difference; the control is A again, a floor and no claim', () => {
  const r = analyzeCompare({
    arms: [arm('A'), arm('B', { ns: 1500 }), arm('K', { role: 'control' })],
    design: DESIGN,
    outputs: OUTPUTS,
    gates: NO_GATES,
  });
  const [b, k] = r.differences;
  assert.equal(b.arm, 'B');
  assert.equal(b.against, 'A');
  assert.ok(Math.abs(b.time.ratio - 1.5) < 0.01, `ratio ${b.time.ratio}`);
  assert.ok(b.time.low > 0.45 && b.time.high < 0.55, `${b.time.low}..${b.time.high}`);
  assert.equal(b.time.real, true);
  assert.equal(b.time.pairs, DESIGN.blocks);
  assert.equal(k.role, 'control');
  assert.equal(k.time.real, false);
  assert.equal(k.time.noiseFloor, null);
  assert.equal(r.intervals.claims, 1, 'the control is no claim');
  assert.equal(r.intervals.correction, 'bonferroni');
  // Blocks that repeat exactly leave the floor at the instances' own: at least 3 %.
  assert.ok(b.time.noiseFloor >= 0.03, `${b.time.noiseFloor}`);
  assert.deepEqual(r.regressions, []);
  assert.equal(r.exitCode, EXIT_CODE.OK);
  assert.deepEqual(r.design, {
    blocks: 8,
    blockCalls: 200,
    warmupBlocks: 1,
    order: 'ABK',
    seed: 5,
    callsPerArm: CALLS,
  });
  assert.equal(r.arms[1].time.calls, DESIGN.blocks * DESIGN.blockCalls, 'the warm-up block is not measured');
  assert.equal(r.reproduce, DESIGN.reproduce);
});

test('a 1 % difference is within the floor: not real, and --fail-if-slower does not gate it', () => {
  const r = analyzeCompare({
    arms: [arm('A'), arm('B', { ns: 1010 })],
    design: DESIGN,
    outputs: OUTPUTS,
    gates: { ...NO_GATES, slower: 0 },
  });
  assert.equal(r.differences[0].time.real, false);
  assert.deepEqual(r.regressions, []);
  assert.equal(r.exitCode, EXIT_CODE.OK);
});

test('a control that wanders raises the floor above the blocks’ own: a change inside it is not real', () => {
  // The control's blocks alternate 20 % apart; B is 10 % slower in every block.
  const wander = (b) => (b % 2 ? 0.2 : 0);
  const r = analyzeCompare({
    arms: [arm('A'), arm('B', { ns: 1100 }), arm('K', { role: 'control', jitter: wander })],
    design: DESIGN,
    outputs: OUTPUTS,
    gates: NO_GATES,
  });
  const b = r.differences[0];
  assert.equal(b.time.floorFrom, 'control');
  assert.ok(r.intervals.controlFloor > 0.1, `control floor ${r.intervals.controlFloor}`);
  assert.equal(b.time.noiseFloor, r.intervals.controlFloor);
  assert.equal(b.time.real, false);
});

test('each gate broken is a regression naming the arm and the metric, and exit 1', () => {
  const r = analyzeCompare({
    arms: [arm('A'), arm('B', { ns: 1500, allocs: 1001, highWater: 4 << 20, verdict: 'leak' })],
    design: DESIGN,
    outputs: { checked: true, mismatches: [{ arm: 'B', call: 3 }] },
    gates: { slower: 0.1, moreAllocs: true, higherWater: true },
  });
  assert.deepEqual(r.regressions, [
    { kind: 'regression', arm: 'B', metric: 'time' },
    { kind: 'regression', arm: 'B', metric: 'allocations', tolerance: { relative: null, absolute: 0 } },
    { kind: 'regression', arm: 'B', metric: 'high-water', tolerance: { relative: 0.2, absolute: 1 << 20 } },
    { kind: 'regression', arm: 'B', metric: 'outputs' },
  ]);
  assert.equal(r.exitCode, EXIT_CODE.FINDING);
  const d = r.differences[0];
  assert.equal(d.allocs, 1);
  // Per call: each arm's own rate, then the difference.
  assert.equal(d.allocsPerCall, 1001 / CALLS - 1000 / CALLS);
  assert.equal(d.bytesPerCall, 16016 / CALLS - 16000 / CALLS);
  assert.equal(d.highWater, 3 << 20);
  assert.equal(d.growthEvents, 0);
  assert.deepEqual(d.size, { raw: 0, gzip: 0, brotli: 0 });
  assert.deepEqual(d.verdict, { from: 'stable', to: 'leak' });
});

test('gates pass within their tolerances, and never judge counts from a pass cut short', () => {
  const within = analyzeCompare({
    arms: [arm('A'), arm('B', { allocs: 1010, highWater: (1 << 20) + 65536 })],
    design: DESIGN,
    outputs: OUTPUTS,
    gates: {
      ...NO_GATES,
      moreAllocs: true,
      higherWater: true,
      moreAllocsTolerance: { relative: 0.01, absolute: null },
    },
  });
  assert.deepEqual(within.regressions, []);
  const partial = analyzeCompare({
    arms: [arm('A'), arm('B', { allocs: 5000, partial: true })],
    design: DESIGN,
    outputs: OUTPUTS,
    gates: { ...NO_GATES, moreAllocs: true },
  });
  assert.deepEqual(partial.differences[0].counts, { comparable: false });
  assert.equal(partial.arms[1].counting, 'partial');
  assert.deepEqual(partial.regressions, []);
  const uncounted = analyzeCompare({
    arms: [arm('A', { allocs: null }), arm('B', { allocs: null })],
    design: DESIGN,
    outputs: OUTPUTS,
    gates: { ...NO_GATES, moreAllocs: true },
  });
  assert.equal(uncounted.differences[0].allocs, null);
  assert.equal(uncounted.arms[0].counts, null);
  assert.deepEqual(uncounted.regressions, []);
});

test('the boundary module is no arm: no difference, no confound, its median a share of each arm’s', () => {
  const r = analyzeCompare({
    arms: [arm('A'), arm('B', { ns: 2000 }), arm('boundary', { role: 'boundary', ns: 500, producers: null })],
    design: DESIGN,
    outputs: OUTPUTS,
    gates: NO_GATES,
  });
  assert.deepEqual(
    r.differences.map((d) => d.arm),
    ['B'],
  );
  assert.ok(Math.abs(r.boundary.share.A - 0.5) < 0.01, `${r.boundary.share.A}`);
  assert.ok(Math.abs(r.boundary.share.B - 0.25) < 0.01, `${r.boundary.share.B}`);
  assert.equal(r.boundary.share.boundary, undefined);
  assert.ok(
    r.confounds.matches.some((m) => m.aspect === 'toolchain (producers section)'),
    'the boundary module’s missing producers section is no confound',
  );
  assert.equal(r.native, null);
});

test('what differs between the arms besides the change is a confound, listed apart from what matches', () => {
  const r = analyzeCompare({
    arms: [arm('A'), arm('B', { producers: { language: ['Rust'] } })],
    design: DESIGN,
    outputs: OUTPUTS,
    gates: NO_GATES,
  });
  assert.deepEqual(r.confounds.differs, [
    { aspect: 'toolchain (producers section)', values: { A: 'language: C', B: 'language: Rust' } },
  ]);
  assert.ok(r.confounds.matches.some((m) => m.aspect === 'imports' && m.value === 'none'));
});
