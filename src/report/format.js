// Human-readable numbers for progress lines, sentences and reports.

export function formatBytes(n) {
  if (!Number.isFinite(n)) return 'n/a';
  const sign = n < 0 ? '-' : '';
  let x = Math.abs(n);
  for (const unit of ['B', 'KiB', 'MiB', 'GiB']) {
    if (x < 1024 || unit === 'GiB') return `${sign}${unit === 'B' ? x.toFixed(0) : x.toFixed(1)} ${unit}`;
    x /= 1024;
  }
  return `${n} B`;
}

export function formatNs(ns) {
  if (!Number.isFinite(ns)) return 'n/a';
  if (ns < 1e3) return `${ns.toFixed(0)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toFixed(2)} µs`;
  if (ns < 1e9) return `${(ns / 1e6).toFixed(2)} ms`;
  return `${(ns / 1e9).toFixed(2)} s`;
}

export function formatDuration(ms) {
  if (!Number.isFinite(ms) || ms < 0) return '--:--';
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

export function formatRate(perSecond) {
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(2)}M`;
  if (perSecond >= 1e3) return `${(perSecond / 1e3).toFixed(1)}k`;
  return perSecond.toFixed(0);
}

// Formatters made once: toLocaleString with options builds a new one at every
// call (about 0.1 ms each, over a second for a figure's thousands of labels).
// Each is made at its first use, not when this module loads: the first loads
// the locale data (10 ms), which `report` spends while its log decodes.
const once = (make) => {
  let made = null;
  return () => (made ??= make());
};
const COUNT = once(() => new Intl.NumberFormat('en-US'));
const TRIMMED = once(() => new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }));
const TICK = once(() => new Intl.NumberFormat('en-US', { maximumSignificantDigits: 6 }));

/** A count with thousands separators ("1,200"), rounded; '–' for a value that is not a number. */
export const formatCount = (n) => (Number.isFinite(n) ? COUNT().format(Math.round(n)) : '–');

/** n things: `1 import`, `1,200 growth events`. */
export const plural = (n, word) => `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;

/** x to `digits` significant digits, with thousands separators. */
export function trim(x, digits = 3) {
  return TRIMMED().format(Number(x.toPrecision(digits)));
}

/** A duration in words: "850 ms", "42 s", "40 min", "3 h", "2 days". */
export function formatMs(ms) {
  if (!Number.isFinite(ms)) return '–';
  if (ms < 1000) return `${trim(ms)} ms`;
  const s = ms / 1000;
  if (s < 120) return `${trim(s)} s`;
  if (s < 7200) return `${trim(s / 60)} min`;
  if (s < 172800) return `${trim(s / 3600)} h`;
  return `${trim(s / 86400)} days`;
}

/** A signed relative change: "+6.2 %", "-0.4 %", "0 %". */
export function formatPercent(r) {
  if (!Number.isFinite(r)) return '–';
  const t = trim(r * 100, 3);
  return t === '0' || t === '-0' ? '0 %' : `${r > 0 ? '+' : ''}${t} %`;
}

/**
 * A p-value: "< 1e-16" below what a double's distance from 1 can tell (a
 * tail that rounds to 0 is not 0), "3.2e-7" when small, else two
 * significant digits ("0.0043", "0.27").
 */
export function formatP(p) {
  if (!Number.isFinite(p)) return '–';
  if (p < 1e-16) return '< 1e-16';
  // Two significant digits, never rounded to 0 by a fixed number of decimals.
  return p < 1e-4 ? p.toExponential(1) : String(Number(p.toPrecision(2)));
}

/** A tick label: up to six significant digits, thousands separated ("0.25", "2,500"). */
export function formatTick(v) {
  return TICK().format(Number(v.toPrecision(6)));
}

/**
 * The unit for an axis of times whose top is `ns`: the largest of ns, µs, ms
 * and s in which the top stays below 10,000 ({ div, label }), so no tick is
 * written in raw nanoseconds past 10,000.
 */
export function timeUnit(ns) {
  if (!(ns >= 1e4)) return { div: 1, label: 'ns' };
  if (ns < 1e7) return { div: 1e3, label: 'µs' };
  if (ns < 1e10) return { div: 1e6, label: 'ms' };
  return { div: 1e9, label: 's' };
}

/** The unit for an axis of bytes whose top is `max`: bytes, KiB, MiB or GiB, the top at least 4 of it. */
export function byteUnit(max) {
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

/** A gate's tolerance ({ relative, absolute }) in words: "20 % and 1.0 MiB", "10 allocations"; bytes: absolute is bytes. */
export function formatTolerance(tol, bytes) {
  const parts = [];
  if (tol.relative !== null) parts.push(`${+(tol.relative * 100).toFixed(2)} %`);
  if (tol.absolute !== null)
    parts.push(bytes ? formatBytes(tol.absolute) : `${tol.absolute} allocation${tol.absolute === 1 ? '' : 's'}`);
  return parts.join(' and ');
}

// A value with the unit a finding or series states ('bytes', 'ns', ...).
// A slope in ln(ns) is a relative change: shown as a signed percentage.
function formatQuantity(v, unit) {
  if (unit === 'bytes') return formatBytes(v);
  if (unit === 'ns') return formatNs(v);
  if (unit === 'ln(ns)') return Number.isFinite(v) ? formatPercent(Math.expm1(v)) : '–';
  return Number.isFinite(v) ? `${trim(v)}${unit ? ` ${unit}` : ''}` : '–';
}

/** A trend's slope with its interval: "34.4 KiB per 1,000 calls (95 % interval 33.0 KiB to 35.9 KiB)". */
export function slopeText({ perKiloIterations: k, low, high, unit }) {
  const ci =
    Number.isFinite(low) && Number.isFinite(high)
      ? ` (95 % interval ${formatQuantity(low, unit)} to ${formatQuantity(high, unit)})`
      : '';
  return `${formatQuantity(k, unit)} per 1,000 calls${ci}`;
}

// A count that may be an interpolated quantile (2, 2.5, 3,335.2).
export function formatAllocs(v) {
  return Number.isFinite(v) ? trim(v, 4) : '–';
}
