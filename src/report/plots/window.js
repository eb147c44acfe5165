// What every figure marks of the trend tests: where the warm-up ends, the
// window a test judged (shaded), and the fitted trend with its note.
import { formatCount, slopeText } from '../format.js';

// Where the iterations excluded from the trend tests of a signal ('time',
// 'memory') end: the tested window's start, else the warm-up of the summary.
export function warmupEnd(summary, signal, n) {
  const tested = summary.series?.find((s) => s.name === signal && s.window);
  const w = tested?.window.from ?? summary.warmup?.iterations ?? summary.warmup?.[signal] ?? 0;
  return Math.max(0, Math.min(n, Math.round(w)));
}

// The window a trend test judged, for the figure showing the series that
// match: the finding's, else the tested series'. null when there is none.
export function testedWindow(summary, match) {
  const hit = summary.findings?.find((f) => match(f.series) && f.window);
  const w = hit?.window ?? summary.series?.find((s) => match(s.name) && s.tested !== false && s.window)?.window ?? null;
  return w && w.to > w.from ? w : null;
}

// The variables that shade the tested window (common.gp), in x units.
export function windowVars(w, xs) {
  if (!w) return { wfrom: 0, wto: 0, wtitle: '' };
  return {
    wfrom: w.from / xs.div,
    wto: w.to / xs.div,
    wtitle: `window tested (iterations ${formatCount(w.from)}–${formatCount(w.to)})`,
  };
}

// The fitted trend drawn in a figure: the finding on a series that match()
// accepts, else (with tested) that figure's tested series. null when there
// is none, or its slope is not finite. { ...finding or series, finding }.
export function trendFor(summary, match, { tested = false } = {}) {
  const finding = summary.findings?.find((f) => match(f.series) && f.slope);
  const found =
    finding ?? (tested ? summary.series?.find((s) => match(s.name) && s.tested !== false && s.slope) : null);
  if (!found || !Number.isFinite(found.slope.perKiloIterations)) return null;
  return { ...found, finding: Boolean(finding) };
}

// The variables naming a trend line (common.gp): a short key entry, and
// the note above the plot with what it fits and its slope with interval.
export function trendVars(trend, what) {
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
export function fittedLine(points, k, from, to) {
  const offsets = points.filter(([x, y]) => x >= from && x < to && Number.isFinite(y)).map(([x, y]) => y - k * x);
  if (offsets.length < 2) return null;
  offsets.sort((u, v) => u - v);
  const a = offsets[offsets.length >> 1];
  return [
    [from, a + k * from],
    [to, a + k * to],
  ];
}
