// The time figure: the rolling median time per call with its spread, the
// slow calls marked, and the time trend.
import { BAND, BAND_FIELDS } from '../../protocol.js';
import { formatCount, formatNs } from '../format.js';
import { isTimeSeries } from '../lead.js';
import { timeAxis, xTics } from './axes.js';
import { rows } from './data.js';
import { BUCKETS, SPIKE_GROUP } from './limits.js';
import { fittedLine, testedWindow, trendFor, trendVars, warmupEnd, windowVars } from './window.js';

/**
 * Bucket i of an addon.decimateBands result by name (first, last, min, max,
 * imax, p10, median, p90), and whether every field is finite.
 */
export function bucket(b, i) {
  const o = b.subarray(i * BAND_FIELDS, (i + 1) * BAND_FIELDS);
  const named = Object.fromEntries(Object.entries(BAND).map(([name, k]) => [name, o[k]]));
  return { ...named, finite: o.every(Number.isFinite) };
}

// The time trend's rows (x, time in unit) over its window. A slope in ln(ns)
// (a relative drift) is fitted to the log of the rolling medians and drawn
// as a curve; one in ns as a line.
function timeTrendLine(trend, all, warm, n, unit, xs) {
  const log = trend.slope.unit === 'ln(ns)';
  if (!log && !['ns', undefined].includes(trend.slope.unit)) return null;
  const k = trend.slope.perKiloIterations / 1000; // per iteration
  const from = Math.max(0, trend.window?.from ?? warm),
    to = Math.min(n, trend.window?.to ?? n);
  const points = [];
  for (const o of all) if (o.median > 0) points.push([(o.first + o.last) / 2, log ? Math.log(o.median) : o.median]);
  const ends = fittedLine(points, k, from, to);
  if (!ends) return null;
  const steps = log ? 48 : 1;
  return Array.from({ length: steps + 1 }, (_, j) => {
    const x = from + ((to - from) * j) / steps,
      y = ends[0][1] + k * (x - from);
    return [x / xs.div, (log ? Math.exp(y) : y) / unit.div];
  });
}

/**
 * The buckets of the time figure of n calls (n >= 2), and the window of
 * calls around each whose p10, median and p90 it draws (addon.decimateBands).
 */
export function bandsShape(n) {
  const buckets = Math.min(BUCKETS, n);
  return { buckets, window: Math.max(Math.ceil(n / buckets), Math.min(Math.max(25, Math.ceil(n / 100)), 5000)) };
}

// The probabilities of the time axis's range: the steady state's p1 and p99.
const RANGE_P = new Float64Array([0.01, 0.99]);

/**
 * The time axis's range of the decoded run (n >= 2 calls) and its summary:
 * a promise of its p1 and p99 after warm-up (addon.decimateQuantilesAsync,
 * on another thread), for timeFigure's range.
 */
export function timeRangeAsync(addon, data, summary) {
  const n = data.calls;
  const warm = warmupEnd(summary, 'time', n);
  return addon.decimateQuantilesAsync(data.elapsed, warm < n - 1 ? warm : 0, n, RANGE_P);
}

/**
 * The time figure of the decoded run and its summary (decimated by the
 * addon in C; ctx: the x scale and title; bands: its decimateBands result
 * when made already, else null; range: timeRangeAsync's result when made
 * already, else null): { name, vars, files, fileVars, desc }.
 * Long: the bands, the spikes, the trend and the axis, in the order gnuplot
 * draws them.
 */
export function timeFigure(addon, data, summary, ctx, bands = null, range = null) {
  const n = data.calls;
  if (n < 2) return null;
  const { buckets, window } = bandsShape(n);
  const b = bands ?? addon.decimateBands(data.elapsed, 0, n, buckets, window);
  // Each bucket named once: the loops below read them several times.
  const all = Array.from({ length: buckets }, (_, i) => bucket(b, i));
  const warm = warmupEnd(summary, 'time', n);
  // The axis's range: the steady state's p1 and p99.
  const [p1, p99] = range ?? addon.decimateQuantiles(data.elapsed, warm < n - 1 ? warm : 0, n, RANGE_P);
  const xs = ctx.x;
  let topP90 = 0,
    topMedian = 0,
    lowest = Infinity,
    highestAll = 0;
  for (const o of all) {
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
    const o = all[i];
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
  for (const o of all) {
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
  const line = trend && timeTrendLine(trend, all, warm, n, unit, xs);
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
