// Figures of a run. Decimates the decoded run in C (addon/ws_decimate.c),
// writes gnuplot data files into a temporary folder, runs plots/<figure>.gp
// once per figure and format (plots/gnuplot.js), names the SVGs for readers
// (plots/svg-label.js), and reports what it made or why it could not. Axes
// and tics: plots/axes.js; data files: plots/data.js.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { censusMetricsOf } from '../analysis/census-metrics.js';
import { BAND, BAND_FIELDS, FLAG, OPS_CELL, OPS_FIELDS, VERDICT_DEFAULTS } from '../protocol.js';
import { byteUnit, timeUnit } from './format.js';
import { iterScale, linearTics, logTics, ticList, timeAxis, xTics } from './plots/axes.js';
import { blocks, envelope, rows } from './plots/data.js';
import { nonEmpty, PLOTS, pool, runGnuplot } from './plots/gnuplot.js';
import { labelSvg } from './plots/svg-label.js';
import { figureTitle, formatBytes, formatCount, formatNs, isTimeSeries, slopeText } from './words.js';

// Formats a figure is drawn in: 'narrow' is an SVG for screens under
// 700 px (<figure>-narrow.svg: taller, larger text), which report.html
// swaps in there.
const TERMS = { png: 'pngcairo', svg: 'svg', narrow: 'svg' };
const fileOf = (name, ext) => (ext === 'narrow' ? `${name}-narrow.svg` : `${name}.${ext}`);
const BUCKETS = 1000; // about one per pixel of the plot area
const OP_WINDOWS = 60;
const MAX_POINTS = 3000;
const SPIKE_GROUP = 5; // buckets per spike marker at most
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

// Where the iterations excluded from the trend tests of a signal ('time',
// 'memory') end: the tested window's start, else the warm-up of the summary.
function warmupEnd(summary, signal, n) {
  const tested = summary.series?.find((s) => s.name === signal && s.window);
  const w = tested?.window.from ?? summary.warmup?.iterations ?? summary.warmup?.[signal] ?? 0;
  return Math.max(0, Math.min(n, Math.round(w)));
}

// The window a trend test judged, for the figure showing the series that
// match: the finding's, else the tested series'. null when there is none.
function testedWindow(summary, match) {
  const hit = summary.findings?.find((f) => match(f.series) && f.window);
  const w = hit?.window ?? summary.series?.find((s) => match(s.name) && s.tested !== false && s.window)?.window ?? null;
  return w && w.to > w.from ? w : null;
}

// The variables that shade the tested window (common.gp), in x units.
function windowVars(w, xs) {
  if (!w) return { wfrom: 0, wto: 0, wtitle: '' };
  return {
    wfrom: w.from / xs.div,
    wto: w.to / xs.div,
    wtitle: `window tested (iterations ${formatCount(w.from)}–${formatCount(w.to)})`,
  };
}

// ---- data files ----

// The fitted trend drawn in a figure: the finding on a series that match()
// accepts, else (with tested) that figure's tested series. null when there
// is none, or its slope is not finite. { ...finding or series, finding }.
function trendFor(summary, match, { tested = false } = {}) {
  const finding = summary.findings?.find((f) => match(f.series) && f.slope);
  const found =
    finding ?? (tested ? summary.series?.find((s) => match(s.name) && s.tested !== false && s.slope) : null);
  if (!found || !Number.isFinite(found.slope.perKiloIterations)) return null;
  return { ...found, finding: Boolean(finding) };
}

// The variables naming a trend line (common.gp): a short key entry, and
// the note above the plot with what it fits and its slope with interval.
function trendVars(trend, what) {
  if (!trend) return { trendtitle: '', trendnote: '', trendcolor: '#d62728' };
  const of = what ? ` of ${what}` : '';
  return {
    trendtitle: trend.finding ? `fitted trend${of} (the finding)` : `fitted trend${of} (no finding)`,
    trendnote: `${trend.finding ? 'Trend' : 'Fitted trend (no finding)'}${of}: ${slopeText(trend.slope.shown ?? trend.slope)}`,
    trendcolor: trend.finding ? '#d62728' : '#555555',
  };
}

