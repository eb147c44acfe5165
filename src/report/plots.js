// Figures of a run. Decimates the decoded run in C (addon/ws_decimate.c),
// writes gnuplot data files into a temporary folder, runs plots/<figure>.gp
// once per figure and format, and reports what it made or why it could not.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FLAG } from '../protocol.js';
import { figureTitle, formatBytes, formatCount, formatNs } from './words.js';

const PLOTS = fileURLToPath(new URL('../../plots', import.meta.url));
const TERMS = { png: 'pngcairo', svg: 'svg' };
const BUCKETS = 1000; // about one per pixel of the plot area
const OP_WINDOWS = 60;
const MAX_POINTS = 3000;
const SPIKE_GROUP = 5; // buckets per spike marker at most // per slow-cadence series and for growth markers
const GNUPLOT_TIMEOUT_MS = 60_000; // the default of --plot-timeout
export const INSTALL_HINT = 'apt-get install gnuplot-nox';

// ---- units and scales ----

// The unit for an axis whose largest value is ns.
function timeUnit(ns) {
  if (ns < 1e4) return { div: 1, label: 'ns' };
  if (ns < 1e7) return { div: 1e3, label: 'µs' };
  return { div: 1e6, label: 'ms' };
}

function byteUnit(max) {
  const units = [
    ['bytes', 1],
    ['KiB', 2 ** 10],
    ['MiB', 2 ** 20],
    ['GiB', 2 ** 30],
  ];
  let pick = units[0];
  for (const u of units) if (max >= 4 * u[1]) pick = u;
  return { label: pick[0], div: pick[1] };
}

function iterScale(n) {
  if (n >= 2e6) return { div: 1e6, label: 'iteration (millions)' };
  if (n >= 2e4) return { div: 1e3, label: 'iteration (thousands)' };
  return { div: 1, label: 'iteration' };
}

// Where the iterations excluded from the trend tests of a signal ('time',
// 'memory') end: the tested window's start, else the warm-up of the summary.
function warmupEnd(summary, signal, n) {
  const tested = summary.series?.find((s) => s.name === signal && s.window);
  const w = tested?.window.from ?? summary.warmup?.iterations ?? summary.warmup?.[signal] ?? 0;
  return Math.max(0, Math.min(n, Math.round(w)));
}

const trim = (x) => Number(x.toPrecision(3)).toLocaleString('en-US', { maximumFractionDigits: 3 });
const percent = (r) => {
  const t = trim(Math.abs(r) * 100);
  return t === '0' ? '0 %' : `${r > 0 ? '+' : '−'}${t} %`;
};

// ---- data files ----

const num = (v) => (Number.isInteger(v) ? String(v) : v.toPrecision(7));
const rows = (list) => `${list.map((r) => r.map(num).join(' ')).join('\n')}\n`;
const quoted = (s) => `"${String(s).replace(/["\r\n]/g, "'")}"`;
// gnuplot data blocks with a quoted header line each, read with `index i`
// and `title columnheader(1)`.
const blocks = (list) => list.map((b) => `${quoted(b.title)}\n${rows(b.rows)}`).join('\n\n');

// Keeps the min and max of each of `max / 2` buckets, in order, so a slow
// series of any length plots fast without losing its extremes. Rows are
// [x, value], or [x, value, top] with `upper` (same length): top is the
// highest upper of the row's bucket (its own upper when nothing is thinned),
// so a band drawn from value to top loses no peak and sits on the line.
function envelope(iter, value, max, upper = null) {
  const n = iter.length;
  const row = (i, top) => (upper ? [iter[i], value[i], top] : [iter[i], value[i]]);
  if (n <= max) return Array.from(iter, (_x, i) => row(i, upper?.[i]));
  const out = [],
    buckets = Math.floor(max / 2);
  for (let b = 0; b < buckets; b++) {
    const lo = Math.floor((b * n) / buckets),
      hi = Math.floor(((b + 1) * n) / buckets);
    let imin = lo,
      imax = lo,
      top = -Infinity;
    for (let i = lo; i < hi; i++) {
      if (value[i] < value[imin]) imin = i;
      if (value[i] > value[imax]) imax = i;
      if (upper) top = Math.max(top, upper[i]);
    }
    for (const i of imin <= imax ? [imin, imax] : [imax, imin]) out.push(row(i, top));
  }
  return out;
}

