// The statistics the time-split pass's and the allocator swap's analyses
// share (time-split.js, alloc-swap.js): robust location and spread, and the
// calls each op's parts are read from.

// z for a two-sided 95 % interval.
export const Z95 = 1.96;
// The calls the parts are read from: each op's fastest TYPICAL, so that a
// call slowed by a preemption (a loaded machine's) moves no part.
export const TYPICAL = 0.75;
// The median absolute deviation scaled to a normal's standard deviation.
const MAD_TO_SD = 1.4826;

/** The median of xs (0 for none). */
export function median(xs) {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
}

/** The spread of xs as a standard deviation, from their median absolute deviation. */
export function robustSd(xs) {
  const m = median(xs);
  return MAD_TO_SD * median(xs.map((x) => Math.abs(x - m)));
}

/**
 * The call time at fraction q of each op's calls after warm-up (elapsed,
 * op: per-call arrays; from: the first call after warm-up): [ns per op],
 * Infinity for an op without calls.
 */
export function opQuantiles(elapsed, op, from, opCount, q) {
  const per = Array.from({ length: opCount }, () => []);
  for (let i = from; i < elapsed.length; i++) per[op[i]]?.push(elapsed[i]);
  return per.map((xs) => {
    if (xs.length === 0) return Infinity;
    xs.sort((a, b) => a - b);
    return xs[Math.min(xs.length - 1, Math.floor(q * xs.length))];
  });
}