// A straight fitted line through samples (x, y) of a series over the trend's
// window: slope k per iteration, the intercept the median offset of the
// samples from it. Rows [x, y] at both ends, or null with under 2 samples.
function fittedLine(points, k, from, to) {
  const offsets = points.filter(([x, y]) => x >= from && x < to && Number.isFinite(y)).map(([x, y]) => y - k * x);
  if (offsets.length < 2) return null;
  offsets.sort((u, v) => u - v);
  const a = offsets[offsets.length >> 1];
  return [
    [from, a + k * from],
    [to, a + k * to],
  ];
}

/**
 * Bucket i of an addon.decimateBands result by name (first, last, min, max,
 * imax, p10, median, p90), and whether every field is finite.
 */
function bucket(b, i) {
  const o = b.subarray(i * BAND_FIELDS, (i + 1) * BAND_FIELDS);
  const named = Object.fromEntries(Object.entries(BAND).map(([name, k]) => [name, o[k]]));
  return { ...named, finite: o.every(Number.isFinite) };
}

// The time trend's rows (x, time in unit) over its window. A slope in ln(ns)
// (a relative drift) is fitted to the log of the rolling medians and drawn
// as a curve; one in ns as a line.
function timeTrendLine(trend, b, buckets, warm, n, unit, xs) {
  const log = trend.slope.unit === 'ln(ns)';
  if (!log && !['ns', undefined].includes(trend.slope.unit)) return null;
  const k = trend.slope.perKiloIterations / 1000; // per iteration
  const from = Math.max(0, trend.window?.from ?? warm),
    to = Math.min(n, trend.window?.to ?? n);
  const points = [];
  for (let i = 0; i < buckets; i++) {
    const o = bucket(b, i);
    if (o.median > 0) points.push([(o.first + o.last) / 2, log ? Math.log(o.median) : o.median]);
  }
  const ends = fittedLine(points, k, from, to);
  if (!ends) return null;
  const steps = log ? 48 : 1;
  return Array.from({ length: steps + 1 }, (_, j) => {
    const x = from + ((to - from) * j) / steps,
      y = ends[0][1] + k * (x - from);
    return [x / xs.div, (log ? Math.exp(y) : y) / unit.div];
  });
}

