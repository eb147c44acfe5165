// Worker for bench/runner.js: times the two reference loops over the empty
// export in the same kind of thread the harness runs in.

import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const { modulePath, n, repeats } = workerData;
const { instance } = await WebAssembly.instantiate(readFileSync(modulePath), {
  wasi_snapshot_preview1: new Proxy({}, { get: () => () => 0 }),
});
const noop = instance.exports.noop;
const times = new Float64Array(n);

function bare() {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) noop();
  return ((performance.now() - t0) * 1e6) / n;
}

function handWritten() {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const a = performance.now();
    noop();
    times[i] = performance.now() - a;
  }
  return ((performance.now() - t0) * 1e6) / n;
}

const best = (f) => Math.min(...Array.from({ length: repeats }, f));
parentPort.postMessage({ bare: best(bare), hand: best(handWritten) });
