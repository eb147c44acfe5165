// The base of summary.json (src/analysis/summary.js) from a decoded run built
// by hand: the calls and throws per op, the time rows of the windows, the
// memory figures, the census of each memory, a thinned run's counts from its
// per-op summaries, and the error of a failed run.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildSummary, memoryAt } from '../../../src/analysis/summary.js';
import { CENSUS_KIND, FLAG } from '../../../src/protocol.js';

const CALLS = 100;

/** A decoded run of CALLS calls: ops a (even calls, 100 ns) and b (odd calls, 300 ns). */
function decoded(more = {}) {
  const op = Uint16Array.from({ length: CALLS }, (_, i) => i % 2);
  const elapsed = Float32Array.from({ length: CALLS }, (_, i) => (i % 2 ? 300 : 100) + (i >= 50 ? 1000 : 0));
  const flags = new Uint8Array(CALLS);
  flags[10] = FLAG.grew;
  flags[61] = FLAG.threw;
  flags[63] = FLAG.threw | FLAG.grew;
  return {
    header: {
      seed: 7,
      command: ['run', 'm.wasm'],
      reproduce: 'wasm-soak run m.wasm --seed 7',
      target: { name: 'm' },
      env: {},
      config: { iterations: CALLS, warmup: 'auto', maxLogBytes: null },
      ops: [
        { name: 'a', weight: 1 },
        { name: 'b', weight: 1 },
      ],
      memories: [
        { label: 'memory', initialBytes: 65536, maximumBytes: 1 << 20 },
        { label: 'other', module: 'side.wasm', initialBytes: 131072, maximumBytes: 1 << 21 },
      ],
    },
    calls: CALLS,
    elapsed,
    op,
    flags,
    memory: { iter: Float64Array.of(0, 10, 63), bytes: Float64Array.of(196608, 262144, 327680) },
    metrics: {
      'memory:other': {
        iter: Float64Array.of(0, 50),
        tMs: Float64Array.of(0, 5),
        value: Float64Array.of(131072, 196608),
      },
      censusKind: { iter: Float64Array.of(0, 50, 99), tMs: Float64Array.of(0, 5, 9), value: Float64Array.of(0, 0, 0) },
      censusLive: {
        iter: Float64Array.of(0, 50, 99),
        tMs: Float64Array.of(0, 5, 9),
        value: Float64Array.of(10, 20, 30),
      },
    },
    durationMs: 12,
    tornBytes: 0,
    backPressureWaits: 0,
    complete: true,
    ...more,
  };
}

const WINDOWS = { early: { from: 0, to: 50 }, late: { from: 50, to: 100 } };
const COMPLETED = { status: 'completed', exitCode: 0 };

test('memoryAt: the step series value in effect at an iteration', () => {
  const memory = { iter: [0, 10, 63], bytes: [1, 2, 3] };
  assert.deepEqual(
    [0, 9, 10, 62, 63, 1000].map((i) => memoryAt(memory, i)),
    [1, 1, 2, 2, 3, 3],
  );
  assert.equal(memoryAt({ iter: [], bytes: [] }, 5), 0);
});

test('calls, throws and grows are counted call by call; the windows give each op its own row', () => {
  const s = buildSummary(decoded(), 20, WINDOWS, COMPLETED);
  assert.deepEqual(
    s.ops.map((o) => [o.name, o.count, o.threw]),
    [
      ['a', 50, 0],
      ['b', 50, 2],
    ],
  );
  assert.equal(s.memory.growthEvents, 2);
  assert.deepEqual(s.time.early, { from: 0, to: 50, n: 50, median: 200, p90: 300, p99: 300 });
  assert.equal(s.time.late.n, 50);
  assert.deepEqual(
    s.ops.map((o) => [o.time.early.median, o.time.late.median]),
    [
      [100, 1100],
      [300, 1300],
    ],
  );
  assert.deepEqual(s.iterations, { requested: CALLS, completed: CALLS });
  assert.equal(s.error, null);
  assert.equal(s.samples.thinning, null);
  assert.equal(s.samples.damage, null);
  assert.deepEqual(s.warmup, { method: 'auto', iterations: 20 });
});

test('an empty window is a row of nulls, not a NaN', () => {
  const s = buildSummary(decoded(), 0, { early: { from: 0, to: 50 }, late: { from: 100, to: 100 } }, COMPLETED);
  assert.deepEqual(s.time.late, { from: 100, to: 100, n: 0, median: null, p90: null, p99: null });
});

