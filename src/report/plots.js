// Figures of a run. Each figure's data and variables come from its own file
// (plots/<figure>-figure.js, decimated in C: addon/core/plot/ws_decimate.c); this file
// writes their gnuplot data files into a temporary folder, runs
// plots/<figure>.gp in each format with one gnuplot per figure
// (plots/gnuplot.js), names the SVGs for readers (plots/svg-label.js), and
// reports what it made or why it could not. Shared: axes and tics (plots/axes.js), data files
// (plots/data.js), the tested window and trend (plots/window.js).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeResultFile } from '../result-file.js';
import { figureTitle } from './lead.js';
import { iterScale } from './plots/axes.js';
import { distributionFigure, distributionQuantilesAsync } from './plots/distribution-figure.js';
import { nonEmpty, PLOTS, runGnuplot } from './plots/gnuplot.js';
import { memoryFigure } from './plots/memory-figure.js';
import { opsFigure } from './plots/ops-figure.js';
import { stackFigure } from './plots/stack-figure.js';
import { labelSvg } from './plots/svg-label.js';
import { bandsShape, timeFigure, timeRangeAsync } from './plots/time-figure.js';
import { timeSplitFigure } from './plots/time-split-figure.js';

// Formats a figure is drawn in: 'narrow' is an SVG for screens under
// 700 px (<figure>-narrow.svg: taller, larger text), which report.html
// swaps in there.
const TERMS = { png: 'pngcairo', svg: 'svg', narrow: 'svg' };
const fileOf = (name, ext) => (ext === 'narrow' ? `${name}-narrow.svg` : `${name}.${ext}`);
export const INSTALL_HINT = 'apt-get install gnuplot-nox';

/**
 * The one stderr line for figures that were skipped (skipped: the reason
 * renderFigures gave), naming the install command when gnuplot is missing.
 */
export function plotsWarning(skipped, dir) {
  const fix = /not found/.test(skipped)
    ? `install it with ${INSTALL_HINT}, then run wasm-soak report ${dir}`
    : `gnuplot's messages are in ${join(dir, 'gnuplot-stderr.txt')}`;
  return `wasm-soak: figures skipped: ${skipped}; ${fix}\n`;
}

// ---- units, scales and tics ----

// A thinned run (one call kept per stride iterations, docs/log-format.md)
// drawn in kept calls: its series' iterations and the summary's windows,
// warm-up and slopes are put in kept calls, and the x axis scales kept calls
// back to iterations.
function inKeptCalls(data, summary, stride) {
  const series = (s) => s && { ...s, iter: s.iter.map((x) => x / stride) };
  const metrics = Object.fromEntries(Object.entries(data.metrics ?? {}).map(([k, v]) => [k, series(v)]));
  // The line is drawn per kept call; its key still reads per 1,000 calls (shown).
  const perKept = (slope) =>
    slope && {
      ...slope,
      shown: slope,
      perKiloIterations: slope.perKiloIterations * stride,
      low: slope.low * stride,
      high: slope.high * stride,
    };
  const window = (w) => w && { ...w, from: w.from / stride, to: w.to / stride };
  const warmup = { ...summary.warmup };
  for (const key of ['iterations', 'time', 'memory']) if (warmup[key] != null) warmup[key] /= stride;
  return {
    data: { ...data, metrics, memory: { ...data.memory, iter: data.memory.iter.map((x) => x / stride) } },
    summary: {
      ...summary,
      warmup,
      time: summary.time && { early: window(summary.time.early), late: window(summary.time.late) },
      series: summary.series?.map((x) => ({ ...x, window: window(x.window), slope: perKept(x.slope) })),
      findings: summary.findings?.map((f) => ({ ...f, window: window(f.window), slope: perKept(f.slope) })),
    },
  };
}

// The time figure's bands decimated ahead (startFigures), by the per-call
// times they are of: a promise of them, or of null when that failed.
const bandsAhead = new WeakMap();

/**
 * Starts decimating the time figure's bands of data (a decoded run) on a
 * libuv thread (addon.decimateBandsAsync), for renderFigures to take instead
 * of decimating them itself: the caller analyses the run meanwhile, on the
 * other core. Call it before the analysis, when figures will be drawn.
 */
export function startFigures(addon, data) {
  if (!(data?.calls >= 2) || !(data.elapsed instanceof Float32Array)) return;
  const { buckets, window } = bandsShape(data.calls);
  bandsAhead.set(
    data.elapsed,
    addon.decimateBandsAsync(data.elapsed, 0, data.calls, buckets, window).catch(() => null),
  );
}

