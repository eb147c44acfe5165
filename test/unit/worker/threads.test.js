// The worker threads a target starts are counted (src/worker/threads.js),
// through require and import alike, with their CPU time, and said in words
// with their CPU time per call and JS heaps (src/report/tables.js threadsText).

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { threadsText } from '../../../src/report/tables.js';
import { installThreadCounter } from '../../../src/worker/threads.js';

test('threads started through require and import are counted, with the exits, failures and the calls they came at', async () => {
  let call = 0;
  const counter = installThreadCounter({ iteration: () => call });
  const { Worker: Imported } = await import('node:worker_threads');
  const Required = createRequire(import.meta.url)('node:worker_threads').Worker;
  assert.equal(Imported, Required);
  const ok = new Required('setTimeout(() => {}, 0)', { eval: true });
  assert.ok(ok instanceof Imported);
  call = 7;
  const failing = new Imported('process.exit(3)', { eval: true });
  const { cpuMs, ...running } = counter.result();
  assert.equal(typeof cpuMs, 'number', 'both threads attributed and alive');
  assert.deepEqual(running, {
    started: 2,
    exited: 0,
    maxAlive: 2,
    failed: 0,
    firstFailure: null,
    timeline: [
      [0, 1, 0],
      [7, 2, 0],
    ],
  });
  call = 9;
  await Promise.all([once(ok, 'exit'), once(failing, 'exit')]);
  // Both exits seen at call 9: one entry for the call, its counts the last.
  assert.deepEqual(counter.result(), {
    started: 2,
    exited: 2,
    maxAlive: 2,
    failed: 1,
    firstFailure: { iteration: 9, code: 3 },
    cpuMs: null, // their threads have exited: their CPU time is gone with them
    timeline: [
      [0, 1, 0],
      [7, 2, 0],
      [9, 2, 2],
    ],
  });
});

test('threadsText: how many threads, their CPU time per call and JS heaps where read', () => {
  const text = threadsText({ started: 4, maxAlive: 4, failed: 0, wasiThreads: true });
  assert.match(
    text,
    /^the module is built for wasi-threads; its loader started 4 worker threads \(at most 4 at once\)/,
  );
  assert.match(
    text,
    /their CPU time is not measured; their JS heaps are not measured; an op that returns a promise is timed to its settlement/,
  );
  assert.equal(
    threadsText({ started: 0, maxAlive: 0, failed: 0, wasiThreads: true }),
    'the module is built for wasi-threads; it started no worker thread in this run',
  );
  // Threads of a module not built for wasi-threads: nothing said of a shared memory.
  assert.equal(
    threadsText({ started: 2, maxAlive: 1, failed: 1, cpuMs: null, wasiThreads: false }),
    'it started 2 worker threads (at most 1 at once, 1 thread exited with an error); their CPU time is not measured; their JS heaps are not measured; an op that returns a promise is timed to its settlement',
  );
  const pool = {
    started: 4,
    maxAlive: 4,
    failed: 0,
    cpuMs: 1530,
    cpuPerCall: { ns: 76500, calls: 20000, op: 'hash' },
    heaps: { taken: 0, missed: 16, samples: [] },
    wasiThreads: true,
  };
  assert.equal(
    threadsText(pool),
    "the module is built for wasi-threads; its loader started 4 worker threads (at most 4 at once), sharing its memory, whose allocations the heap census sees; they used 1.53 s of CPU time (their own threads, as Linux counts them; not V8's shared helper threads), 76.50 µs per call of op hash; their JS heaps were not read: they answered none of the 16 checkpoints (a thread inside one long call, as a wasi thread in its start function, never turns its event loop); an op that returns a promise is timed to its settlement",
  );
  const read = { ...pool, cpuPerCall: { ...pool.cpuPerCall, op: null } };
  read.heaps = { taken: 15, missed: 1, samples: [[19999, 4437408]] };
  assert.match(
    threadsText(read),
    /76\.50 µs per call of the run \(its ops together\); their JS heaps, each after its own full GC, were read at 15 checkpoints \(summed, 4\.2 MiB at the last, 1 of 16 went unanswered\) and judged apart as "threads-js-heap"/,
  );
});

test('the timeline keeps the first calls at which the count changed, the counts going on', async () => {
  let call = 0;
  const counter = installThreadCounter({ iteration: () => call, max: 2 });
  const { Worker } = await import('node:worker_threads');
  const threads = [];
  for (call = 1; call <= 3; call++) threads.push(new Worker('0', { eval: true }));
  await Promise.all(threads.map((t) => once(t, 'exit')));
  const r = counter.result();
  assert.equal(r.started, 3);
  assert.equal(r.exited, 3);
  assert.deepEqual(r.timeline, [
    [1, 1, 0],
    [2, 2, 0],
  ]);
});

// A thread that spins until Linux has charged it 50 ms of CPU time (its own
// /proc/thread-self/stat says so), then waits: the counter reads at least that.
const SPIN = `
const { readFileSync } = require('node:fs');
const { parentPort } = require('node:worker_threads');
const ticks = () => {
  const f = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ');
  return Number(f[11]) + Number(f[12]);
};
while (ticks() < 5);
parentPort.postMessage('spun');
setInterval(() => {}, 1 << 30);
`;

test("the threads' CPU time: what Linux charged to the thread each Worker started", {
  skip: process.platform !== 'linux',
}, async () => {
  const counter = installThreadCounter({ iteration: () => 0 });
  const { Worker } = await import('node:worker_threads');
  const spinner = new Worker(SPIN, { eval: true });
  await once(spinner, 'message');
  const { cpuMs } = counter.result();
  assert.ok(cpuMs >= 50, `cpuMs ${cpuMs}`);
  await spinner.terminate();
  assert.equal(counter.result().cpuMs, null);
});
