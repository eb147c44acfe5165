// Harness overhead per iteration on an empty export, measured side by side in
// one run: the bare call, a hand-written JS loop (performance.now() around
// each call, stored into a Float64Array), and wasm-soak's C loop (the real
// runner: worker, ring, drain to the log, yields and slow samples), their
// repetitions interleaved (references, then the harness, REPEATS times) and
// the medians compared, with the load average printed. Also prints the loop
// thread's CPU time per call (its control samples' thread CPU; no target:
// a figure a loaded machine stretches less), bytes per sample and the main
// thread's drain throughput.

import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { decodeLog } from '../src/analysis/log-reader.js';
import { parseCommand } from '../src/library/parse-command.js';
import { runConfig } from '../src/options/schema.js';
import { createDrain, createRing } from '../src/run/drain.js';
import { createLogWriter, fileSink } from '../src/run/log-writer.js';
import { runTarget } from '../src/run/run.js';

const N = Number(process.argv[2] ?? 2_000_000);
const REPEATS = 5;
const modulePath = new URL('../soak/modules/empty.wasm', import.meta.url).pathname;

function loops() {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL('./loops.js', import.meta.url), {
      workerData: { modulePath, n: N, repeats: 1 },
    });
    w.once('message', resolve);
    w.once('error', reject);
  });
}

/**
 * One run of the real runner: { perIteration (ns of wall time), threadCpu (ns of the loop
 * thread's CPU time per call, from its control samples), bytesPerSample }.
 */
async function harness() {
  const out = mkdtempSync(join(tmpdir(), 'wasm-soak-bench-'));
  const argv = [modulePath, '-n', String(N), '--seed', '1', '--call', 'noop', '--warmup', '0'];
  const cfg = runConfig(parseCommand('run', argv).values);
  Object.assign(cfg, { out, quiet: true, formats: [] });
  try {
    const { summary } = await runTarget(modulePath, cfg, ['run', modulePath]);
    const cpu = (await decodeLog(join(out, 'samples.wslog'))).metrics.threadCpuNs?.value ?? [];
    return {
      perIteration: (summary.durationMs * 1e6) / summary.iterations.completed,
      threadCpu: cpu.length > 1 ? (cpu[cpu.length - 1] - cpu[0]) / summary.iterations.completed : NaN,
      bytesPerSample: statSync(join(out, 'samples.wslog')).size / summary.samples.calls,
    };
  } finally {
    rmSync(out, { recursive: true });
  }
}

function drainThroughput() {
  const records = 1 << 20;
  const sab = createRing(records);
  const ctl = new Int32Array(sab, 0, 16);
  const dir = mkdtempSync(join(tmpdir(), 'wasm-soak-drain-'));
  const writer = createLogWriter(fileSink(join(dir, 'x.wslog')), { bench: true });
  const drain = createDrain(sab, (chunk) => writer.append(chunk));
  let total = 0;
  const t0 = performance.now();
  for (let k = 0; k < 8; k++) {
    Atomics.store(ctl, 0, Atomics.load(ctl, 0) + records);
    total += drain();
  }
  const ms = performance.now() - t0;
  writer.close();
  rmSync(dir, { recursive: true });
  return (total / ms) * 1000;
}

const load0 = loadavg()[0];
const reps = [];
for (let r = 0; r < REPEATS; r++) reps.push({ ...(await loops()), ...(await harness()) });
const median = (key) => reps.map((x) => x[key]).sort((a, b) => a - b)[Math.floor(REPEATS / 2)];
const ref = { bare: median('bare'), hand: median('hand') };
const h = {
  perIteration: median('perIteration'),
  threadCpu: median('threadCpu'),
  bytesPerSample: median('bytesPerSample'),
};
const overhead = h.perIteration - ref.bare;
console.log(
  `runner: ${N} calls of an empty export, median of ${REPEATS} interleaved, load ${load0.toFixed(1)} to ${loadavg()[0].toFixed(1)}`,
);
console.log(`  bare call              ${ref.bare.toFixed(1)} ns/iteration`);
console.log(`  hand-written JS loop   ${ref.hand.toFixed(1)} ns/iteration`);
console.log(
  `  wasm-soak C loop       ${h.perIteration.toFixed(1)} ns/iteration (whole run: ring, drain, yields, slow samples)`,
);
console.log(
  `  loop thread's CPU      ${h.threadCpu.toFixed(1)} ns/iteration (the worker's own time, which a loaded machine stretches less than the wall time)`,
);
console.log(
  `  harness overhead       ${overhead.toFixed(1)} ns/iteration (target <= 60)  ${overhead <= 60 ? 'ok' : 'MISSED'}`,
);
console.log(
  `  ratio to hand-written  ${(h.perIteration / ref.hand).toFixed(2)}x (target <= 1.0, reference ${ref.hand.toFixed(1)} ns)  ${h.perIteration <= ref.hand ? 'ok' : 'MISSED'}`,
);
console.log(
  `  bytes per sample       ${h.bytesPerSample.toFixed(2)} (a 32-byte record per call, plus the header, block headers and slow samples; target <= 33)  ${h.bytesPerSample <= 33 ? 'ok' : 'MISSED'}`,
);
console.log(`  drain throughput       ${(drainThroughput() / 1e6).toFixed(1)} M records/s to the log file`);
