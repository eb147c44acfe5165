// Probe run in a worker by hotpath.test.js: prepares a raw module as the
// worker does (src/worker/targets/raw.js: argument trampoline included),
// drives the addon's loop directly and reports how much the worker's JS heap
// grew and how many GCs ran while it made N calls in one batch (no yields,
// so only the loop itself runs).
import { openSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { addon } from '../../src/addon.js';
import { CTL } from '../../src/protocol.js';
import { createRing } from '../../src/run/drain.js';
import { prepareRawTarget } from '../../src/worker/targets/raw.js';

const { modulePath, call, sources, iterations } = workerData;
const stdio = { stdout: openSync('/dev/null', 'a'), stderr: openSync('/dev/null', 'a') };
const config = { calls: [{ name: call, weight: 1 }], args: sources ? [{ op: null, sources }] : [], alloc: null };
const raw = await prepareRawTarget({ path: modulePath }, config, stdio, WebAssembly);
const ring = new Int32Array(createRing(1 << 18));
const runner = addon.createRunner({
  ring,
  seed: 1,
  iterations: iterations * 3,
  durationNs: 0,
  scenario: false,
  bufferMemory: 0,
  ops: raw.ops,
  slots: raw.slots,
  alloc: raw.alloc,
  free: raw.free,
  memories: [{ memory: raw.instance.exports.memory, shared: false }],
});
const drainAll = () => Atomics.store(ring, CTL.read, Atomics.load(ring, CTL.write));

let gcs = 0;
const observer = new PerformanceObserver((list) => {
  gcs += list.getEntries().length;
});
observer.observe({ entryTypes: ['gc'] });

function measure(n) {
  drainAll();
  const before = getHeapStatistics().used_heap_size;
  const status = addon.runBatch(runner, n, 1e12);
  const after = getHeapStatistics().used_heap_size;
  return { status, delta: after - before };
}

// A GC entry is delivered on a later turn of the event loop: wait for one
// turn after each phase (the observer's callback runs before setImmediate's).
const turn = () => new Promise((resolve) => setImmediate(resolve));
measure(iterations); // warm up: tier-up, handle scope growth, lazy allocations
await turn();
const gcBefore = gcs;
const small = measure(iterations / 10);
const large = measure(iterations);
await turn();
parentPort.postMessage({ small: small.delta, large: large.delta, status: large.status, gcs: gcs - gcBefore });
