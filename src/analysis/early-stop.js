// When a leaking run is decided: the rule that ends the timed pass early
// (docs/verdicts.md, "Early stop"). It reads the live analysis of the run so
// far (src/analysis/live.js: the final analysis's own trend verdicts) and
// adds no statistics of its own, only how sure and how far along.

import { BEYOND_DOUBT_P } from '../protocol.js';

/**
 * The rule's constants. pValue: the leak's p-value is at most this (C's
 * WS_BEYOND_DOUBT_P, the analysis's α of 0.01 a hundred times stricter; a
 * memory finding that reaches it needs no second run either); lowShare: the low end of
 * the slope's interval is at least this share of the slope (the interval is
 * far from zero); doubling: every analysis since one of at most this share
 * of the calls found the leak (it held while the run doubled); pace: since
 * that analysis the leak grew at least this share of its pace before it (it
 * does not level off, as a filling cache does); minShare: at least this
 * share of the planned calls (or of --duration) is done.
 */
export const EARLY_STOP = Object.freeze({
  pValue: BEYOND_DOUBT_P,
  lowShare: 0.5,
  doubling: 0.5,
  pace: 0.5,
  minShare: 0.125,
});

/** The leak finding of trend (judgeTrends' trend of the run so far) when its verdict is leak, else null. */
export function leakOf(trend) {
  if (trend.verdict !== 'leak') return null;
  return trend.findings.find((x) => x.kind === 'leak' && x.slope && x.window) ?? null;
}

/**
 * Whether leak finding f is beyond doubt: its p-value at most
 * EARLY_STOP.pValue and its slope's interval's low end at least lowShare
 * of the slope.
 */
export function beyondDoubt(f) {
  if (!f || !(f.pValue <= EARLY_STOP.pValue)) return false;
  const { perKiloIterations: slope, low } = f.slope;
  return slope > 0 && low >= EARLY_STOP.lowShare * slope;
}

/**
 * The bytes leak finding f's trend grew across its window, and the window
 * in calls (stride: the calls each kept call stands for): { grown, from, to }.
 */
export function grownOf(f, stride = 1) {
  return {
    grown: (f.slope.perKiloIterations * (f.window.to - f.window.from)) / 1000,
    from: f.window.from * stride,
    to: f.window.to * stride,
  };
}

/**
 * Whether the run so far is decided. f: leakOf the latest analysis; calls:
 * the calls it saw; first: { calls, grown, from, to } of the first
 * analysis since which every analysis found the leak (its calls and grownOf
 * its finding), or null; stride: the calls each kept call stands for (the
 * projection counts kept calls); plan: { iterations, durationMs, elapsedMs }
 * (iterations or durationMs null when not given). Returns the stop's facts
 * { calls, plannedCalls, share, pValue, slope, low, high, series } or null:
 * not unless f is beyond doubt, the leak held while the run doubled at no
 * less than half its pace, and minShare of the plan is done; not when a
 * full run would reach the memory's limit (the projection within the
 * planned run: memory-exhausted is the full run's verdict then).
 */
export function decided(f, { calls, first, stride = 1, plan }) {
  if (!beyondDoubt(f) || !first || first.calls > EARLY_STOP.doubling * calls) return null;
  // The pace since the first analysis against the pace before it (bytes per call).
  const now = grownOf(f, stride);
  const before = first.grown / Math.max(1, first.to - first.from);
  const since = (now.grown - first.grown) / Math.max(1, now.to - first.to);
  if (!(since >= EARLY_STOP.pace * before)) return null;
  const byCalls = plan.iterations ? calls / plan.iterations : 0;
  const byTime = plan.durationMs ? plan.elapsedMs / plan.durationMs : 0;
  const share = Math.max(byCalls, byTime);
  if (share < EARLY_STOP.minShare) return null;
  const p = f.projection;
  if (p && plan.iterations && p.iterations * stride <= plan.iterations - calls) return null;
  if (p?.wallMs != null && plan.durationMs && p.wallMs <= plan.durationMs - plan.elapsedMs) return null;
  return {
    calls,
    plannedCalls: plan.iterations ?? null,
    share,
    pValue: f.pValue,
    // Per 1 000 calls (a thinned copy's slope is per 1 000 kept calls).
    slope: f.slope.perKiloIterations / stride,
    low: f.slope.low / stride,
    high: f.slope.high / stride,
    series: f.series,
  };
}
