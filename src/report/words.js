// Turns summary.json values into the words and numbers the reports show
// (HTML, Markdown, JUnit). Pure functions; no I/O.

import { KIND_WORDS, verdictOf } from '../analysis/verdict.js';
import { formatCount as count, formatBytes, formatMs, formatNs, formatPercent, trim } from './format.js';

export { formatBytes, formatMs, formatNs, formatPercent };

export function formatCount(n) {
  return Number.isFinite(n) ? count(n) : '–';
}

// A value with the unit a finding or series states ('bytes', 'ns', ...).
// A slope in ln(ns) is a relative change: shown as a signed percentage.
function formatQuantity(v, unit) {
  if (unit === 'bytes') return formatBytes(v);
  if (unit === 'ns') return formatNs(v);
  if (unit === 'ln(ns)') return Number.isFinite(v) ? formatPercent(Math.expm1(v)) : '–';
  return Number.isFinite(v) ? `${trim(v)}${unit ? ` ${unit}` : ''}` : '–';
}

function formatP(p) {
  if (!Number.isFinite(p)) return '–';
  if (p <= 0) return '< 1e-300'; // below what a double carries
  return p < 1e-4 ? p.toExponential(1) : trim(p, 2);
}

// The banner: ok (green) only for a completed or interrupted run judged stable.
export function verdictLine(s) {
  const calls = formatCount(s.iterations?.completed ?? s.samples?.calls);
  if (s.status === 'failed') {
    // A crash still leaves the calls recorded up to the last flush, judged
    // (the verdict of the run is "error"; the findings judge those calls).
    const judged =
      s.findings && s.samples?.calls > 0
        ? `. On the ${formatCount(s.samples.calls)} calls recorded: ${KIND_WORDS[verdictOf(s.findings)]}`
        : '';
    return {
      ok: false,
      title: 'Run failed',
      text: `${s.error ? `Failed ${describeFailure(s.error)}` : 'The run failed'}${judged}.`.replace(/\.\.$/, '.'),
    };
  }
  const partial = s.status === 'interrupted' ? ' (interrupted: judged on the calls completed)' : '';
  if (!s.verdict)
    return { ok: false, title: 'No verdict', text: `${calls} calls; no trend analysis in this summary${partial}.` };
  const word = KIND_WORDS[s.verdict] ?? s.verdict;
  if (s.verdict === 'stable') {
    return {
      ok: true,
      title: 'Stable',
      text: `No leak, fragmentation, growth or slowdown found in ${calls} calls${partial}.`,
    };
  }
  const first = s.findings?.[0]?.sentence ?? '';
  return { ok: false, title: word[0].toUpperCase() + word.slice(1), text: `${first}${partial}`.trim() };
}

/** The tool and version that wrote the summary: "wasm-soak 0.1.0". */
export const toolName = (s) => `${s.tool?.name ?? 'wasm-soak'} ${s.tool?.version ?? '(version unknown)'}`.trim();

/**
 * Where and why a failed run failed, from summary.error: "at iteration 500
 * (op step): unreachable", "in stats near iteration 999: …".
 */
export function describeFailure(e) {
  if (!e) return 'the run failed';
  const at = e.iteration != null ? `iteration ${e.iteration}${e.op != null ? ` (op ${e.op})` : ''}` : null;
  const where = e.phase === 'iteration' && at ? `at ${at}` : `in ${e.phase ?? 'the run'}${at ? ` near ${at}` : ''}`;
  return `${where}: ${e.message}`;
}

// Label/value pairs backing a finding's sentence.
export function findingEvidence(f) {
  const rows = [];
  if (f.series) rows.push(['series', f.series]);
  // A budget finding is about one call: its iteration and op, not a window.
  if (f.iteration != null)
    rows.push(['call', `iteration ${formatCount(f.iteration)}${f.op != null ? ` (op ${f.op})` : ''}`]);
  else if (f.op != null) rows.push(['op', f.op]);
  if (f.window && !(f.iteration != null && f.window.to - f.window.from <= 1)) {
    rows.push(['window', `iterations ${formatCount(f.window.from)}–${formatCount(f.window.to)}`]);
  }
  if (f.value != null) {
    const bytes = f.series === 'bytes-per-call';
    const amount = (v) =>
      bytes ? formatBytes(v) : `${formatCount(v)} ${f.series === 'allocs-per-call' ? 'allocations' : ''}`.trim();
    rows.push(['value', `${amount(f.value)}${f.limit != null ? ` (budget ${amount(f.limit)} per call)` : ''}`]);
  }
  if (f.slope) {
    const { perKiloIterations: k, low, high, unit } = f.slope;
    const ci =
      Number.isFinite(low) && Number.isFinite(high)
        ? ` (95 % interval ${formatQuantity(low, unit)} to ${formatQuantity(high, unit)})`
        : '';
    rows.push(['slope', `${formatQuantity(k, unit)} per 1,000 calls${ci}`]);
  }
  if (f.pValue != null) rows.push(['p-value', formatP(f.pValue)]);
  if (f.effect) {
    const { relative, low, high } = f.effect;
    const ci =
      Number.isFinite(low) && Number.isFinite(high) ? ` (${formatPercent(low)} to ${formatPercent(high)})` : '';
    rows.push(['effect', `${formatPercent(relative)} over the window${ci}`]);
  }
  if (f.projection) {
    const p = f.projection;
    rows.push([
      'projection',
      `reaches ${formatBytes(p.limitBytes)} after ${formatCount(p.iterations)} calls` +
        (Number.isFinite(p.wallMs) ? ` (about ${formatMs(p.wallMs)} of running)` : ''),
    ]);
  }
  return rows;
}

