// The stamps' whole cost where the module runs (--time-split;
// docs/allocator.md, "Where a call's time goes"), per op, from the
// time-split pass's randomized experiment rather than from a calibration
// loop: one block of scenario calls in four is of control calls, stamped
// nowhere (the calls that settle a change between the two are left out by
// the caller), and which allocator calls are stamped (and which samples
// are null) is drawn at random, so the calls of each kind differ on
// average by their stamps alone. Each call is compared with the same call of the timed pass (same
// seed: same op, same input), which takes the input's share of the time's
// spread away; a trimmed mean per group keeps preemptions (of either pass)
// out. Numbers only.

// Calls a group needs before its trimmed mean is used (else the calibration's cost).
const MIN_GROUP = 20;
// The share cut from each end of a group before its mean (the interquartile mean).
const TRIM = 0.25;

/**
 * The mean of xs without the TRIM share of each end, with its standard
 * error from the winsorized variance: { mean, se, n } (mean NaN for none).
 */
export function trimmedMean(xs) {
  const n = xs.length;
  if (n === 0) return { mean: NaN, se: NaN, n };
  const s = Float64Array.from(xs).sort();
  const lo = Math.floor(TRIM * n);
  const hi = Math.max(lo + 1, n - lo);
  let sum = 0;
  for (let i = lo; i < hi; i++) sum += s[i];
  const mean = sum / (hi - lo);
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (Math.min(s[hi - 1], Math.max(s[lo], s[i])) - mean) ** 2;
  const sw = n > 1 ? Math.sqrt(ss / (n - 1)) : 0;
  return { mean, se: sw / ((1 - 2 * TRIM) * Math.sqrt(n)), n };
}

/**
 * One op's stamp costs from its calls after warm-up. rows: per call
 * { d, control, exports, sampled, nulls }: d its time in the time-split
 * pass less the same call's in the timed pass (or less nothing, when the
 * passes' calls do not line up) and less the stamps whose cost stays the
 * calibration's (the unsampled allocator calls' countdown, memory.grow's);
 * control 1 for a control call; exports its export stamp pairs (nested
 * ones too); sampled, nulls its sampled allocator calls and null samples.
 * fallback: the calibration's outer cost per stamp pair, { x, a, n }.
 * Returns per kind (x: an export's stamps, a: a sampled allocator call's,
 * n: a null sample's) the ns a stamp pair adds to a call, each from the
 * groups' trimmed means (x: stamped calls without allocator stamps against
 * control calls, per export stamp pair; a and n: calls with one against
 * calls with none) or, when a group has fewer than MIN_GROUP calls, the
 * fallback's ({ ns, se, source: 'context' | 'calibration' }), and base:
 * the control calls' trimmed mean d (with a timed pass, how much slower the
 * pass ran its calls unstamped; null without control calls).
 */
export function contextCosts(rows, fallback) {
  const groups = { control: [], plain: [], sampled: [], null: [] };
  let plainExports = 0;
  for (const r of rows) {
    if (r.control) groups.control.push(r.d);
    else if (r.sampled === 0 && r.nulls === 0) {
      groups.plain.push(r.d);
      plainExports += r.exports;
    } else if (r.sampled === 1 && r.nulls === 0) groups.sampled.push(r.d);
    else if (r.sampled === 0 && r.nulls === 1) groups.null.push(r.d);
  }
  const t = Object.fromEntries(Object.entries(groups).map(([k, xs]) => [k, trimmedMean(xs)]));
  const enough = (...ks) => ks.every((k) => t[k].n >= MIN_GROUP);
  const of = (ns, se) => ({ ns, se, source: 'context' });
  const calibrated = (ns) => ({ ns, se: null, source: 'calibration' });
  const perExport = plainExports / Math.max(1, t.plain.n);
  const x =
    enough('plain', 'control') && perExport > 0
      ? of((t.plain.mean - t.control.mean) / perExport, Math.hypot(t.plain.se, t.control.se) / perExport)
      : calibrated(fallback.x);
  const diff = (k, ns) =>
    enough(k, 'plain') ? of(t[k].mean - t.plain.mean, Math.hypot(t[k].se, t.plain.se)) : calibrated(ns);
  return {
    x,
    a: diff('sampled', fallback.a),
    n: diff('null', fallback.n),
    base: t.control.n > 0 ? t.control.mean : null,
    groups: Object.fromEntries(Object.entries(t).map(([k, v]) => [k, v.n])),
  };
}

/**
 * The ops' costs pooled (costs: contextCosts's per op): per kind, the
 * inverse-variance weighted mean of the ops' own measures (the same hooks
 * stamp every op of a module; an op with few calls, or a long noisy one,
 * would alone give a cost known to microseconds per call: sql.js's 72
 * export stamp pairs per call), given to every op whose own measure it was
 * or that had none, its own kept as opNs and opSe. A kind no op measured
 * stays each op's calibration. Returns the ops' costs, new objects.
 */
export function pooledCosts(costs) {
  const out = costs.map((c) => ({ ...c }));
  for (const k of ['x', 'a', 'n']) {
    const measured = costs.map((c) => c[k]).filter((m) => m.source === 'context');
    if (measured.length < 2) continue;
    const weights = measured.map((m) => 1 / Math.max(m.se ** 2, Number.EPSILON));
    const total = weights.reduce((a, b) => a + b, 0);
    const ns = measured.reduce((sum, m, j) => sum + weights[j] * m.ns, 0) / total;
    const se = Math.sqrt(1 / total);
    for (const c of out)
      c[k] = { ns, se, source: 'context', opNs: c[k].source === 'context' ? c[k].ns : null, opSe: c[k].se };
  }
  return out;
}