function timeFigure(addon, data, summary, ctx) {
  const n = data.calls;
  if (n < 2) return null;
  const buckets = Math.min(BUCKETS, n);
  const window = Math.max(Math.ceil(n / buckets), Math.min(Math.max(25, Math.ceil(n / 100)), 5000));
  const b = addon.decimateBands(data.elapsed, 0, n, buckets, window);
  const warm = warmupEnd(summary, 'time', n);
  const [p1, _p50, p99] = addon.decimateQuantiles(
    data.elapsed,
    warm < n - 1 ? warm : 0,
    n,
    new Float64Array([0.01, 0.5, 0.99]),
  );
  const xs = ctx.x;
  let topP90 = 0,
    topMedian = 0,
    lowest = Infinity,
    highestAll = 0;
  for (let i = 0; i < buckets; i++) {
    const o = bucket(b, i);
    if (!o.finite) continue;
    if (o.first >= warm) topP90 = Math.max(topP90, o.p90);
    topMedian = Math.max(topMedian, o.median);
    if (o.min > 0) lowest = Math.min(lowest, o.min);
    highestAll = Math.max(highestAll, o.max);
  }
  // A linear axis fits the steady state; a slow warm-up shows up to twice that.
  const steady = Math.max(topP90, p99);
  const top = 1.15 * Math.max(steady, Math.min(topMedian, 2 * steady));
  // Spikes above that axis after warm-up, at most one marker per SPIKE_GROUP
  // buckets (the highest), so a noisy run does not draw a wall of markers.
  const spikes = [];
  let clipped = 0,
    after = 0,
    highest = 0;
  for (let i = 0; i < buckets; i++) {
    const o = bucket(b, i);
    if (o.first < warm) continue;
    after++;
    const max = o.max;
    if (!(max > top)) continue;
    clipped++;
    highest = Math.max(highest, max);
    const group = Math.floor(i / SPIKE_GROUP),
      last = spikes.at(-1);
    if (last && last.group === group) {
      if (max > last.max) Object.assign(last, { max, at: o.imax });
    } else spikes.push({ group, max, at: o.imax });
  }
  // Log y when the spread calls for it: a wide body, or a linear axis that
  // would clip the slowest call of more than a tenth of the buckets.
  const logy = p1 > 0 && lowest < Infinity && (p99 / p1 > 50 || clipped > 0.1 * after);
  const axis = timeAxis(lowest, logy ? highestAll : top, logy);
  const unit = axis.unit;
  const bucketRows = [];
  for (let i = 0; i < buckets; i++) {
    const o = bucket(b, i);
    if (!o.finite) continue;
    bucketRows.push([
      (o.first + o.last) / 2 / xs.div,
      ...[o.min, o.max, o.p10, o.median, o.p90].map((v) => v / unit.div),
    ]);
  }
  const files = { 'time.dat': rows(bucketRows) };
  const trend = trendFor(summary, isTimeSeries, { tested: true });
  const vars = {
    title: `Time per call — ${ctx.title}`,
    xlabel: xs.label,
    yunit: unit.label,
    warmup: warm / xs.div,
    xmax: n / xs.div,
    xticlist: xTics(n / xs.div),
    ...windowVars(trend?.window ?? testedWindow(summary, isTimeSeries), xs),
    logy: logy ? 1 : 0,
    ymin: axis.min,
    ymax: axis.max,
    yticlist: axis.tics,
    y2ticlist: '',
    ...trendVars(null),
    spiketitle: '',
  };
  if (!logy && spikes.length) {
    files['time-spikes.dat'] = rows(spikes.map((s) => [s.at / xs.div, vars.ymax]));
    vars.spiketitle = `spikes above the axis (highest ${formatNs(highest)})`;
  }
  const line = trend && timeTrendLine(trend, b, buckets, warm, n, unit, xs);
  if (line) {
    files['time-trend.dat'] = rows(line);
    Object.assign(vars, trendVars(trend, 'time per call'));
  }
  return {
    name: 'time',
    vars,
    files,
    fileVars: { datafile: 'time.dat', trendfile: 'time-trend.dat', spikefile: 'time-spikes.dat' },
    desc:
      `Time per call over ${formatCount(n)} iterations on a ${logy ? 'log' : 'linear'} axis in ${unit.label}: ` +
      `rolling median, p10–p90 band and fastest–slowest envelope` +
      (line ? `; ${vars.trendnote}` : '') +
      '.',
  };
}

function growthEvents(data, ops) {
  const { iter, bytes } = data.memory;
  const perOp = new Map();
  let total = 0,
    j = 0;
  for (let i = 0; i < data.calls; i++) {
    if (!(data.flags[i] & FLAG.grew)) continue;
    while (j + 1 < iter.length && iter[j + 1] <= i) j++;
    const name = ops[data.op[i]]?.name ?? `op ${data.op[i]}`;
    if (!perOp.has(name)) perOp.set(name, []);
    perOp.get(name).push([i, bytes[j]]);
    total++;
  }
  // Too many markers hide the steps: keep the first event per pixel bucket.
  const stride = total > MAX_POINTS ? data.calls / BUCKETS : 0;
  return [...perOp].map(([name, events]) => {
    let last = -1;
    const kept = stride
      ? events.filter(([i]) => {
          const bucket = Math.floor(i / stride);
          if (bucket === last) return false;
          last = bucket;
          return true;
        })
      : events;
    // A scenario's single `iteration` is not an op name worth showing.
    return {
      title: name === 'iteration' && ops.length < 2 ? 'memory grew during a call' : `grew during ${name}`,
      rows: kept,
    };
  });
}

