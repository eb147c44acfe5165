// Turns summary.json values into the words and numbers the reports show
// (HTML, Markdown, JUnit). Pure functions; no I/O.

import { formatBytes, formatCount as count, formatNs } from './format.js';

export { formatBytes, formatNs };

function trim(x, digits = 3) {
  return Number(x.toPrecision(digits)).toLocaleString('en-US', { maximumFractionDigits: 2 });
}

export function formatCount(n) {
  return Number.isFinite(n) ? count(n) : '–';
}

export function formatMs(ms) {
  if (!Number.isFinite(ms)) return '–';
  if (ms < 1000) return `${trim(ms)} ms`;
  const s = ms / 1000;
  if (s < 120) return `${trim(s)} s`;
  if (s < 7200) return `${trim(s / 60)} min`;
  if (s < 172800) return `${trim(s / 3600)} h`;
  return `${trim(s / 86400)} days`;
}

// A value with the unit a finding or series states ('bytes', 'ns', ...).
// A slope in ln(ns) is a relative change: shown as a signed percentage.
export function formatQuantity(v, unit) {
  if (unit === 'bytes') return formatBytes(v);
  if (unit === 'ns') return formatNs(v);
  if (unit === 'ln(ns)') return Number.isFinite(v) ? formatPercent(Math.expm1(v)) : '–';
  return Number.isFinite(v) ? `${trim(v)}${unit ? ` ${unit}` : ''}` : '–';
}

export function formatP(p) {
  if (!Number.isFinite(p)) return '–';
  if (p <= 0) return '< 1e-300'; // below what a double carries
  return p < 1e-4 ? p.toExponential(1) : trim(p, 2);
}

export function formatPercent(r) {
  if (!Number.isFinite(r)) return '–';
  const t = trim(r * 100, 3);
  return t === '0' || t === '-0' ? '0 %' : `${r > 0 ? '+' : ''}${t} %`;
}

const VERDICT_WORDS = {
  stable: 'stable',
  leak: 'leak',
  fragmentation: 'fragmentation',
  growth: 'memory growth',
  slowdown: 'slowdown',
  'js-heap-growth': 'JS heap growth',
};

// The banner: ok (green) only for a completed or interrupted run judged stable.
export function verdictLine(s) {
  const calls = formatCount(s.iterations?.completed ?? s.samples?.calls);
  if (s.status === 'failed') {
    const where = s.error?.iteration != null ? ` at iteration ${formatCount(s.error.iteration)}` : '';
    // A crash still leaves the calls recorded up to the last flush, judged.
    const judged = s.verdict && s.samples?.calls > 0
      ? `. On the ${formatCount(s.samples.calls)} calls recorded: ${VERDICT_WORDS[s.verdict] ?? s.verdict}` : '';
    return { ok: false, title: 'Run failed', text: `${s.error?.message ?? 'The run failed.'}${where}${judged}.`.replace(/\.\.$/, '.') };
  }
  const partial = s.status === 'interrupted' ? ' (interrupted: judged on the calls completed)' : '';
  if (!s.verdict) return { ok: false, title: 'No verdict', text: `${calls} calls; no trend analysis in this summary${partial}.` };
  const word = VERDICT_WORDS[s.verdict] ?? s.verdict;
  if (s.verdict === 'stable') {
    return { ok: true, title: 'Stable', text: `No leak, fragmentation, growth or slowdown found in ${calls} calls${partial}.` };
  }
  const first = s.findings?.[0]?.sentence ?? '';
  return { ok: false, title: word[0].toUpperCase() + word.slice(1), text: `${first}${partial}`.trim() };
}

// Label/value pairs backing a finding's sentence.
export function findingEvidence(f) {
  const rows = [];
  if (f.series) rows.push(['series', f.series]);
  if (f.window) rows.push(['window', `iterations ${formatCount(f.window.from)}–${formatCount(f.window.to)}`]);
  if (f.slope) {
    const { perKiloIterations: k, low, high, unit } = f.slope;
    const ci = Number.isFinite(low) && Number.isFinite(high)
      ? ` (95 % interval ${formatQuantity(low, unit)} to ${formatQuantity(high, unit)})` : '';
    rows.push(['slope', `${formatQuantity(k, unit)} per 1,000 calls${ci}`]);
  }
  if (f.pValue != null) rows.push(['p-value', formatP(f.pValue)]);
  if (f.effect) {
    const { relative, low, high } = f.effect;
    const ci = Number.isFinite(low) && Number.isFinite(high)
      ? ` (${formatPercent(low)} to ${formatPercent(high)})` : '';
    rows.push(['effect', `${formatPercent(relative)} over the window${ci}`]);
  }
  if (f.projection) {
    const p = f.projection;
    rows.push(['projection', `reaches ${formatBytes(p.limitBytes)} after ${formatCount(p.iterations)} calls` +
      (Number.isFinite(p.wallMs) ? ` (about ${formatMs(p.wallMs)} of running)` : '')]);
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

// Relative change of the median from the early to the late window.
export function medianChange(time) {
  const a = time?.early?.median, b = time?.late?.median;
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
