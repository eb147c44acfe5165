// The allocator swapped for a bump allocator (--time-split; docs/allocator.md,
// "The allocator swapped for a bump allocator"): in the swap pass each op's
// calls went, in blocks drawn at random, to a bump allocator or to the
// module's own allocator. The mean of the second half less
// the first's (each op's typical calls in each half), less what the
// routing itself costs each way per allocator call (the worker's
// calibration), is what the module's allocator costs beyond handing out
// memory for nothing, checked against the time-split pass's allocator part.
// Numbers and codes only; the words are src/report/'s.
import { median, robustSd, TYPICAL, Z95 } from './split-stats.js';

/**
 * The routing's costs from the worker's calibration rounds: { own, bump,
 * extra, extraSd } in ns per allocator call: the routing to the module's
 * own allocator, to the bump allocator, how much more the first costs (the
 * rounds' medians), and the spread of that.
 */
function routingCosts(rounds) {
  const extra = rounds.map((r) => r.own - r.bump);
  return {
    own: median(rounds.map((r) => r.own)),
    bump: median(rounds.map((r) => r.bump)),
    extra: median(extra),
    extraSd: robustSd(extra),
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
 * One half's calls of an op (calls: [{ ns, events, block }]) up to their
 * TYPICAL quantile: { n, blocks, mean, variance, events }, mean the mean of
 * its blocks' means and variance that of the block means over the blocks
 * (a block's calls share the machine's state: the block is the unit the
 * halves were drawn by).
 */
function half(calls) {
  const s = calls.map((c) => c.ns).sort((a, b) => a - b);
  const cut = s[Math.min(s.length - 1, Math.floor(TYPICAL * s.length))];
  const byBlock = new Map();
  let n = 0;
  let events = 0;
  for (const c of calls) {
    if (c.ns > cut) continue;
    const b = byBlock.get(c.block) ?? { ns: 0, n: 0 };
    b.ns += c.ns;
    b.n++;
    byBlock.set(c.block, b);
    n++;
    events += c.events;
  }
  const means = [...byBlock.values()].map((b) => b.ns / b.n);
  const blocks = means.length;
  const mean = means.reduce((a, b) => a + b, 0) / blocks;
  const variance = blocks > 1 ? means.reduce((a, m) => a + (m - mean) ** 2, 0) / (blocks - 1) : 0;
  return { n, blocks, mean, variance, events: events / n };
}

/**
 * The allocator's cost per call of each op from the swap (swap: the swap
 * pass's { calls, op, result }; events: the allocator calls of each call,
 * the time-split pass's counts; warmupCalls; ops: [{ name }]; split:
 * summary.timeSplit's ops, item 1's measure). Returns { status, costs,
 * regionBytes, ops: [{ op, status ('measured', 'keeps-memory': a call kept
 * blocks of the region past its end, 'no-calls': a half without calls),
 * keptCalls, calls (in both halves), allocatorNs, low, high (95 % of the
 * calls' spread, widened by the routing's whole cost),
 * stamped: { ns, low, high } (the time-split pass's allocator part per
 * call), agree (the two intervals overlap) }] }.
 * Long: one pass over the calls, then one record per op.
 */
export function swapSummary(swap, events, warmupCalls, ops, split) {
  const { result } = swap;
  const costs = routingCosts(result.calibration);
  const status = runStatus(result);
  const per = ops.map(() => ({ on: [], off: [] }));
  const n = Math.min(swap.calls.length, result.bumped.length, events.length);
  for (let i = warmupCalls; i < n; i++) {
    const p = per[swap.op[i]];
    // Calls that settled a block of calls (bumped 2) are compared in neither half.
    if (p && result.bumped[i] !== 2)
      (result.bumped[i] ? p.on : p.off).push({
        ns: swap.calls[i],
        events: events[i],
        block: Math.floor(i / result.blockCalls),
      });
  }
  const out = ops.map((op, o) => {
    const { on, off } = per[o];
    const keptCalls = result.kept[o] ?? 0;
    let opStatus = 'measured';
    if (keptCalls > 0) opStatus = 'keeps-memory';
    else if (on.length === 0 || off.length === 0) opStatus = 'no-calls';
    const s = split[o];
    const stamped = s
      ? { ns: s.ns.allocator, low: s.allocatorShare.low * s.callNs, high: s.allocatorShare.high * s.callNs }
      : null;
    const record = { op: op.name, status: opStatus, keptCalls, calls: on.length + off.length, stamped };
    if (opStatus !== 'measured' || status !== 'measured')
      return { ...record, allocatorNs: null, low: null, high: null, agree: null };
    const a = half(on);
    const b = half(off);
    const eventsPerCall = (a.events * a.n + b.events * b.n) / (a.n + b.n);
    const allocatorNs = b.mean - a.mean - eventsPerCall * costs.extra;
    const se = Math.sqrt(a.variance / a.blocks + b.variance / b.blocks + (eventsPerCall * costs.extraSd) ** 2);
    // The routing's costs are calibrated in a tight loop: where the module
    // runs they may be anywhere from none to twice that (the stamps' null
    // samples cost 1.1-3.7 times their calibration there), so the interval
    // also holds their whole calibrated cost each way.
    const systematic = eventsPerCall * (costs.own + costs.bump);
    const low = allocatorNs - Z95 * se - systematic;
    const high = allocatorNs + Z95 * se + systematic;
    const agree = stamped ? !(high < stamped.low || low > stamped.high) : null;
    return { ...record, allocatorNs, low, high, agree };
  });
  return { status, costs, regionBytes: result.regionBytes, ops: out };
}