// The free memory the heap holds beyond its early level, shaded between heap
// top and live bytes: rows x, low, heap (low = heap where nothing is shaded),
// thinned to MAX_POINTS rows, or null when no row is. A heap always holds
// some free memory (a top chunk, free lists, headers), so the gap itself is
// no sign of fragmentation: its growth is. The early level is the largest
// gap in the first fifth of the heap samples from `from` (the warm-up's end);
// a later gap is shaded where it exceeds that level by more than
// memFloorRelative of the heap (the relative floor under which a memory trend
// is no finding). A leak raises both lines together and shades nothing. At
// each heap sample, live bytes are the last live sample at or before it, so
// live bytes from another pass (the counting pass, same seed and calls) or
// another cadence still line up with the heap.
function heldFreeBand(heap, live, from) {
  if (!heap?.iter.length || !live?.iter.length) return null;
  const gaps = [];
  let j = -1;
  for (let i = 0; i < heap.iter.length; i++) {
    while (j + 1 < live.iter.length && live.iter[j + 1] <= heap.iter[i]) j++;
    if (j >= 0 && heap.iter[i] >= from) gaps.push([heap.iter[i], live.value[j], heap.value[i]]);
  }
  if (!gaps.length) return null;
  const early = gaps.slice(0, Math.max(1, Math.ceil(gaps.length / 5)));
  const level = Math.max(...early.map(([, l, h]) => h - l));
  const stride = Math.max(1, Math.ceil(gaps.length / MAX_POINTS)),
    out = [];
  let shaded = false;
  for (let i = 0; i < gaps.length; i += stride) {
    const [x, l, h] = gaps[i];
    const held = h - l - level > VERDICT_DEFAULTS.memFloorRelative * h;
    shaded ||= held;
    out.push([x, held ? l + level : h, h]);
  }
  return shaded ? out : null;
}

// Where the memory figure's heap top and live bytes come from, for their key
// entries: the allocator's own statistics, the heap census (then its own
// live bytes line is that line: it is not drawn twice), the counting pass
// (as summary.sources.liveBytes names it), else the scenario's stats().
function memorySources(m, summary, { heap, live, census, censusname }) {
  const short = (t) => String(t).split(' (')[0]; // 'mallinfo (uordblks, …)' → 'mallinfo'
  const allocator = short(summary.sources?.allocator?.source ?? 'allocator');
  const same = (a, b) => Boolean(a && b && (a === b || a.value === b.value));
  const liveIsCensus = same(live, census.censusLive);
  let liveSource = 'stats()';
  if (same(live, m.allocatorLive)) liveSource = allocator;
  else if (liveIsCensus) liveSource = censusname;
  else if (summary.sources?.liveBytes) liveSource = short(summary.sources.liveBytes);
  let heapSource = 'stats()';
  if (same(heap, m.allocatorHeap)) heapSource = allocator;
  else if (same(heap, census.censusHeap)) heapSource = censusname;
  return { heapSource, liveSource, liveIsCensus };
}

// Peak live bytes within calls (the counting pass's metrics.livePeak) as a
// band over the live bytes line: rows x, live, peak, thinned like that line.
// At each live sample the peak is the last peak sample at or before it (the
// same iterations when both come from the counting pass), never below live.
// Returns { rows, above } (how far at most the peak rises above live bytes),
// or null without both series.
function peakBand(live, peak) {
  if (!live?.iter.length || !peak?.iter.length) return null;
  const upper = new Float64Array(live.iter.length);
  let j = -1,
    above = 0;
  for (let i = 0; i < upper.length; i++) {
    while (j + 1 < peak.iter.length && peak.iter[j + 1] <= live.iter[i]) j++;
    upper[i] = Math.max(live.value[i], j >= 0 ? peak.value[j] : -Infinity);
    above = Math.max(above, upper[i] - live.value[i]);
  }
  return { rows: envelope(live.iter, live.value, MAX_POINTS, upper), above };
}

// The decoded run's series for each memory series name a finding or the
// summary may test (src/analysis/verdict.js), as drawn in the memory figure.
const MEMORY_TREND_SERIES = {
  memory: ['memfile', 'linear memory'],
  'heap-top': ['heapfile', 'the heap top'],
  'heap-bytes': ['heapfile', 'the allocator heap'],
  'live-bytes': ['livefile', 'live bytes'],
  'js-heap': ['jsheapfile', 'the JS heap'],
};

/**
 * Each memory that grew, when the run has several (the memory figure's
 * linear memory is their sum): one whose linear memory or heap census live
 * bytes rose from the first sample to the last. { memory, live } as blocks
 * for the figure, memory its linear memory as steps and live its census
 * live bytes (where the census recognised its allocator), each block titled
 * with the memory's label; rows [x, bytes].
 */
