// The worker threads a target started, as the summary keeps them
// (src/analysis/threads.js): the source with what happened after warm-up,
// a thread that exited with an error, and a pool still growing after
// warm-up, read from the worker's timeline of the calls at which the count
// changed; and the same through the whole analysis of a synthetic run at the
// defaults (the warm-up the analysis picks).

import assert from 'node:assert/strict';
import test from 'node:test';
import { threadsFacts } from '../../../src/analysis/threads.js';
import { analysisConfig } from '../../../src/library/analysis-config.js';
import { analyzed as analyze } from '../../../src/report/result.js';
import { CALLS, syntheticRun } from '../../synthetic.js';

// napi-rs's pool: 4 threads at the first async call, none exits.
const POOL = {
  started: 4,
  exited: 0,
  maxAlive: 4,
  failed: 0,
  firstFailure: null,
  cpuMs: 120,
  wasiThreads: true,
  timeline: [
    [0, 1, 0],
    [1, 4, 0],
  ],
};

test('a pool started at the first calls: the source, no note', () => {
  assert.deepEqual(threadsFacts(POOL, 2000), {
    source: {
      threads: { ...POOL, cpuPerCall: null, heaps: null, afterWarmup: { started: 0, aliveFrom: 4, aliveTo: 4 } },
    },
    notes: [],
  });
});

test('their CPU time per call: named by the op when the run has one, else per call of the run', () => {
  const one = threadsFacts(POOL, 2000, { calls: 20000, ops: [{ name: 'hash' }] }).source.threads;
  assert.deepEqual(one.cpuPerCall, { ns: 6000, calls: 20000, op: 'hash' });
  const two = threadsFacts(POOL, 2000, { calls: 20000, ops: [{ name: 'hash' }, { name: 'verify' }] }).source.threads;
  assert.deepEqual(two.cpuPerCall, { ns: 6000, calls: 20000, op: null });
  assert.equal(threadsFacts({ ...POOL, cpuMs: null }, 2000, { calls: 20000 }).source.threads.cpuPerCall, null);
});

test("their JS heaps: the worker's counts with each sample summed, read again on a re-report", () => {
  const heapSeries = { iter: Float64Array.from([311, 1559]), value: Float64Array.from([4442192, 4521424]) };
  const pool = { ...POOL, heaps: { taken: 2, missed: 1 } };
  const { source } = threadsFacts(pool, 2000, { heapSeries });
  assert.deepEqual(source.threads.heaps, {
    taken: 2,
    missed: 1,
    samples: [
      [311, 4442192],
      [1559, 4521424],
    ],
  });
  assert.deepEqual(threadsFacts(source.threads, 2000, { heapSeries }).source, source);
  // Asked and never answered (threads inside one long call): no sample.
  const silent = threadsFacts({ ...POOL, heaps: { taken: 0, missed: 16 } }, 2000).source.threads.heaps;
  assert.deepEqual(silent, { taken: 0, missed: 16, samples: [] });
});

test('no thread and not built for wasi-threads: no source, no note', () => {
  assert.deepEqual(threadsFacts(null, 2000), { source: {}, notes: [] });
  const none = { ...POOL, started: 0, maxAlive: 0, wasiThreads: false, timeline: [] };
  assert.deepEqual(threadsFacts(none, 2000), { source: {}, notes: [] });
});

test('a thread that exited with an error is a thread-failed note with its iteration and code', () => {
  const died = {
    ...POOL,
    exited: 1,
    failed: 1,
    firstFailure: { iteration: 5120, code: 1 },
    timeline: [...POOL.timeline, [5120, 4, 1]],
  };
  const { source, notes } = threadsFacts(died, 2000);
  assert.deepEqual(source.threads.afterWarmup, { started: 0, aliveFrom: 4, aliveTo: 3 });
  assert.deepEqual(notes, [{ kind: 'thread-failed', series: null, failed: 1, started: 4, iteration: 5120, code: 1 }]);
});

