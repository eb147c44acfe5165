// The threads' heaps on real threads started through the counter
// (src/worker/threads.js): each carries the reporter
// (src/worker/thread-heap-reporter.cjs), which says it is ready and answers
// by id when its event loop turns; the sampler (src/worker/thread-heaps.js)
// sums a checkpoint when every thread alive answers, stops waiting for a
// thread that exits while asked, and misses a thread inside one long call
// until it answers again.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { test } from 'node:test';
import { createThreadHeaps, REPORTER } from '../../../src/worker/thread-heaps.js';
import { installThreadCounter } from '../../../src/worker/threads.js';

// A thread that says it is ready, then stays inside one long call
// (Atomics.wait, as a wasi thread inside wasi_thread_start) until released.
const BUSY = `
const { parentPort, workerData } = require('node:worker_threads');
parentPort.postMessage('ready');
Atomics.wait(new Int32Array(workerData), 0, 0);
setInterval(() => {}, 1 << 30);
`;
const IDLE = 'require("node:worker_threads").parentPort.postMessage("ready"); setInterval(() => {}, 1 << 30)';

/** The counter, its sampler (made before any thread starts, as the worker does) and Worker. */
async function setUp() {
  const counter = installThreadCounter({ iteration: () => 0 });
  const heaps = createThreadHeaps(counter);
  const { Worker } = await import('node:worker_threads');
  return { heaps, Worker };
}

test('a thread that exits while asked is no longer waited for: the sum of those left', async () => {
  const { heaps, Worker } = await setUp();
  const idle = new Worker(IDLE, { eval: true });
  const busy = new Worker(BUSY, { eval: true, workerData: new SharedArrayBuffer(4) });
  await Promise.all([once(idle, 'message'), once(busy, 'message')]);
  const sample = heaps.sample();
  await busy.terminate();
  const bytes = await sample;
  assert.ok(bytes > 100_000, `${bytes} bytes`);
  assert.deepEqual(heaps.result(), { taken: 1, missed: 0 });
  await idle.terminate();
  assert.equal(await heaps.sample(), null, 'no thread alive: nothing to take');
  assert.deepEqual(heaps.result(), { taken: 1, missed: 0 });
  heaps.close();
});

test('a thread inside one long call misses the checkpoint; once it answers, it is asked and summed again', async () => {
  const { heaps, Worker } = await setUp();
  const gate = new SharedArrayBuffer(4);
  const busy = new Worker(BUSY, { eval: true, workerData: gate });
  await once(busy, 'message');
  assert.equal(await heaps.sample(), null);
  assert.equal(await heaps.sample(), null, 'still silent: missed again');
  assert.deepEqual(heaps.result(), { taken: 0, missed: 2 });
  // Released, it answers the requests it missed, and the next checkpoint is summed.
  Atomics.store(new Int32Array(gate), 0, 1);
  Atomics.notify(new Int32Array(gate), 0);
  // Each try after a turn of the event loop, where its reply comes: until it came.
  let bytes = null;
  while (bytes === null) {
    await new Promise((resolve) => setImmediate(resolve));
    bytes = await heaps.sample();
  }
  assert.ok(bytes > 100_000, `${bytes} bytes`);
  assert.equal(heaps.result().taken, 1);
  assert.ok(heaps.result().missed >= 2);
  await busy.terminate();
  heaps.close();
});

test('each thread carries the heap reporter: it says it is ready, and asked by id it answers after its own GC when its event loop turns', async () => {
  installThreadCounter({ iteration: () => 0 });
  const { Worker } = await import('node:worker_threads');
  const listening = new BroadcastChannel(REPORTER);
  const said = new Promise((resolve) => {
    listening.onmessage = (e) => e.data.ready && resolve(e.data);
  });
  const starting = new Worker('0', { eval: true });
  assert.deepEqual(await said, { seq: null, threadId: starting.threadId, ready: true });
  listening.close();
  const idle = new Worker(
    'require("node:worker_threads").parentPort.postMessage("ready"); setInterval(() => {}, 1 << 30)',
    {
      eval: true,
    },
  );
  const gate = new SharedArrayBuffer(4);
  const busy = new Worker(BUSY, { eval: true, workerData: gate });
  await Promise.all([once(idle, 'message'), once(busy, 'message')]);
  const channel = new BroadcastChannel(REPORTER);
  const replies = [];
  // The next reply (a thread's ready, posted when it starts, is not one).
  const next = () =>
    new Promise((resolve) => {
      const take = (e) => {
        if (e.data.ready) return;
        channel.removeEventListener('message', take);
        resolve(e.data);
      };
      channel.addEventListener('message', take);
    });
  let reply = next();
  channel.postMessage({ seq: 1, threads: [idle.threadId, busy.threadId] });
  replies.push(await reply);
  assert.equal(replies[0].threadId, idle.threadId, 'the idle thread answers first: the busy one is inside a call');
  assert.equal(replies[0].seq, 1);
  assert.equal(replies[0].collected, true);
  assert.ok(replies[0].bytes > 100_000, `${replies[0].bytes} bytes`);
  // Released, the busy thread's event loop turns and it answers the request it missed.
  reply = next();
  Atomics.store(new Int32Array(gate), 0, 1);
  Atomics.notify(new Int32Array(gate), 0);
  replies.push(await reply);
  assert.deepEqual([replies[1].threadId, replies[1].seq], [busy.threadId, 1]);
  // A request that names neither gets no answer from them: the next reply is to the one that names idle.
  reply = next();
  channel.postMessage({ seq: 2, threads: [] });
  channel.postMessage({ seq: 3, threads: [idle.threadId] });
  assert.deepEqual([(await reply).seq, idle.threadId], [3, idle.threadId]);
  channel.close();
  await Promise.all([idle.terminate(), busy.terminate()]);
});