function grownMemories(data) {
  const memories = data.header?.memories ?? [];
  const memory = [],
    live = [];
  if (memories.length < 2) return { memory, live };
  const rose = (s) => s?.value.length > 0 && s.value.at(-1) > s.value[0];
  memories.forEach(({ label }, k) => {
    const s = data.metrics?.[`memory:${label}`];
    const census = censusMetricsOf(data.metrics, k).censusLive;
    if (!s?.value.length || !(rose(s) || rose(census))) return;
    const steps = Array.from(s.iter, (x, i) => [x, s.value[i]]);
    steps.push([Math.max(data.calls - 1, steps.at(-1)[0]), steps.at(-1)[1]]);
    memory.push({ title: `linear memory "${label}"`, rows: steps });
    if (census?.iter.length) {
      live.push({
        title: `live bytes of "${label}" (heap census)`,
        rows: envelope(census.iter, census.value, MAX_POINTS),
      });
    }
  });
  return { memory, live };
}

function memoryFigure(data, summary, ctx) {
  const n = data.calls,
    mem = data.memory;
  if (n < 1 || !mem || mem.iter.length === 0) return null;
  const xs = ctx.x,
    m = data.metrics ?? {};
  const steps = Array.from(mem.iter, (x, i) => [x, mem.bytes[i]]);
  steps.push([Math.max(n - 1, steps.at(-1)[0]), steps.at(-1)[1]]);
  const series = (s) => (s?.iter.length ? envelope(s.iter, s.value, MAX_POINTS) : null);
  // Heap and live bytes from the scenario's stats(), else from the
  // allocator's own statistics. The verdict's input (analyze.js) may already
  // carry the allocator's heap or the counting pass's live bytes as
  // heapBytes / liveBytes: summary.sources names them, and a series that is
  // the allocator's own object is labelled as the allocator.
  const heap = m.heapBytes?.iter.length ? m.heapBytes : m.allocatorHeap;
  const live = m.liveBytes?.iter.length ? m.liveBytes : m.allocatorLive;
  const band = peakBand(live, m.livePeak);
  const census = censusMetricsOf(m, summary.census?.memory?.index ?? 0);
  const censusLabel = summary.census?.memory?.label;
  const several = (summary.memory?.memories?.length ?? 0) > 1;
  const censusname = several && censusLabel ? `heap census of memory ${censusLabel}` : 'heap census';
  const { heapSource, liveSource, liveIsCensus } = memorySources(m, summary, { heap, live, census, censusname });
  const left = {
    memfile: steps,
    heapfile: series(heap),
    livefile: series(live),
    peakfile: band?.rows,
    // The heap census (when it ran) of the memory the verdicts read: bytes
    // in use (unless that is the live bytes line), free, the largest free block.
    censuslivefile: liveIsCensus ? null : series(census.censusLive),
    censusfreefile: series(census.censusFree),
    censuslargestfile: series(census.censusLargestFree),
  };
  // The JS heap retained after full GCs is what the js-heap trend tests;
  // the raw heap (with its GC sawtooth) only when that is missing. When it
  // is the finding the right axis is its own: RSS (hundreds of MiB) would
  // flatten it.
  const retained = m.jsHeapAfterGC?.iter.length > 0;
  const trend = trendFor(summary, (name) => name in MEMORY_TREND_SERIES);
  const [trendKey, trendWhat] = trend ? MEMORY_TREND_SERIES[trend.series] : [];
  const right = {
    jsheapfile: series(retained ? m.jsHeapAfterGC : m.jsHeap),
    rssfile: trendKey === 'jsheapfile' ? null : series(m.rss),
  };
  const fit =
    trend &&
    fittedLine(
      { ...left, ...right }[trendKey] ?? [],
      trend.slope.perKiloIterations / 1000,
      trend.window?.from ?? 0,
      trend.window?.to ?? n,
    );
  const onRight = trendKey === 'jsheapfile';
  const maxOf = (group, extra) =>
    Math.max(
      0,
      ...Object.values(group).flatMap((r) => (r ? r.map((p) => p.at(-1)) : [])),
      ...(extra ?? []).map((p) => p[1]),
    );
  const grown = grownMemories(data);
  const grownRows = [...grown.memory, ...grown.live].flatMap((b) => b.rows);
  const yTop = maxOf(left, [...(onRight ? [] : (fit ?? [])), ...grownRows]),
    y2Top = maxOf(right, onRight ? fit : null);
  const yu = byteUnit(yTop),
    y2u = byteUnit(y2Top);
  const twoAxes = Boolean(right.jsheapfile || right.rssfile);
  // The JS heap as the finding: its axis spans its own range, not from 0,
  // so a climb of a few MiB on a 30 MiB heap shows.
  const y2Low = onRight ? Math.min(...right.jsheapfile.map((p) => p[1]), ...fit.map((p) => p[1])) : 0;
  const yt = linearTics((yTop * 1.04) / yu.div),
    y2t = linearTics((y2Top * 1.02) / y2u.div, (y2Low * 0.98) / y2u.div);
  const files = {},
    fileVars = {};
  const add = (key, list, unit) => {
    if (!list) return;
    files[`${key}.dat`] = rows(list.map(([x, ...v]) => [x / xs.div, ...v.map((y) => y / unit.div)]));
    fileVars[key] = `${key}.dat`;
  };
  for (const [key, list] of Object.entries(left)) add(key, list, yu);
  for (const [key, list] of Object.entries(right)) add(key, list, y2u);
  add('gapfile', heldFreeBand(heap, live, warmupEnd(summary, 'memory', n)), yu);
  if (fit) add('trendfile', fit, onRight ? y2u : yu);
  const scaled = (list) =>
    list.map((b) => ({ title: b.title, rows: b.rows.map(([x, v]) => [x / xs.div, v / yu.div]) }));
  if (grown.memory.length) {
    files['memories.dat'] = blocks(scaled(grown.memory));
    fileVars.memoriesfile = 'memories.dat';
  }
  if (grown.live.length) {
    files['memories-live.dat'] = blocks(scaled(grown.live));
    fileVars.memorieslivefile = 'memories-live.dat';
  }
  const grows = growthEvents(data, data.header?.ops ?? []);
  if (grows.length) {
    files['grow.dat'] = blocks(
      grows.map((g) => ({ title: g.title, rows: g.rows.map(([x, v]) => [x / xs.div, v / yu.div]) })),
    );
    fileVars.growfile = 'grow.dat';
  }
  // With two axes in one figure every tick names its unit.
  const vars = {
    title: `Memory — ${ctx.title}`,
    xlabel: xs.label,
    yunit: yu.label,
    y2unit: y2u.label,
    ymax: yt.max,
    y2min: y2t.min,
    y2max: y2t.max,
    yticlist: ticList(yt.values, twoAxes ? ` ${yu.label}` : ''),
    y2ticlist: twoAxes ? ticList(y2t.values, ` ${y2u.label}`) : '',
    warmup: warmupEnd(summary, 'memory', n) / xs.div,
    xmax: n / xs.div,
    xticlist: xTics(n / xs.div),
    ...windowVars(trend?.window ?? testedWindow(summary, (name) => name === 'memory'), xs),
    nops: grows.length,
    nmemories: grown.memory.length,
    nmemorieslive: grown.live.length,
    // Many growth markers shrink, so the lines (and the trend) stay visible.
    growsize: grows.reduce((t, g) => t + g.rows.length, 0) > 40 ? 0.7 : 1.1,
    jsheaptitle: retained ? 'worker JS heap after GC' : 'worker JS heap',
    heaptitle: `heap top (${heapSource})`,
    livetitle: `live bytes (${liveSource})`,
    censusname,
    peaktitle: band ? `peak live within calls (up to ${formatBytes(band.above)} above live)` : '',
    ...trendVars(fit && trend, trendWhat),
    trendaxes: onRight ? 'x1y2' : 'x1y1',
  };
  const drawn = [
    'linear memory',
    left.heapfile && 'heap top',
    left.livefile && 'live bytes',
    (left.censuslivefile || left.censusfreefile) &&
      (several && censusLabel ? `the heap census of memory "${censusLabel}"` : 'the heap census'),
    grown.memory.length > 0 &&
      `each memory that grew (${grown.memory.map((b) => b.title.slice('linear memory '.length)).join(', ')})`,
    grown.live.length > 0 && 'the live bytes of those the heap census recognised',
    right.jsheapfile && 'the worker JS heap (right axis)',
    right.rssfile && 'process RSS (right axis)',
  ].filter(Boolean);
  return {
    name: 'memory',
    vars,
    files,
    fileVars: {
      memfile: '',
      heapfile: '',
      livefile: '',
      peakfile: '',
      gapfile: '',
      censuslivefile: '',
      censusfreefile: '',
      censuslargestfile: '',
      jsheapfile: '',
      rssfile: '',
      growfile: '',
      memoriesfile: '',
      memorieslivefile: '',
      trendfile: '',
      ...fileVars,
    },
    desc: `Memory over ${formatCount(n)} iterations in ${yu.label}: ${drawn.join(', ')}${fit ? `; ${vars.trendnote}` : ''}.`,
  };
}