// The quantile jobs of the figures (decimateQuantilesAsync), by the per-call
// times they are of, then by their probabilities and window: started ahead
// by startFigureQuantiles, taken by prepare when it asks for the same.
const quantilesAhead = new WeakMap();

/**
 * An addon whose decimateQuantilesAsync gives the job already started on
 * elapsed for the same window and probabilities (one of the figures'
 * constants), else starts it and keeps it for the next to ask.
 */
function rememberedQuantiles(addon, elapsed) {
  if (!quantilesAhead.has(elapsed)) quantilesAhead.set(elapsed, new Map());
  const byProbs = quantilesAhead.get(elapsed);
  return {
    decimateQuantilesAsync(y, from, to, probs) {
      if (!byProbs.has(probs)) byProbs.set(probs, new Map());
      const jobs = byProbs.get(probs);
      const key = `${from}:${to}`;
      if (!jobs.has(key)) jobs.set(key, addon.decimateQuantilesAsync(y, from, to, probs));
      return jobs.get(key);
    },
  };
}

/**
 * Starts the time figure's range and the distribution figure's quantiles of
 * data (a decoded run) on libuv threads as soon as the verdicts have set
 * the windows (facts: { warmup, series, time } as the summary will hold
 * them), for renderFigures to take: the caller builds the summary
 * meanwhile. A window the summary ends up without is computed when drawn.
 */
export function startFigureQuantiles(addon, data, facts) {
  if (!(data?.calls >= 2) || !(data.elapsed instanceof Float32Array)) return;
  const stride = data.stride ?? 1;
  const kept = stride > 1 ? inKeptCalls(data, facts, stride) : { data, summary: facts };
  const jobs = rememberedQuantiles(addon, data.elapsed);
  timeRangeAsync(jobs, kept.data, kept.summary).catch(() => {});
  distributionQuantilesAsync(jobs, kept.data, kept.summary)?.catch(() => {});
}

// The applicable figures' specs, one at a time (each figure's data are
// decimated when its turn comes), their data files written into tmp.
async function* prepare(runData, runSummary, tmp) {
  const { addon } = await import('../addon.js');
  const stride = runData.stride ?? 1;
  const { data, summary } =
    stride > 1 ? inKeptCalls(runData, runSummary, stride) : { data: runData, summary: runSummary };
  const x = iterScale(data.calls * stride);
  const ctx = { title: figureTitle(summary), x: { ...x, div: x.div / stride }, stride };
  // The time figure's range and the distribution figure's quantiles,
  // computed on other threads: started when the verdicts set the windows
  // (startFigureQuantiles), else from here on (failed: computed in the figure).
  const jobs = rememberedQuantiles(addon, data.elapsed);
  const range = data.calls >= 2 ? timeRangeAsync(jobs, data, summary).catch(() => null) : null;
  const quantiles = distributionQuantilesAsync(jobs, data, summary)?.catch(() => null) ?? null;
  // The bands decimated ahead, when they were (the same call's result).
  const bands = (await bandsAhead.get(data.elapsed)) ?? null;
  const figures = [
    async () => timeFigure(addon, data, summary, ctx, bands, await range),
    () => memoryFigure(data, summary, ctx),
    () => stackFigure(data, summary, ctx),
    async () => distributionFigure(addon, data, summary, ctx, await quantiles),
    () => opsFigure(addon, data, summary, ctx),
    () => timeSplitFigure(summary, ctx),
  ];
  for (const figure of figures) {
    const spec = await figure();
    if (!spec) continue;
    for (const [file, text] of Object.entries(spec.files)) await writeFile(join(tmp, file), text);
    for (const [key, file] of Object.entries(spec.fileVars)) {
      spec.vars[key] = file && spec.files[file] !== undefined ? join(tmp, file) : '';
    }
    yield spec;
  }
}

// Draws spec's figure in each of exts with one gnuplot (bin) into tmp
// (figure-<file>), the SVGs labelled: one { spec, file, ext, out, ok, ... }
// per ext (runGnuplot's result).
async function draw(spec, exts, tmp, bin, bounds) {
  const jobs = exts.map((ext) => ({
    spec,
    ext,
    file: fileOf(spec.name, ext),
    out: join(tmp, `figure-${fileOf(spec.name, ext)}`),
  }));
  const drawn = await runGnuplot(
    bin,
    jobs.map((job) => ({
      script: join(PLOTS, `${spec.name}.gp`),
      vars: { ...spec.vars, out: job.out, term: TERMS[job.ext], narrow: job.ext === 'narrow' ? 1 : 0 },
    })),
    bounds,
  );
  return Promise.all(
    jobs.map(async (job, k) => {
      const r = drawn[k];
      if (r.ok && !(await nonEmpty(job.out))) Object.assign(r, { ok: false, reason: `${bin} wrote no ${job.file}` });
      if (r.ok && TERMS[job.ext] === 'svg') await labelSvg(job.out, spec);
      return { ...job, ...r };
    }),
  );
}

