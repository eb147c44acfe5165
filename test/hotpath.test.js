// The hot path allocates no JS objects: 100 000 calls in one batch leave the
// worker's heap where 10 000 calls leave it, with no GC in between.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { ARG_KIND, VALUE_TYPE } from '../src/protocol.js';
import { fixture } from './helpers.js';

function probe(workerData) {
  return new Promise((resolve, reject) => {
    const w = new Worker(fixture('test', 'probes', 'hot-path.js'), { workerData });
    w.once('message', resolve);
    w.once('error', reject);
  });
}

const ARG_BUF = { kind: ARG_KIND.buf, type: VALUE_TYPE.i32, lo: 16, hi: 256 };
const ARG_ITER = { kind: ARG_KIND.iter, type: VALUE_TYPE.i32, lo: 0, hi: 0 };

for (const [what, call, args, module] of [
  ['an empty export', 'noop', [], 'empty'],
  ['an i32 argument', 'noop_i', [ARG_ITER], 'empty'],
  ['buffer arguments through malloc/free', 'parse', [ARG_BUF], 'parse'],
]) {
  test(`no JS allocation per iteration: ${what}`, async () => {
    const r = await probe({ modulePath: fixture('soak', 'modules', `${module}.wasm`), call, args, iterations: 100000 });
    assert.equal(r.status, 0, 'the batch ran to its count');
    assert.equal(r.gcs, 0, 'no garbage collection was needed');
    const perIteration = (r.large - r.small) / 90000;
    assert.ok(
      perIteration < 0.1,
      `heap grew ${r.large} B over 100 000 calls vs ${r.small} B over 10 000 (${perIteration.toFixed(3)} B per call)`,
    );
  });
}