test('memory: start, after warm-up, end, peak, the declared maximum of all memories and each memory’s census', () => {
  const s = buildSummary(decoded(), 20, WINDOWS, COMPLETED);
  assert.equal(s.memory.start, 196608);
  assert.equal(s.memory.afterWarmup, 262144);
  assert.equal(s.memory.end, 327680);
  assert.equal(s.memory.max, 327680);
  assert.equal(s.memory.declaredMaximum, (1 << 20) + (1 << 21));
  assert.deepEqual(s.memory.memories, [
    // Memory 0's census walked but recognised no allocator: a kind of null with its live bytes.
    {
      label: 'memory',
      module: null,
      start: 65536,
      end: 65536,
      maximumBytes: 1 << 20,
      census: { kind: null, liveBytes: { start: 10, end: 30 } },
    },
    { label: 'other', module: 'side.wasm', start: 131072, end: 196608, maximumBytes: 1 << 21, census: null },
  ]);
  const unbounded = decoded();
  unbounded.header.memories[1].maximumBytes = null;
  assert.equal(buildSummary(unbounded, 20, WINDOWS, COMPLETED).memory.declaredMaximum, null);
});

test('the census kind is the last one recognised, past the samples that recognised none', () => {
  const data = decoded();
  data.metrics.censusKind.value = Float64Array.of(CENSUS_KIND.dlmalloc, CENSUS_KIND.emmalloc, CENSUS_KIND.none);
  const s = buildSummary(data, 20, WINDOWS, COMPLETED);
  assert.equal(s.memory.memories[0].census.kind, 'emmalloc');
});

test('a thinned run counts every call from its per-op summaries and states its stride', () => {
  const data = decoded({
    stride: 4,
    thinning: { from: 40, iterations: 400, opCalls: [250, 150], opThrew: [0, 3], growthEvents: 9 },
  });
  data.header.config.maxLogBytes = 1 << 20;
  const s = buildSummary(data, 20, { early: { from: 0, to: 200 }, late: { from: 200, to: 400 } }, COMPLETED);
  assert.deepEqual(
    s.ops.map((o) => [o.count, o.threw]),
    [
      [250, 0],
      [150, 3],
    ],
  );
  assert.equal(s.memory.growthEvents, 9);
  assert.equal(s.iterations.completed, 400);
  assert.deepEqual(
    { ...s.samples.thinning, note: undefined },
    { capBytes: 1 << 20, fullIterations: 40, stride: 4, note: undefined },
  );
  // The windows, in iterations, read the kept calls: iterations [0, 200) are kept calls [0, 50).
  assert.equal(s.time.early.n, 50);
  assert.equal(s.time.late.n, 50);
});

test('a capped log: the calls per op are those the C reader counted as it decoded, not counted again', () => {
  // The counts the reader returns, unlike the flags: the summary must take them as they are.
  const data = decoded({ callTotals: { opCalls: [70, 50], opThrew: [4, 5], growthEvents: 6 } });
  const s = buildSummary(data, 20, WINDOWS, COMPLETED);
  assert.deepEqual(
    s.ops.map((o) => [o.count, o.threw]),
    [
      [70, 4],
      [50, 5],
    ],
  );
  assert.equal(s.memory.growthEvents, 6);
  // Without them every call is counted: 64 calls, op by parity, two threw, two grew.
  const counted = buildSummary(decoded(), 20, WINDOWS, COMPLETED);
  assert.deepEqual(
    counted.ops.map((o) => [o.count, o.threw]),
    [
      [CALLS / 2, 0],
      [CALLS / 2, 2],
    ],
  );
  assert.equal(counted.memory.growthEvents, 2);
});

test('a failed run’s error: at the iteration the run names, else at the last call that threw', () => {
  const thrown = buildSummary(decoded(), 20, WINDOWS, {
    status: 'failed',
    exitCode: 3,
    error: { message: 'boom', name: 'RuntimeError' },
  });
  assert.deepEqual(thrown.error, {
    message: 'boom',
    name: 'RuntimeError',
    code: null,
    iteration: 63,
    op: 'b',
    phase: 'iteration',
    stack: null,
  });
  const hung = buildSummary(decoded(), 20, WINDOWS, {
    status: 'failed',
    exitCode: 3,
    phase: 'iteration',
    error: { message: 'hung', code: 'WS_HUNG', iteration: 80, elapsedMs: 5000 },
  });
  assert.equal(hung.error.iteration, 80);
  assert.equal(hung.error.op, 'a');
  assert.equal(hung.error.elapsedMs, 5000);
  const clean = decoded();
  clean.flags.fill(0);
  const setup = buildSummary(clean, 20, WINDOWS, {
    status: 'failed',
    exitCode: 3,
    phase: 'setup',
    error: { message: 'no' },
  });
  assert.equal(setup.error.iteration, null);
  assert.equal(setup.error.op, null);
  assert.equal(setup.error.phase, 'setup');
});