// The shadow stack's depth (the first stack pointer seen minus each one),
// with the stack-drift trend or the tested series' fit.
function stackFigure(data, summary, ctx) {
  const sp = data.metrics?.stackPointer;
  if (!sp || sp.iter.length < 2) return null;
  const n = data.calls,
    xs = ctx.x;
  const depth = Float64Array.from(sp.value, (v) => sp.value[0] - v);
  const isStack = (name) => name === 'stack-depth';
  // A depth that never changes in the calls tested is a line of text in the
  // reports (words.js stackFlatText: "flat at N B"), not an empty chart.
  const from = testedWindow(summary, isStack)?.from ?? warmupEnd(summary, 'memory', n);
  const tested = depth.filter((_, i) => sp.iter[i] >= from);
  if ((tested.length ? tested : depth).every((d, _, all) => d === all[0])) return null;
  const points = envelope(sp.iter, depth, MAX_POINTS);
  const trend = trendFor(summary, isStack, { tested: true });
  const fit =
    trend && fittedLine(points, trend.slope.perKiloIterations / 1000, trend.window?.from ?? 0, trend.window?.to ?? n);
  const top = Math.max(0, ...points.map((p) => p[1]), ...(fit ?? []).map((p) => p[1]));
  const unit = byteUnit(top),
    t = linearTics((top * 1.04) / unit.div || 1);
  const scale = (list) => list.map(([x, y]) => [x / xs.div, y / unit.div]);
  const files = { 'stack.dat': rows(scale(points)) };
  if (fit) files['stack-trend.dat'] = rows(scale(fit));
  const vars = {
    title: `Shadow stack — ${ctx.title}`,
    xlabel: xs.label,
    yunit: unit.label,
    ymax: t.max,
    yticlist: ticList(t.values),
    y2ticlist: '',
    warmup: warmupEnd(summary, 'memory', n) / xs.div,
    xmax: n / xs.div,
    xticlist: xTics(n / xs.div),
    ...windowVars(trend?.window ?? testedWindow(summary, isStack), xs),
    ...trendVars(fit && trend, 'stack depth'),
  };
  return {
    name: 'stack',
    vars,
    files,
    fileVars: { datafile: 'stack.dat', trendfile: 'stack-trend.dat' },
    desc: `Shadow stack depth over ${formatCount(n)} iterations in ${unit.label}${fit ? `; ${vars.trendnote}` : ''}.`,
  };
}

