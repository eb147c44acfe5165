// The hot path allocates no JS objects: 100 000 calls in one batch leave the
// worker's heap where 10 000 calls leave it, with no GC in between.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { fixture } from '../helpers.js';

function probe(workerData) {
  return new Promise((resolve, reject) => {
    const w = new Worker(fixture('test', 'probes', 'hot-path.js'), { workerData });
    w.once('message', resolve);
    w.once('error', reject);
  });
}

const BUF = { kind: 'buf', lo: 16, hi: 256 };
const ITER = { kind: 'iter' };
const random = (lo, hi) => ({ kind: 'random', lo, hi });
const ARGS = fixture('test', 'fixtures', 'args.wasm');
const MODULES = (name) => fixture('soak', 'modules', `${name}.wasm`);

for (const [what, modulePath, call, sources] of [
  ['an empty export', MODULES('empty'), 'noop', null],
  ['an i32 argument', MODULES('empty'), 'noop_i', [ITER]],
  ['buffer arguments through malloc/free', MODULES('parse'), 'parse', [BUF]],
  ['an i64 argument and an i64 result', ARGS, 'count', [ITER]],
  [
    'i32, i64, f32 and f64 arguments and an f64 result',
    ARGS,
    'ranges',
    [random(-5, 5), random(2 ** 40, 2 ** 40 + 1000), random(0, 3), random(-1e6, 1e6)],
  ],
]) {
  test(`no JS allocation per iteration: ${what}`, async () => {
    const r = await probe({ modulePath, call, sources, iterations: 100000 });
    assert.equal(r.status, 0, 'the batch ran to its count');
    assert.equal(r.gcs, 0, 'no garbage collection was needed');
    const perIteration = (r.large - r.small) / 90000;
    assert.ok(
      perIteration < 0.1,
      `heap grew ${r.large} B over 100 000 calls vs ${r.small} B over 10 000 (${perIteration.toFixed(3)} B per call)`,
    );
  });
}