// ---- figures: each returns { name, vars, files } or null when not applicable ----

// The fitted trend of time per call: the slowdown finding, else the tested
// 'time' series. Its slope is in ln(ns) per 1,000 calls (a relative drift),
// or in ns for a linear fit.
function timeTrend(summary) {
  const isTime = (name) => typeof name === 'string' && name.startsWith('time');
  const finding = summary.findings?.find((f) => isTime(f.series) && f.slope);
  const found = finding ?? summary.series?.find((s) => isTime(s.name ?? s.series) && s.tested !== false && s.slope);
  const unit = found?.slope.unit;
  if (!found || !Number.isFinite(found.slope.perKiloIterations) || !['ns', 'ln(ns)', undefined].includes(unit))
    return null;
  return { ...found, log: unit === 'ln(ns)', finding: Boolean(finding) };
}

// The trend line's rows (x, time in unit) over its window and its key entry.
// The intercept is the median offset of the rolling medians from the slope.
function trendLine(trend, b, buckets, warm, n, unit, xs) {
  const k = trend.slope.perKiloIterations / 1000; // per iteration
  const from = Math.max(0, trend.window?.from ?? warm),
    to = Math.min(n, trend.window?.to ?? n);
  const f = trend.log ? Math.log : (v) => v;
  const offsets = [];
  for (let i = 0; i < buckets; i++) {
    const x = (b[i * 8] + b[i * 8 + 1]) / 2,
      med = b[i * 8 + 6];
    if (x >= from && x < to && med > 0 && Number.isFinite(med)) offsets.push(f(med) - k * x);
  }
  if (offsets.length < 2) return null;
  offsets.sort((u, v) => u - v);
  const a = offsets[offsets.length >> 1];
  const steps = trend.log ? 48 : 1;
  const line = Array.from({ length: steps + 1 }, (_, j) => {
    const x = from + ((to - from) * j) / steps,
      y = a + k * x;
    return [x / xs.div, (trend.log ? Math.exp(y) : y) / unit.div];
  });
  const { perKiloIterations: s, low, high } = trend.slope.shown ?? trend.slope;
  const both = Number.isFinite(low) && Number.isFinite(high);
  let text;
  if (trend.log) {
    const rel = (v) => percent(Math.expm1(v));
    text = `${rel(s)} per 1,000 calls${both ? ` (95 %: ${rel(low)} to ${rel(high)})` : ''}`;
  } else {
    const abs = (v) => `${v >= 0 ? '+' : '−'}${formatNs(Math.abs(v))}`;
    text = `${abs(s)} per 1,000 calls${both ? ` (95 %: ${abs(low)} to ${abs(high)})` : ''}`;
  }
  return { line, title: `${trend.finding ? 'trend' : 'fitted trend (no finding)'} ${text}` };
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
    topMedian = 0;
  for (let i = 0; i < buckets; i++) {
    const o = b.subarray(i * 8, i * 8 + 8); // WS_BAND_* fields
    if (!o.every(Number.isFinite)) continue;
    if (o[0] >= warm) topP90 = Math.max(topP90, o[7]);
    topMedian = Math.max(topMedian, o[6]);
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
    if (b[i * 8] < warm) continue;
    after++;
    const max = b[i * 8 + 3];
    if (!(max > top)) continue;
    clipped++;
    highest = Math.max(highest, max);
    const group = Math.floor(i / SPIKE_GROUP),
      last = spikes.at(-1);
    if (last && last.group === group) {
      if (max > last.max) Object.assign(last, { max, at: b[i * 8 + 4] });
    } else spikes.push({ group, max, at: b[i * 8 + 4] });
  }
  // Log y when the spread calls for it: a wide body, or a linear axis that
  // would clip the slowest call of more than a tenth of the buckets.
  const logy = p1 > 0 && (p99 / p1 > 50 || clipped > 0.1 * after);
  const unit = timeUnit(logy ? p99 : top);
  const bucketRows = [];
  for (let i = 0; i < buckets; i++) {
    const o = b.subarray(i * 8, i * 8 + 8);
    if (!o.every(Number.isFinite)) continue;
    bucketRows.push([(o[0] + o[1]) / 2 / xs.div, ...[o[2], o[3], o[5], o[6], o[7]].map((v) => v / unit.div)]);
  }
  const files = { 'time.dat': rows(bucketRows) };
  const vars = {
    title: `Time per call — ${ctx.title}`,
    xlabel: xs.label,
    yunit: unit.label,
    warmup: warm / xs.div,
    xmax: n / xs.div,
    logy: logy ? 1 : 0,
    ymax: top > 0 ? top / unit.div : 1,
    trendtitle: '',
    trendcolor: '#d62728',
    spiketitle: '',
  };
  if (!logy && spikes.length) {
    files['time-spikes.dat'] = rows(spikes.map((s) => [s.at / xs.div, vars.ymax]));
    vars.spiketitle = `spikes above the axis after warm-up (highest ${formatNs(highest)})`;
  }
  const trend = timeTrend(summary);
  const fit = trend && trendLine(trend, b, buckets, warm, n, unit, xs);
  if (fit) {
    files['time-trend.dat'] = rows(fit.line);
    vars.trendtitle = fit.title;
    if (!trend.finding) vars.trendcolor = '#555555';
  }
  return {
    name: 'time',
    vars,
    files,
    fileVars: { datafile: 'time.dat', trendfile: 'time-trend.dat', spikefile: 'time-spikes.dat' },
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

// Heap top and live bytes: rows x, live, heap for the shaded gap between
// them (free memory the heap holds: the fragmentation signal), thinned to
// MAX_POINTS rows. At each heap sample, live bytes are the last live sample
// at or before it, so live bytes from another pass (the counting pass, same
// seed and calls) or another cadence still line up with the heap.
function heapGap(heap, live) {
  if (!heap?.iter.length || !live?.iter.length) return null;
  const stride = Math.max(1, Math.ceil(heap.iter.length / MAX_POINTS)),
    out = [];
  let j = -1;
  for (let i = 0; i < heap.iter.length; i += stride) {
    while (j + 1 < live.iter.length && live.iter[j + 1] <= heap.iter[i]) j++;
    if (j >= 0) out.push([heap.iter[i], live.value[j], heap.value[i]]);
  }
  return out.length ? out : null;
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
  const short = (t) => String(t).split(' (')[0]; // 'mallinfo (uordblks, …)' → 'mallinfo'
  const allocator = short(summary.sources?.allocator?.source ?? 'allocator');
  const fromAllocator = (series, own) => series === own || (series && own && series.value === own.value);
  let liveSource = 'stats()';
  if (fromAllocator(live, m.allocatorLive)) liveSource = allocator;
  else if (summary.sources?.liveBytes) liveSource = short(summary.sources.liveBytes);
  const heapSource = fromAllocator(heap, m.allocatorHeap) ? allocator : 'stats()';
  const band = peakBand(live, m.livePeak);
  const left = { memfile: steps, heapfile: series(heap), livefile: series(live), peakfile: band?.rows };
  // The JS heap retained after full GCs is what the js-heap trend tests;
  // the raw heap (with its GC sawtooth) only when that is missing.
  const retained = m.jsHeapAfterGC?.iter.length > 0;
  const right = { jsheapfile: series(retained ? m.jsHeapAfterGC : m.jsHeap), rssfile: series(m.rss) };
  const maxOf = (group) => Math.max(0, ...Object.values(group).flatMap((r) => (r ? r.map((p) => p.at(-1)) : [])));
  const yu = byteUnit(maxOf(left)),
    y2u = byteUnit(maxOf(right));
  const files = {},
    fileVars = {};
  const add = (key, list, unit) => {
    if (!list) return;
    files[`${key}.dat`] = rows(list.map(([x, ...v]) => [x / xs.div, ...v.map((y) => y / unit.div)]));
    fileVars[key] = `${key}.dat`;
  };
  for (const [key, list] of Object.entries(left)) add(key, list, yu);
  for (const [key, list] of Object.entries(right)) add(key, list, y2u);
  add('gapfile', heapGap(heap, live), yu);
  const grows = growthEvents(data, data.header?.ops ?? []);
  if (grows.length) {
    files['grow.dat'] = blocks(
      grows.map((g) => ({ title: g.title, rows: g.rows.map(([x, v]) => [x / xs.div, v / yu.div]) })),
    );
    fileVars.growfile = 'grow.dat';
  }
  const vars = {
    title: `Memory — ${ctx.title}`,
    xlabel: xs.label,
    yunit: yu.label,
    y2unit: y2u.label,
    warmup: warmupEnd(summary, 'memory', n) / xs.div,
    xmax: n / xs.div,
    nops: grows.length,
    jsheaptitle: retained ? 'worker JS heap after GC' : 'worker JS heap',
    heaptitle: `heap top (${heapSource})`,
    livetitle: `live bytes (${liveSource})`,
    peaktitle: band ? `peak live within calls (up to ${formatBytes(band.above)} above live)` : '',
  };
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
      jsheapfile: '',
      rssfile: '',
      growfile: '',
      ...fileVars,
    },
  };
}

