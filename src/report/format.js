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

export const formatCount = (n) => Math.round(n).toLocaleString('en-US');

/** x to `digits` significant digits, with thousands separators. */
export function trim(x, digits = 3) {
  return Number(x.toPrecision(digits)).toLocaleString('en-US', { maximumFractionDigits: 2 });
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