const ECDF_P = (() => {
  const p = Array.from({ length: 401 }, (_, i) => i / 400);
  return new Float64Array([...p, 0.995, 0.999, 0.9999].sort((a, b) => a - b));
})();

// Explicit tics for a log axis from lo to hi: powers of ten, with 2 and 5
// (or more steps) between them when the range spans less than two decades,

// ws_time_windows); none when the run had too few calls after warm-up.
function distributionWindows(summary, n) {
  const { early, late } = summary.time ?? {};
  if (early?.to > early?.from && late?.to > late?.from && late.to <= n) return { early, late };
  return null;
}

function distributionFigure(addon, data, summary, ctx) {
  const win = distributionWindows(summary, data.calls);
  if (!win) return null;
  const q = {};
  for (const key of ['early', 'late'])
    q[key] = addon.decimateQuantiles(data.elapsed, win[key].from, win[key].to, ECDF_P);
  const median = (arr) => arr[ECDF_P.indexOf(0.5)];
  const hiNs = Math.max(q.early.at(-1), q.late.at(-1));
  const unit = timeUnit(hiNs);
  const lo = Math.min(q.early[0], q.late[0]) / unit.div,
    hi = hiNs / unit.div;
  const files = {},
    vars = {
      title: `Time per call, early vs late after warm-up — ${ctx.title}`,
      xlabel: `time per call (${unit.label}, log scale)`,
      xmax: 0,
      warmup: 0,
      ...windowVars(null),
      yticlist: '',
      y2ticlist: '',
      xticlist: ticList(logTics(lo, hi)),
    };
  for (const key of ['early', 'late']) {
    const pts = Array.from(ECDF_P, (p, i) => [q[key][i] / unit.div, p]).filter(([x]) => x > 0 && Number.isFinite(x));
    files[`${key}.dat`] = rows(pts);
    const { from, to } = win[key];
    vars[`${key}title`] =
      `${key}: iterations ${formatCount(from * ctx.stride)}–${formatCount(to * ctx.stride)}` +
      ` (n = ${formatCount(to - from)}, median ${formatNs(median(q[key]))})`;
  }
  return {
    name: 'distribution',
    vars,
    files,
    fileVars: { earlyfile: 'early.dat', latefile: 'late.dat' },
    desc: `Fraction of calls at or below each time (log axis in ${unit.label}), ${vars.earlytitle}; ${vars.latetitle}.`,
  };
}