const ECDF_P = (() => {
  const p = Array.from({ length: 401 }, (_, i) => i / 400);
  return new Float64Array([...p, 0.995, 0.999, 0.9999].sort((a, b) => a - b));
})();

// Explicit tics for a log axis from lo to hi: powers of ten, with 2 and 5
// (or more steps) between them when the range spans less than two decades,
// as a gnuplot tic list ('("2" 2, "5" 5, ...)'), or '' for gnuplot's own.
function logTics(lo, hi) {
  if (!(lo > 0) || !(hi > lo)) return '';
  const steps = [[1], [1, 2, 5], [1, 1.5, 2, 3, 5, 7]];
  for (const mant of hi / lo >= 100 ? steps : steps.slice(1)) {
    const tics = [];
    for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
      for (const m of mant) {
        const v = m * 10 ** e;
        if (v >= lo && v <= hi) tics.push(Number(v.toPrecision(3)));
      }
    }
    if (tics.length >= 4 && tics.length <= 14) {
      return `(${tics.map((v) => `"${v.toLocaleString('en-US', { maximumFractionDigits: 6 })}" ${v}`).join(', ')})`;
    }
  }
  return '';
}

// The early and late windows are the summary's (one definition, in C:
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
  const at = (arr, p) => arr[ECDF_P.indexOf(p)];
  const unit = timeUnit(Math.max(at(q.early, 0.99), at(q.late, 0.99)));
  const lo = Math.min(q.early[0], q.late[0]) / unit.div,
    hi = Math.max(q.early.at(-1), q.late.at(-1)) / unit.div;
  const files = {},
    vars = {
      title: `Time per call, early vs late after warm-up — ${ctx.title}`,
      xunit: unit.label,
      xticlist: logTics(lo, hi),
    };
  for (const key of ['early', 'late']) {
    const pts = Array.from(ECDF_P, (p, i) => [q[key][i] / unit.div, p]).filter(([x]) => x > 0 && Number.isFinite(x));
    files[`${key}.dat`] = rows(pts);
    const { from, to } = win[key];
    vars[`${key}title`] =
      `${key}: iterations ${formatCount(from * ctx.stride)}–${formatCount(to * ctx.stride)}` +
      ` (n = ${formatCount(to - from)}, median ${formatNs(median(q[key]))})`;
  }
  return { name: 'distribution', vars, files, fileVars: { earlyfile: 'early.dat', latefile: 'late.dat' } };
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
      const med = out[(w * ops.length + k) * 3];
      if (Number.isFinite(med)) {
        perOp[k].rows.push([centre, med]);
        medians.push(med);
      }
    }
  }
  const used = perOp.filter((b) => b.rows.length);
  if (used.length < 2) return null;
  medians.sort((a, b) => a - b);
  const unit = timeUnit(medians.at(-1));
  const xs = ctx.x;
  const logy = medians[0] > 0 && medians.at(-1) / medians[0] > 50;
  const files = {
    'ops.dat': blocks(used.map((b) => ({ title: b.title, rows: b.rows.map(([x, v]) => [x / xs.div, v / unit.div]) }))),
  };
  const vars = {
    title: `Median time per op (${windows} windows) — ${ctx.title}`,
    xlabel: xs.label,
    yunit: unit.label,
    logy: logy ? 1 : 0,
    warmup: warmupEnd(summary, 'time', n) / xs.div,
    xmax: n / xs.div,
    nops: used.length,
  };
  return { name: 'ops', vars, files, fileVars: { datafile: 'ops.dat' } };
}