// Limits to limit the calls of fn running at once: returns a function that
// runs fn(...args) when one of them ends.
function limited(limit, fn) {
  let running = 0;
  const waiting = [];
  return async (...args) => {
    if (running >= limit) await new Promise((go) => waiting.push(go));
    running++;
    try {
      return await fn(...args);
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

// Renders the figures of a run into dir as <figure>.<ext> for each ext of
// formats ('png', 'svg'). Resolves { figures, skipped, stderr }: the file
// names made, null or the reason some or all were not made, and gnuplot's
// stderr (one section per figure and format). Each figure is drawn (one
// gnuplot for all its formats, a few at once) as soon as its data are
// ready, while the next figure's are prepared.
export async function renderFigures(dir, data, summary, { formats, gnuplot = 'gnuplot', timeoutMs, signal }) {
  const exts = formats.filter((f) => TERMS[f]);
  if (!exts.length) return { figures: [], skipped: null, stderr: '' };
  if (!(data?.calls > 0)) return { figures: [], skipped: 'the run recorded no calls', stderr: '' };
  const tmp = await mkdtemp(join(tmpdir(), 'wasm-soak-plot-'));
  try {
    const drawing = [];
    // Aborted by signal, or when preparing a figure fails: ends the figures being drawn.
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    if (signal?.aborted) stop.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    // One gnuplot more than the cores: each spends a part of its time
    // starting (loading its libraries and fonts) rather than drawing.
    const drawOne = limited(availableParallelism() + 1, draw);
    try {
      for await (const spec of prepare(data, summary, tmp))
        drawing.push(drawOne(spec, exts, tmp, gnuplot, { timeoutMs, signal: stop.signal }));
    } catch (err) {
      stop.abort();
      await Promise.all(drawing);
      return { figures: [], skipped: `preparing plot data failed: ${err.message}`, stderr: '' };
    }
    const drawn = await Promise.all(drawing);
    signal?.removeEventListener('abort', onAbort);
    // gnuplot draws into tmp; the figure is then written into dir as every
    // result file is, never through a link (src/result-file.js).
    const results = [];
    for (const job of drawn.flat()) {
      if (!job.ok) await rm(resolve(dir, job.file), { force: true });
      else {
        try {
          writeResultFile(join(dir, job.file), await readFile(job.out));
        } catch (err) {
          if (err.code === 'WS_ELINK') {
            results.push({ ...job, ok: false, reason: err.message, linkError: err });
            continue;
          }
          // A full disk skips the figure, as gnuplot failing to write it did.
          await rm(resolve(dir, job.file), { force: true }).catch(() => {});
          results.push({ ...job, ok: false, reason: err.message });
          continue;
        }
      }
      results.push(job);
    }
    // A link where a figure goes is the command's error (exit 2), once every gnuplot has ended.
    const link = results.find((r) => r.linkError);
    if (link) throw link.linkError;
    const failed = results.filter((r) => !r.ok);
    const missing = failed.some((r) => r.missing);
    const timedOut = failed.filter((r) => r.timedOut);
    const interrupted = failed.filter((r) => r.interrupted);
    const others = failed.filter((r) => !r.timedOut && !r.interrupted);
    const parts = [];
    if (missing) parts.push(`gnuplot was not found (${gnuplot})`);
    else {
      if (timedOut.length) parts.push(`${timedOut.map((r) => r.file).join(', ')} skipped: ${timedOut[0].reason}`);
      if (interrupted.length) parts.push(`${interrupted.map((r) => r.file).join(', ')} skipped: interrupted`);
      if (others.length) parts.push(`gnuplot failed for ${others.map((r) => r.file).join(', ')}: ${others[0].reason}`);
    }
    const skipped = parts.length ? parts.join('; ') : null;
    const stderr = results.map((r) => `# ${r.file}: ${r.ok ? 'ok' : r.reason}\n${r.stderr}`).join('\n');
    return { figures: results.filter((r) => r.ok).map((r) => r.file), skipped, stderr };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
