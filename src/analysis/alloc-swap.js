// The allocator swapped for a bump allocator (--time-split; docs/allocator.md,
// "The allocator swapped for a bump allocator"): per op, the timed pass's
// call time less the swap pass's over the same calls (paired, each op's
// typical calls in both), plus what the swap pass paid that the timed pass
// did not (the op wrapper's, the bump allocator's per allocator call: the
// worker's calibration), is what the module's allocator costs beyond
// handing out memory for nothing, checked against the time-split pass's
// allocator part. Numbers and codes only; the words are src/report/'s.
import { median, opQuantiles, robustSd, TYPICAL, Z95 } from './split-stats.js';

/**
 * The swap's costs from the worker's calibration rounds: { outer, outerSd,
 * perEvent, perEventSd } (medians and spreads of the rounds).
 */
function swapCosts(rounds) {
  const outer = rounds.map((r) => r.outer);
  const perEvent = rounds.map((r) => r.perEvent);
  return {
    outer: Math.max(0, median(outer)),
    outerSd: robustSd(outer),
    perEvent: Math.max(0, median(perEvent)),
    perEventSd: robustSd(perEvent),
  };
}

/**
 * The swap's status for the whole run: 'measured', or why no op is:
 * 'not-swapped' (no allocator the swap can route safely), 'no-region' (the
 * module's allocator gave no region), 'overflow' (the region could not hold
 * every allocation: some went to the module's own allocator).
 */
function runStatus(result) {
  if (result.swapped.length === 0) return 'not-swapped';
  if (result.region === 'none') return 'no-region';
  if (result.overflows > 0) return 'overflow';
  return 'measured';
}

/**
 * The allocator's cost per call of each op from the swap (swap: the swap
 * pass's { calls, op, result }; timed: the timed pass's decoded log;
 * events: the allocator calls of each call, the time-split pass's counts;
 * warmupCalls; ops: [{ name }]; split: summary.timeSplit's ops, item 1's
 * measure). Returns { status, costs, regionBytes, ops: [{ op, status
 * ('measured', 'keeps-memory': a call kept blocks of the region past its
 * end, 'no-calls'), keptCalls, calls, allocatorNs, low, high (95 %),
 * stamped: { ns, low, high } (the time-split pass's allocator part per
 * call), agree (the two intervals overlap) }] }.
 * Long: one pass over the calls, then one record per op.
 */
export function swapSummary(swap, timed, events, warmupCalls, ops, split) {
  const { result } = swap;
  const costs = swapCosts(result.calibration);
  const status = runStatus(result);
  const n = Math.min(swap.calls.length, timed.elapsed.length, events.length);
  const cutTimed = opQuantiles(timed.elapsed, timed.op, warmupCalls, ops.length, TYPICAL);
  const cutSwap = opQuantiles(swap.calls, swap.op, warmupCalls, ops.length, TYPICAL);
  const per = ops.map(() => ({ d: [], events: 0 }));
  for (let i = warmupCalls; i < n; i++) {
    const o = timed.op[i];
    if (swap.op[i] !== o || !per[o]) continue;
    if (timed.elapsed[i] > cutTimed[o] || swap.calls[i] > cutSwap[o]) continue;
    per[o].d.push(timed.elapsed[i] - swap.calls[i]);
    per[o].events += events[i];
  }
  const out = ops.map((op, o) => {
    const { d } = per[o];
    const keptCalls = result.kept[o] ?? 0;
    const opStatus = keptCalls > 0 ? 'keeps-memory' : d.length === 0 ? 'no-calls' : 'measured';
    const s = split[o];
    const stamped = s
      ? { ns: s.ns.allocator, low: s.allocatorShare.low * s.callNs, high: s.allocatorShare.high * s.callNs }
      : null;
    if (opStatus !== 'measured' || status !== 'measured')
      return {
        op: op.name,
        status: opStatus,
        keptCalls,
        calls: d.length,
        allocatorNs: null,
        low: null,
        high: null,
        stamped,
        agree: null,
      };
    const mean = d.reduce((a, b) => a + b, 0) / d.length;
    const variance = d.length > 1 ? d.reduce((a, b) => a + (b - mean) ** 2, 0) / (d.length - 1) : 0;
    const eventsPerCall = per[o].events / d.length;
    const allocatorNs = mean + costs.outer + eventsPerCall * costs.perEvent;
    const se = Math.sqrt(variance / d.length + costs.outerSd ** 2 + (eventsPerCall * costs.perEventSd) ** 2);
    const low = allocatorNs - Z95 * se;
    const high = allocatorNs + Z95 * se;
    const agree = stamped ? !(high < stamped.low || low > stamped.high) : null;
    return { op: op.name, status: opStatus, keptCalls, calls: d.length, allocatorNs, low, high, stamped, agree };
  });
  return { status, costs, regionBytes: result.regionBytes, ops: out };
}
