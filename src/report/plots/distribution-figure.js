// The distribution figure: the time per call of the early and late
// windows as empirical distributions.
import { formatCount, formatNs, timeUnit } from '../format.js';
import { logTics, ticList } from './axes.js';
import { rows } from './data.js';
import { windowVars } from './window.js';

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

/**
 * The quantiles the distribution figure draws of the decoded run's early and
 * late windows, computed on other threads (addon.decimateQuantilesAsync): a
 * promise of { early, late }, or null without both windows.
 */
export function distributionQuantilesAsync(addon, data, summary) {
  const win = distributionWindows(summary, data.calls);
  if (!win) return null;
  const [early, late] = ['early', 'late'].map((key) =>
    addon.decimateQuantilesAsync(data.elapsed, win[key].from, win[key].to, ECDF_P),
  );
  return Promise.all([early, late]).then(([e, l]) => ({ early: e, late: l }));
}

/**
 * The distribution figure of the early and late windows ({ name, vars,
 * files, fileVars, desc }), or null without both; q: what
 * distributionQuantilesAsync resolved to, else null (computed here).
 */
export function distributionFigure(addon, data, summary, ctx, q = null) {
  const win = distributionWindows(summary, data.calls);
  if (!win) return null;
  q ??= {
    early: addon.decimateQuantiles(data.elapsed, win.early.from, win.early.to, ECDF_P),
    late: addon.decimateQuantiles(data.elapsed, win.late.from, win.late.to, ECDF_P),
  };
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
