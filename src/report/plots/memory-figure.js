// The memory figure: linear memory, the heap top and live bytes with the
// free memory held between them, peaks within calls, the heap census, each
// memory that grew, the JS heap and RSS, and the calls that grew memory.
import { FLAG, VERDICT_DEFAULTS } from '../../protocol.js';
import { byteUnit, formatBytes, formatCount } from '../format.js';
import { linearTics, ticList, xTics } from './axes.js';
import { blocks, envelope, rows } from './data.js';
import { BUCKETS, MAX_POINTS } from './limits.js';
import { memorySeries } from './memory-series.js';
import { fittedLine, testedWindow, trendVars, warmupEnd, windowVars } from './window.js';

/**
 * The calls among flags[0..calls) whose flags have bit, in order: read four
 * at a time (few calls grow memory, and a run may hold 10 M).
 */
function* flagged(flags, calls, bit) {
  const aligned = flags instanceof Uint8Array && flags.byteOffset % 4 === 0 ? Math.floor(calls / 4) : 0;
  const words = aligned ? new Uint32Array(flags.buffer, flags.byteOffset, aligned) : [];
  const mask = bit * 0x01010101;
  for (let w = 0; w < aligned; w++) {
    if (!(words[w] & mask)) continue;
    for (let i = 4 * w; i < 4 * w + 4; i++) if (flags[i] & bit) yield i;
  }
  for (let i = 4 * aligned; i < calls; i++) if (flags[i] & bit) yield i;
}