function opsFigure(addon, data, summary, ctx) {
  const ops = data.header?.ops ?? [];
  const n = data.calls;
  if (ops.length < 2 || n < 2) return null;
  const windows = Math.min(OP_WINDOWS, n);
  const out = addon.decimateOps(data.elapsed, data.op, 0, n, ops.length, windows);
  const medians = [];
  const perOp = ops.map((op, _k) => ({ title: op.name, rows: [] }));
  for (let w = 0; w < windows; w++) {
    const centre = (Math.floor((w * n) / windows) + Math.floor(((w + 1) * n) / windows) - 1) / 2;
    for (let k = 0; k < ops.length; k++) {
      const med = out[(w * ops.length + k) * OPS_FIELDS + OPS_CELL.median];
      if (Number.isFinite(med)) {
        perOp[k].rows.push([centre, med]);
        medians.push(med);
      }
    }
  }
  const used = perOp.filter((b) => b.rows.length);
  if (used.length < 2) return null;
  medians.sort((a, b) => a - b);
  const xs = ctx.x;
  const logy = medians[0] > 0 && medians.at(-1) / medians[0] > 50;
  const axis = timeAxis(medians[0], medians.at(-1) * (logy ? 1 : 1.05), logy);
  const unit = axis.unit;
  const files = {
    'ops.dat': blocks(used.map((b) => ({ title: b.title, rows: b.rows.map(([x, v]) => [x / xs.div, v / unit.div]) }))),
  };
  const vars = {
    title: `Median time per op (${windows} windows) — ${ctx.title}`,
    xlabel: xs.label,
    yunit: unit.label,
    logy: logy ? 1 : 0,
    ymin: axis.min,
    ymax: axis.max,
    yticlist: axis.tics,
    y2ticlist: '',
    warmup: warmupEnd(summary, 'time', n) / xs.div,
    xmax: n / xs.div,
    xticlist: xTics(n / xs.div),
    ...windowVars(testedWindow(summary, isTimeSeries), xs),
    nops: used.length,
  };
  return {
    name: 'ops',
    vars,
    files,
    fileVars: { datafile: 'ops.dat' },
    desc: `Median time of each op (${used.map((b) => b.title).join(', ')}) in ${windows} windows, in ${unit.label}.`,
  };
}

// ---- gnuplot ----

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
    const results = await pool(jobs, availableParallelism(), async (job) => {
      const out = resolve(dir, job.file);
      const r = await runGnuplot(
        gnuplot,
        join(PLOTS, `${job.spec.name}.gp`),
        { ...job.spec.vars, out, term: TERMS[job.ext], narrow: job.ext === 'narrow' ? 1 : 0 },
        { timeoutMs, signal },
      );
      if (r.ok && !(await nonEmpty(out))) Object.assign(r, { ok: false, reason: `${gnuplot} wrote no ${job.file}` });
      if (r.ok && TERMS[job.ext] === 'svg') await labelSvg(out, job.spec);
      if (!r.ok) await rm(out, { force: true });
      return { ...job, ...r };
    });
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