test('threads started after warm-up that leave more alive at the end: thread-pool-growing', () => {
  // One more thread every 1,000 calls, none exits.
  const timeline = Array.from({ length: 20 }, (_, i) => [i * 1000, i + 1, 0]);
  const growing = { ...POOL, started: 20, maxAlive: 20, timeline };
  const { source, notes } = threadsFacts(growing, 4500);
  assert.deepEqual(source.threads.afterWarmup, { started: 15, aliveFrom: 5, aliveTo: 20 });
  assert.deepEqual(notes, [
    { kind: 'thread-pool-growing', series: null, startedAfterWarmup: 15, aliveFrom: 5, aliveTo: 20, warmup: 4500 },
  ]);
  // Re-reported from the summary's source, under another warm-up: the same timeline read again.
  assert.deepEqual(threadsFacts(source.threads, 4500), { source, notes });
  assert.deepEqual(threadsFacts(source.threads, 9500).source.threads.afterWarmup, {
    started: 10,
    aliveFrom: 10,
    aliveTo: 20,
  });
  // Threads started after warm-up that each exit again (a thread per job) leave the pool as it was: no note.
  const churn = Array.from({ length: 20 }, (_, i) => [i * 1000, i + 1, i]);
  const replaced = { ...POOL, started: 20, exited: 19, maxAlive: 2, timeline: churn };
  assert.deepEqual(threadsFacts(replaced, 4500).notes, []);
});

test('the analysis of a run at the defaults keeps the threads and their notes, worded', () => {
  const data = syntheticRun({ seed: 4 });
  const header = {
    ...data.header,
    target: { name: 'synthetic', kind: 'scenario' },
    config: { iterations: CALLS, warmup: 'auto' },
    ops: [{ name: 'step', weight: 1 }],
  };
  const timed = { ...data, header, op: new Uint16Array(CALLS), flags: new Uint8Array(CALLS) };
  // One thread more every 1,000 calls from call 10,000, past any warm-up the analysis picks.
  const late = Array.from({ length: 10 }, (_, i) => [10000 + i * 1000, 5 + i, 0]);
  const threads = { ...POOL, started: 14, maxAlive: 14, timeline: [...POOL.timeline, ...late] };
  const run = { status: 'completed', threads };
  const s = analyze({ timed, cfg: analysisConfig(header), run }).summary;
  assert.equal(s.verdict, 'stable');
  assert.ok(s.warmup.iterations <= 10000, `warm-up ended at ${s.warmup.iterations}`);
  assert.deepEqual(s.sources.threads.afterWarmup, { started: 10, aliveFrom: 4, aliveTo: 14 });
  assert.deepEqual(
    s.notes.filter((n) => n.kind.startsWith('thread-')),
    [
      {
        kind: 'thread-pool-growing',
        series: null,
        startedAfterWarmup: 10,
        aliveFrom: 4,
        aliveTo: 14,
        warmup: s.warmup.iterations,
        sentence: `The target's pool of worker threads kept growing after warm-up: 10 threads started after iteration ${s.warmup.iterations}, from 4 alive then to 14 at the end. Each thread has its own JS heap, measured apart (threads-js-heap) where the threads answer (docs/allocator.md, "Threads").`,
      },
    ],
  );
});

test("the threads' JS heap that climbs is js-heap-growth of its own series, worded as the threads'; the worker's stays apart", () => {
  const data = syntheticRun({ seed: 8, jsLeak: 200 });
  const { jsHeap, ...metrics } = data.metrics;
  const header = {
    ...data.header,
    target: { name: 'synthetic', kind: 'scenario' },
    config: { iterations: CALLS, warmup: 'auto' },
    ops: [{ name: 'step', weight: 1 }],
  };
  const timed = {
    ...data,
    header,
    metrics: { ...metrics, threadsJsHeap: jsHeap },
    op: new Uint16Array(CALLS),
    flags: new Uint8Array(CALLS),
  };
  const threads = { ...POOL, wasiThreads: false, heaps: { taken: jsHeap.iter.length, missed: 0 } };
  const s = analyze({ timed, cfg: analysisConfig(header), run: { status: 'completed', threads } }).summary;
  assert.equal(s.verdict, 'js-heap-growth');
  assert.deepEqual(
    s.findings.map((f) => [f.kind, f.series]),
    [['js-heap-growth', 'threads-js-heap']],
  );
  assert.match(
    s.findings[0].sentence,
    /^The JS heap of the worker threads the target started \(summed over them\) grows by .* per 1,000 calls after warm-up, each thread's heap read after its own full GC: a thread keeps objects alive that it no longer needs/,
  );
  assert.equal(s.sources.threads.heaps.samples.length, jsHeap.iter.length);
  assert.ok(s.series.some((x) => x.name === 'threads-js-heap' && x.pattern === 'sustained'));
});