// Rows of the per-op table: all ops together first, then each op.
export function opRows(s) {
  const rows = [];
  if (s.time) rows.push({ name: 'all ops', count: s.samples?.calls, threw: null, time: s.time });
  for (const op of s.ops ?? []) rows.push({ name: op.name, count: op.count, threw: op.threw, time: op.time });
  return rows;
}

// ---- inside the allocator (summary.sources, .allocations, .growthAttribution) ----

// A count that may be an interpolated quantile (2, 2.5, 3,335.2).
export function formatAllocs(v) {
  return Number.isFinite(v) ? trim(v, 4) : '–';
}

const SOURCE_LABELS = [
  ['heapTop', 'heap top'],
  ['allocator', 'allocator statistics'],
  ['stackPointer', 'stack pointer'],
];

// Entry points the counting pass instrumented, per module ([[names], ...]).
export function instrumentedText(list) {
  if (!Array.isArray(list) || !list.length) return 'none';
  const mods = list.map(
    (names, i) => `${list.length > 1 ? `module ${i + 1}: ` : ''}${names?.length ? names.join(', ') : 'none'}`,
  );
  return mods.join('; ');
}

// Rows { what, found, source, enable } of the sources table: each automatic
// source (found or what would enable it), where live bytes come from, and the
// counting pass. [] when the summary has no sources.
export function sourceRows(s) {
  const src = s.sources;
  if (!src) return [];
  const rows = SOURCE_LABELS.filter(([k]) => src[k]).map(([k, what]) => ({
    what,
    found: src[k].source != null,
    source: src[k].source ?? null,
    enable: src[k].source == null ? (src[k].enable ?? null) : null,
  }));
  rows.push({
    what: 'live bytes',
    found: src.liveBytes != null,
    source: src.liveBytes ?? null,
    enable:
      src.liveBytes == null
        ? 'a scenario stats() returning liveBytes, an allocator with statistics (above), or --count-allocs'
        : null,
  });
  const cp = src.countingPass;
  if (cp) {
    const parts = [cp.status, `instrumented ${instrumentedText(cp.instrumented)}`];
    if (cp.error) parts.push(`error${cp.error.phase ? ` (${cp.error.phase})` : ''}: ${cp.error.message}`);
    rows.push({
      what: 'counting pass',
      found: cp.status !== 'failed',
      source: parts.join('; '),
      enable: cp.note ?? null,
    });
  } else {
    rows.push({
      what: 'counting pass',
      found: false,
      source: null,
      enable: 'run with --count-allocs (a second, instrumented pass with the same seed)',
    });
  }
  return rows;
}

// Rows of the per-op allocation table: all ops first (when more than one op),
// then each op. timed: { median, ops: { name: median } } of the timed pass
// (report.js reads it from the log), or null.
export function allocationRows(s, timed = null) {
  const a = s.allocations;
  if (!a) return [];
  const ops = a.ops ?? [];
  const row = (name, x, leftBehind, countMedian, timedMedian) => ({
    name,
    calls: x.calls,
    allocs: x.allocs ?? {},
    frees: x.frees?.total ?? null,
    bytes: x.bytes ?? {},
    liveLeftBehind: leftBehind,
    countMedianNs: countMedian ?? null,
    timedMedianNs: timedMedian ?? null,
  });
  const rows = [];
  if (ops.length !== 1) {
    const frees = ops.reduce((t, o) => t + (o.frees?.total ?? 0), 0);
    const left =
      a.live && Number.isFinite(a.live.end) && Number.isFinite(a.live.start) ? a.live.end - a.live.start : null;
    rows.push(row('all ops', { ...a, frees: { total: frees } }, left, a.timeMedianNs, timed?.median));
  }
  for (const o of ops) {
    const count = o.timeMedianNs ?? (ops.length === 1 ? a.timeMedianNs : null);
    rows.push(
      row(o.name, o, o.liveLeftBehind, count, timed?.ops?.[o.name] ?? (ops.length === 1 ? timed?.median : null)),
    );
  }
  return rows;
}

// Rows of the growth attribution table, ops that grew memory or left live
// bytes behind first.
export function growthRows(s) {
  const list = s.growthAttribution ?? [];
  return [...list].sort(
    (x, y) => (y.grownBytes ?? 0) - (x.grownBytes ?? 0) || (y.liveLeftBehind ?? 0) - (x.liveLeftBehind ?? 0),
  );
}

// Relative change of the median from the early to the late window.
export function medianChange(time) {
  const a = time?.early?.median,
    b = time?.late?.median;
  return Number.isFinite(a) && Number.isFinite(b) && a > 0 ? (b - a) / a : NaN;
}

function shellQuote(arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${String(arg).replace(/'/g, `'\\''`)}'`;
}

export function reproduceCommand(s) {
  if (s.reproduce) return s.reproduce;
  return Array.isArray(s.command) ? s.command.map(shellQuote).join(' ') : '';
}

export function figureTitle(s) {
  return `${s.name ?? 'wasm-soak'}${s.seed != null ? ` (seed ${s.seed})` : ''}`;
}
