// Benchmark of the trend verdict engine: analyzeRun on 1 M synthetic
// per-call samples. Prints wall time and peak memory per sample (RSS growth
// over the baseline, the 4 B/sample input included).
import { analyzeRun } from '../src/analysis/verdict.js';

const N = 1_000_000;
const elapsed = new Float32Array(N);
let s = 12345;
const uniform = () => {
  s = (Math.imul(s, 1103515245) + 12345) >>> 0;
  return (s + 0.5) / 4294967296;
};
for (let i = 0; i < N; i++) {
  const z = Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
  elapsed[i] = 800 * Math.exp(0.3 * z) * (i < 20000 ? 1.8 : 1);
}
const data = {
  header: { seed: 1, memories: [{ label: 'memory', maximumBytes: null }] },
  calls: N,
  elapsed,
  memory: { iter: Float64Array.of(0, 5000), bytes: Float64Array.of(1 << 20, 1 << 21) },
  metrics: {},
  durationMs: 100000,
};
analyzeRun({ ...data, calls: 1000, elapsed: elapsed.subarray(0, 1000) });
globalThis.gc?.();
const before = process.memoryUsage().rss;
const t0 = process.hrtime.bigint();
const r = analyzeRun(data);
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
const peak = process.resourceUsage().maxRSS * 1024;
console.log(
  `verdict: ${N.toLocaleString('en-US')} samples analysed in ${ms.toFixed(1)} ms ` +
    `(verdict ${r.verdict}, warm-up ${r.warmup.iterations}); ` +
    `peak RSS growth ${(Math.max(0, peak - before) / N).toFixed(2)} B/sample ` +
    `(input ${elapsed.BYTES_PER_ELEMENT} B/sample, already counted in the baseline)`,
);
