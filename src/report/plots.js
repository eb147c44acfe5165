// Figures of a run. Each figure's data and variables come from its own file
// (plots/<figure>-figure.js, decimated in C: addon/core/plot/ws_decimate.c); this file
// writes their gnuplot data files into a temporary folder, runs
// plots/<figure>.gp once per figure and format (plots/gnuplot.js), names the
// SVGs for readers (plots/svg-label.js), and reports what it made or why it
// could not. Shared: axes and tics (plots/axes.js), data files
// (plots/data.js), the tested window and trend (plots/window.js).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeResultFile } from '../result-file.js';
import { figureTitle } from './lead.js';
import { iterScale } from './plots/axes.js';
import { distributionFigure } from './plots/distribution-figure.js';
import { nonEmpty, PLOTS, pool, runGnuplot } from './plots/gnuplot.js';
import { memoryFigure } from './plots/memory-figure.js';
import { opsFigure } from './plots/ops-figure.js';
import { stackFigure } from './plots/stack-figure.js';
import { labelSvg } from './plots/svg-label.js';
import { timeFigure } from './plots/time-figure.js';
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

// Prepares every applicable figure's data files in tmp.
async function prepare(runData, runSummary, tmp) {
  const { addon } = await import('../addon.js');
  const stride = runData.stride ?? 1;
  const { data, summary } =
    stride > 1 ? inKeptCalls(runData, runSummary, stride) : { data: runData, summary: runSummary };
  const x = iterScale(data.calls * stride);
  const ctx = { title: figureTitle(summary), x: { ...x, div: x.div / stride }, stride };
  const specs = [
    timeFigure(addon, data, summary, ctx),
    memoryFigure(data, summary, ctx),
    stackFigure(data, summary, ctx),
    distributionFigure(addon, data, summary, ctx),
    opsFigure(addon, data, summary, ctx),
    timeSplitFigure(summary, ctx),
  ].filter(Boolean);
  for (const spec of specs) {
    for (const [file, text] of Object.entries(spec.files)) await writeFile(join(tmp, file), text);
    for (const [key, file] of Object.entries(spec.fileVars)) {
      spec.vars[key] = file && spec.files[file] !== undefined ? join(tmp, file) : '';
    }
  }
  return specs;
}

// Renders the figures of a run into dir as <figure>.<ext> for each ext of
// formats ('png', 'svg'). Resolves { figures, skipped, stderr }: the file
// names made, null or the reason some or all were not made, and gnuplot's
// stderr (one section per run).
export async function renderFigures(dir, data, summary, { formats, gnuplot = 'gnuplot', timeoutMs, signal }) {
  const exts = formats.filter((f) => TERMS[f]);
  if (!exts.length) return { figures: [], skipped: null, stderr: '' };
  if (!(data?.calls > 0)) return { figures: [], skipped: 'the run recorded no calls', stderr: '' };
  const tmp = await mkdtemp(join(tmpdir(), 'wasm-soak-plot-'));
  try {
    let specs;
    try {
      specs = await prepare(data, summary, tmp);
    } catch (err) {
      return { figures: [], skipped: `preparing plot data failed: ${err.message}`, stderr: '' };
    }
    const jobs = specs.flatMap((spec) => exts.map((ext) => ({ spec, file: fileOf(spec.name, ext), ext })));
    // gnuplot draws into tmp; the figure is then written into dir as every
    // result file is, never through a link (src/result-file.js).
    const results = await pool(jobs, availableParallelism(), async (job) => {
      const out = join(tmp, `figure-${job.file}`);
      const r = await runGnuplot(
        gnuplot,
        join(PLOTS, `${job.spec.name}.gp`),
        { ...job.spec.vars, out, term: TERMS[job.ext], narrow: job.ext === 'narrow' ? 1 : 0 },
        { timeoutMs, signal },
      );
      if (r.ok && !(await nonEmpty(out))) Object.assign(r, { ok: false, reason: `${gnuplot} wrote no ${job.file}` });
      if (r.ok && TERMS[job.ext] === 'svg') await labelSvg(out, job.spec);
      if (!r.ok) await rm(resolve(dir, job.file), { force: true });
      else {
        try {
          writeResultFile(join(dir, job.file), await readFile(out));
        } catch (err) {
          if (err.code === 'WS_ELINK') return { ...job, ...r, ok: false, reason: err.message, linkError: err };
          // A full disk skips the figure, as gnuplot failing to write it did.
          await rm(resolve(dir, job.file), { force: true }).catch(() => {});
          return { ...job, ...r, ok: false, reason: err.message };
        }
      }
      return { ...job, ...r };
    });
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