// ---- gnuplot ----

function assignments(vars) {
  return Object.entries(vars)
    .map(([k, v]) => {
      if (typeof v === 'number') return `${k}=${Number.isFinite(v) ? num(v) : 0}`;
      return `${k}='${String(v)
        .replace(/[\r\n]+/g, ' ')
        .replace(/'/g, "''")}'`;
    })
    .join('; ');
}

// Runs one gnuplot script; resolves { ok, reason, stderr } and never rejects.
// gnuplot runs in its own process group, so that a timeout (timeoutMs, 0:
// none) or an aborted signal ends it and anything it started; the promise
// then resolves at once, without waiting for pipes a child may hold open.
function runGnuplot(bin, script, vars, { timeoutMs = GNUPLOT_TIMEOUT_MS, signal } = {}) {
  return new Promise((resolve) => {
    let stderr = '',
      settled = false,
      timer = null;
    let child;
    const kill = () => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const done = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve({ stderr, ...result });
    };
    const onAbort = () => {
      kill();
      done({ ok: false, interrupted: true, reason: 'skipped: interrupted' });
    };
    if (signal?.aborted) return done({ ok: false, interrupted: true, reason: 'skipped: interrupted' });
    child = spawn(bin, ['-e', assignments(vars), script], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    if (timeoutMs > 0)
      timer = setTimeout(() => {
        kill();
        child.stderr.destroy();
        done({
          ok: false,
          timedOut: true,
          reason: `${bin} did not finish within ${Number((timeoutMs / 1000).toPrecision(3))} s (--plot-timeout)`,
        });
      }, timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', (err) => {
      done({ ok: false, missing: err.code === 'ENOENT', reason: `cannot run ${bin}: ${err.message}` });
    });
    child.on('close', (code, sig) => {
      done(
        code === 0
          ? { ok: true }
          : {
              ok: false,
              reason: `${bin} exited with ${sig ?? `status ${code}`}: ${stderr.trim().split('\n').at(-1) ?? ''}`,
            },
      );
    });
  });
}

async function pool(jobs, limit, fn) {
  const results = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await fn(jobs[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  return results;
}

async function nonEmpty(path) {
  try {
    return (await stat(path)).size > 0;
  } catch {
    return false;
  }
}

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
    const jobs = specs.flatMap((spec) => exts.map((ext) => ({ spec, file: `${spec.name}.${ext}`, ext })));
    const results = await pool(jobs, availableParallelism(), async (job) => {
      const out = join(dir, job.file);
      const r = await runGnuplot(
        gnuplot,
        join(PLOTS, `${job.spec.name}.gp`),
        { ...job.spec.vars, out, term: TERMS[job.ext] },
        { timeoutMs, signal },
      );
      if (r.ok && !(await nonEmpty(out))) Object.assign(r, { ok: false, reason: `${gnuplot} wrote no ${job.file}` });
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
