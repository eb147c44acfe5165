// The cost of counting the glue's objects and of the held samples
// (docs/verdicts.md, "Memory that JS objects own"):
// - the tracker's FinalizationRegistry against the engine's own, each in a
//   worker of its own, in interleaved ABBA rounds: ns per object made,
//   registered and freed (wasm-bindgen's pattern), as the ratio tracked /
//   plain (target <= 2x: the tracker adds no per-object map);
// - the held samples of a run at the defaults (soak/real/photon-unfreed.mjs:
//   20 000 calls, 33 samples of a full GC, its finalizers and a census walk):
//   their total time against the run's (target <= 25 %).

import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { decodeLog } from '../src/analysis/log-reader.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TRACKER = new URL('../src/worker/objects.js', import.meta.url).href;
const OBJECTS = 1_000_000;
const ROUNDS = 4;
const TARGETS = { ratio: 2, heldShare: 0.25 };

/** ns per object made, registered and freed, in a worker (tracked: with the tracker installed first). */
function perObject(tracked) {
  const source = `
    import { parentPort } from 'node:worker_threads';
    ${tracked ? `import { installObjectTracker } from ${JSON.stringify(TRACKER)}; installObjectTracker({ control: new Int32Array(8), callWord: 6 });` : ''}
    const registry = new FinalizationRegistry(() => {});
    class Doc { constructor(i) { this.ptr = i; registry.register(this, i, this); } free() { registry.unregister(this); } }
    for (let i = 0; i < ${OBJECTS}; i++) new Doc(i).free(); // warm-up
    const t0 = performance.now();
    for (let i = 0; i < ${OBJECTS}; i++) new Doc(i).free();
    parentPort.postMessage(((performance.now() - t0) * 1e6) / ${OBJECTS});`;
  return new Promise((resolve, reject) => {
    const w = new Worker(source, { eval: true, type: 'module' });
    w.once('message', resolve);
    w.once('error', reject);
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const plain = [];
const tracked = [];
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 === 0 ? [false, true, true, false] : [true, false, false, true];
  for (const t of order) (t ? tracked : plain).push(await perObject(t));
}
const ratio = median(tracked) / median(plain);
console.log(
  `objects: made, registered and freed: ${median(tracked).toFixed(0)} ns tracked, ${median(plain).toFixed(0)} ns with the engine's registry: ${ratio.toFixed(2)}x (target <= ${TARGETS.ratio}x) ${ratio <= TARGETS.ratio ? 'ok' : 'MISSED'}`,
);

const out = join(tmpdir(), `wasm-soak-bench-objects-${process.pid}`);
try {
  const r = spawnSync(
    process.execPath,
    [
      join(ROOT, 'src/cli/main.js'),
      'run',
      join(ROOT, 'soak/real/photon-unfreed.mjs'),
      '-o',
      out,
      '-q',
      '--format',
      'md',
      '--fail-on',
      'none',
    ],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`the run failed: ${r.stderr}`);
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
  const held = decodeLog(join(out, 'samples.wslog')).metrics.censusHeldNs?.value ?? [];
  const totalMs = held.reduce((a, b) => a + b, 0) / 1e6;
  const share = totalMs / summary.durationMs;
  console.log(
    `objects: held samples of photon-unfreed (20,000 calls): ${held.length}, median ${(median(held) / 1e6).toFixed(1)} ms, ${totalMs.toFixed(0)} ms in all against the run's ${summary.durationMs.toFixed(0)} ms (summary.durationMs): ${(share * 100).toFixed(1)} % (target <= ${TARGETS.heldShare * 100} %) ${share <= TARGETS.heldShare ? 'ok' : 'MISSED'}`,
  );
} finally {
  rmSync(out, { recursive: true, force: true });
}
