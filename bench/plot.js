// Times the figures (C decimation + gnuplot, PNG and SVG) for 10 M synthetic
// samples and prints `plot: <n> samples, <figures> figures in <ms> ms`, then
// the same with the narrow SVG renders report.html adds, as a ratio.
// Usage: node bench/plot.js [samples]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderFigures } from '../src/report/plots.js';

const n = Number(process.argv[2] ?? 10_000_000);
const ops = [
  { name: 'step', weight: 3 },
  { name: 'alloc', weight: 1 },
];

function syntheticRun() {
  let s = 12345;
  const rnd = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
  const elapsed = new Float32Array(n),
    op = new Uint16Array(n),
    flags = new Uint8Array(n);
  const iter = [0],
    bytes = [1 << 20];
  for (let i = 0; i < n; i++) {
    op[i] = rnd() < 0.75 ? 0 : 1;
    elapsed[i] = (op[i] ? 2400 : 800) * (0.9 + 0.3 * rnd() ** 3) + (rnd() < 1e-4 ? 5e5 * rnd() : 0);
    if (i % 250_000 === 1) {
      flags[i] = 1;
      iter.push(i);
      bytes.push(bytes.at(-1) + 65536);
    }
  }
  const slow = (f) => {
    const m = Math.floor(n / 1000);
    const it = Float64Array.from({ length: m }, (_, k) => k * 1000);
    return { iter: it, tMs: it.map((x) => x / 1e4), value: it.map(f) };
  };
  return {
    header: { ops },
    calls: n,
    elapsed,
    op,
    flags,
    memory: { iter: Float64Array.from(iter), bytes: Float64Array.from(bytes) },
    metrics: {
      rss: slow((x) => 6e7 + x),
      jsHeap: slow(() => 5e6),
      liveBytes: slow(() => 3e5),
      heapBytes: slow((x) => 3e5 + x / 8),
    },
    durationMs: n / 1e4,
    backPressureWaits: 0,
    tornBytes: 0,
    complete: true,
  };
}

const data = syntheticRun();
const summary = { name: 'bench', seed: 1, warmup: { iterations: Math.floor(n / 20) } };
const dir = await mkdtemp(join(tmpdir(), 'wasm-soak-bench-'));
// PNG and SVG, then what report.html also asks for (the narrow renders),
// side by side in one run.
async function time(formats) {
  const t0 = performance.now();
  const r = await renderFigures(dir, data, summary, { formats, gnuplot: process.env.WASM_SOAK_GNUPLOT || 'gnuplot' });
  if (r.skipped) throw new Error(`plots skipped: ${r.skipped}`);
  return { ms: performance.now() - t0, figures: r.figures.length };
}
try {
  const base = await time(['png', 'svg']);
  console.log(`plot: ${n} samples, ${base.figures} figures in ${base.ms.toFixed(0)} ms`);
  const html = await time(['png', 'svg', 'narrow']);
  console.log(
    `plot with the narrow renders report.html shows: ${html.figures} figures in ${html.ms.toFixed(0)} ms (${(html.ms / base.ms).toFixed(2)}× PNG and SVG alone)`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