function growthEvents(data, ops) {
  // The C reader counted every call of a capped log: none grew, nothing to look for.
  if ((data.thinning ?? data.callTotals)?.growthEvents === 0) return [];
  const { iter, bytes } = data.memory;
  const perOp = new Map();
  let total = 0,
    j = 0;
  for (const i of flagged(data.flags, data.calls, FLAG.grew)) {
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

/**
 * The data files of the memory figure: each group's series scaled to its
 * axis's unit (left and right: { key: rows }, yu and y2u their units), the
 * held free band, the trend, each memory that grew and the growth events,
 * as { files, fileVars, grows } (grows: growthEvents' blocks).
 */
function dataFiles(data, summary, { left, right, yu, y2u, chosen, fit, xs }) {
  const files = {},
    fileVars = {};
  const add = (key, list, unit) => {
    if (!list) return;
    files[`${key}.dat`] = rows(list.map(([x, ...v]) => [x / xs.div, ...v.map((y) => y / unit.div)]));
    fileVars[key] = `${key}.dat`;
  };
  for (const [key, list] of Object.entries(left)) add(key, list, yu);
  for (const [key, list] of Object.entries(right)) add(key, list, y2u);
  add('gapfile', heldFreeBand(chosen.heap, chosen.live, warmupEnd(summary, 'memory', data.calls)), yu);
  if (fit) add('trendfile', fit, chosen.onRight ? y2u : yu);
  const scaled = (list) =>
    list.map((b) => ({ title: b.title, rows: b.rows.map(([x, v]) => [x / xs.div, v / yu.div]) }));
  const { grown } = chosen;
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
    files['grow.dat'] = blocks(scaled(grows));
    fileVars.growfile = 'grow.dat';
  }
  return { files, fileVars, grows };
}

/**
 * The memory figure's two axes: the left one's (linear memory, the heap,
 * live bytes, the census, each memory that grew) and the right one's (the
 * JS heap, RSS) units and ticks, the trend fit on the axis of the series it
 * fits. { yu, y2u, yt, y2t, twoAxes }.
 */
function axes(left, right, fit, { onRight, grown }) {
  const maxOf = (group, extra) =>
    Math.max(
      0,
      ...Object.values(group).flatMap((r) => (r ? r.map((p) => p.at(-1)) : [])),
      ...(extra ?? []).map((p) => p[1]),
    );
  const grownRows = [...grown.memory, ...grown.live].flatMap((b) => b.rows);
  const yTop = maxOf(left, [...(onRight ? [] : (fit ?? [])), ...grownRows]),
    y2Top = maxOf(right, onRight ? fit : null);
  const yu = byteUnit(yTop),
    y2u = byteUnit(y2Top);
  // A JS heap as the finding: its axis spans the range of the heaps drawn
  // there (RSS is not), not from 0, so a climb of a few MiB on a 30 MiB heap shows.
  const y2Low = onRight
    ? Math.min(...Object.values(right).flatMap((r) => (r ? r.map((p) => p[1]) : [])), ...fit.map((p) => p[1]))
    : 0;
  return {
    yu,
    y2u,
    yt: linearTics((yTop * 1.04) / yu.div),
    y2t: linearTics((y2Top * 1.02) / y2u.div, (y2Low * 0.98) / y2u.div),
    twoAxes: Object.values(right).some(Boolean),
  };
}

/** What the memory figure draws, in words, for its description (left, right: the groups drawn). */
function drawnWords(chosen, left, right) {
  const { grown } = chosen;
  return [
    'linear memory',
    left.heapfile && 'heap top',
    left.livefile && 'live bytes',
    chosen.censusTitle,
    grown.memory.length > 0 &&
      `each memory that grew (${grown.memory.map((b) => b.title.slice('linear memory '.length)).join(', ')})`,
    grown.live.length > 0 && 'the live bytes of those the heap census recognised',
    right.jsheapfile && 'the worker JS heap (right axis)',
    right.threadsheapfile && "the target's worker threads' JS heaps, summed (right axis)",
    right.rssfile && 'process RSS (right axis)',
  ].filter(Boolean);
}

// Every data file the memory figure's script names, empty when not drawn.
const NO_FILES = Object.freeze(
  Object.fromEntries(
    [
      'memfile',
      'heapfile',
      'livefile',
      'peakfile',
      'gapfile',
      'censuslivefile',
      'censusfreefile',
      'censuslargestfile',
      'jsheapfile',
      'threadsheapfile',
      'rssfile',
      'growfile',
      'memoriesfile',
      'memorieslivefile',
      'trendfile',
    ].map((k) => [k, '']),
  ),
);

/**
 * The memory figure of the decoded run and its summary (ctx: the x scale and
 * title): { name, vars, files, fileVars, desc }. The series are
 * memorySeries' choice; this draws them: thinned, on two axes, keyed and
 * described in the order gnuplot draws them.
 */
export function memoryFigure(data, summary, ctx) {
  const n = data.calls,
    mem = data.memory;
  if (n < 1 || !mem || mem.iter.length === 0) return null;
  const xs = ctx.x;
  const chosen = memorySeries(data, summary);
  const steps = Array.from(mem.iter, (x, i) => [x, mem.bytes[i]]);
  steps.push([Math.max(n - 1, steps.at(-1)[0]), steps.at(-1)[1]]);
  const series = (s) => (s?.iter.length ? envelope(s.iter, s.value, MAX_POINTS) : null);
  const band = peakBand(chosen.live, chosen.peak);
  const left = {
    memfile: steps,
    heapfile: series(chosen.heap),
    livefile: series(chosen.live),
    peakfile: band?.rows,
    censuslivefile: series(chosen.census.live),
    censusfreefile: series(chosen.census.free),
    censuslargestfile: series(chosen.census.largest),
  };
  const right = {
    jsheapfile: series(chosen.jsHeap),
    threadsheapfile: series(chosen.threadsJsHeap),
    rssfile: series(chosen.rss),
  };
  const { trend, onRight } = chosen;
  const fit =
    trend &&
    fittedLine(
      { ...left, ...right }[chosen.trendKey] ?? [],
      trend.slope.perKiloIterations / 1000,
      trend.window?.from ?? 0,
      trend.window?.to ?? n,
    );
  const { yu, y2u, yt, y2t, twoAxes } = axes(left, right, fit, chosen);
  const { files, fileVars, grows } = dataFiles(data, summary, { left, right, yu, y2u, chosen, fit, xs });
  const { censusname } = chosen;
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
    nmemories: chosen.grown.memory.length,
    nmemorieslive: chosen.grown.live.length,
    // Many growth markers shrink, so the lines (and the trend) stay visible.
    growsize: grows.reduce((t, g) => t + g.rows.length, 0) > 40 ? 0.7 : 1.1,
    jsheaptitle: chosen.retained ? 'worker JS heap after GC' : 'worker JS heap',
    heaptitle: `heap top (${chosen.heapSource})`,
    livetitle: `live bytes (${chosen.liveSource})`,
    censusname,
    censuslivetitle: chosen.census.held
      ? `live bytes with garbage awaiting the collector (${censusname})`
      : `live bytes (${censusname})`,
    peaktitle: band ? `peak live within calls (up to ${formatBytes(band.above)} above live)` : '',
    ...trendVars(fit && trend, chosen.trendWhat),
    trendaxes: onRight ? 'x1y2' : 'x1y1',
  };
  const drawn = drawnWords(chosen, left, right);
  return {
    name: 'memory',
    vars,
    files,
    fileVars: { ...NO_FILES, ...fileVars },
    desc: `Memory over ${formatCount(n)} iterations in ${yu.label}: ${drawn.join(', ')}${fit ? `; ${vars.trendnote}` : ''}.`,
  };
}
