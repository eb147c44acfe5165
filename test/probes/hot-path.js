// Probe run in a worker by hotpath.test.js: drives the addon's loop directly
// and reports how much the worker's JS heap grew and how many GCs ran while
// it made N calls in one batch (no yields, so only the loop itself runs).

import { readFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { WASI } from 'node:wasi';
import { parentPort, workerData } from 'node:worker_threads';
import { addon } from '../../src/addon.js';
import { createRing } from '../../src/run/drain.js';

const { modulePath, call, args, iterations } = workerData;
const wasi = new WASI({ version: 'preview1', returnOnExit: true });
const { instance } = await WebAssembly.instantiate(readFileSync(modulePath), wasi.getImportObject());
wasi.initialize(instance);
const ring = new Int32Array(createRing(1 << 18));
const runner = addon.createRunner({
  ring,
  seed: 1,
  iterations: iterations * 3,
  durationNs: 0,
  scenario: 0,
  bufferMemory: 0,
  ops: [{ fn: instance.exports[call], weight: 1, args }],
  malloc: instance.exports.malloc,
  free: instance.exports.free,
  memories: [{ memory: instance.exports.memory, shared: 0 }],
});
const drainAll = () => Atomics.store(ring, 1, Atomics.load(ring, 0));

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

measure(iterations); // warm up: tier-up, handle scope growth, lazy allocations
await new Promise((r) => setTimeout(r, 50));
const gcBefore = gcs;
const small = measure(iterations / 10);
const large = measure(iterations);
await new Promise((r) => setTimeout(r, 50));
parentPort.postMessage({ small: small.delta, large: large.delta, status: large.status, gcs: gcs - gcBefore });
