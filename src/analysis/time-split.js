// Where a call's time goes (--time-split; docs/allocator.md, "Where a
// call's time goes"): the time-split pass's stamps (src/worker/alloc-timing.js)
// and its per-call times from its log, turned into four parts per op, the
// algorithm, the allocator, memory.grow and the glue, each with the
// stamps' own cost (the calibration's) taken off, the allocator's share
// with an interval (its time is its sampled calls' mean times every call
// the module's counters counted), ns per event by kind and size class,
// memory.grow's share in warm-up and after it, and the advice as a code
// with its numbers.
// Numbers and codes only; the words are src/report/time-split-rows.js's.
import { swapSummary } from './alloc-swap.js';
import { median, opQuantiles, robustSd, TYPICAL, Z95 } from './split-stats.js';
import { contextCosts, pooledCosts } from './stamp-context.js';

/** The parts of a call, in the figure's order. */
export const TIME_PARTS = ['algorithm', 'allocator', 'grow', 'glue'];
// The allocator's event kinds as the worker's tables index them (alloc-timing.js KINDS).
const KIND_NAMES = ['alloc', 'free', 'realloc'];
// Advice thresholds: the share from which a part is worth acting on.
export const ADVICE_SHARE = { allocator: 0.1, glue: 0.25, grow: 0.05 };

/**
 * The stamps' cost from the calibration's rounds: per kind (a: a sampled
 * allocator call, u: one the sampler passed over, g: memory.grow, x:
 * export), { outer, inner, innerSd } ns per stamp pair (u: per call, no stamp),
 * the rounds' medians (a preemption during a few rounds moves no median):
 * outer, what a stamped call costs more than a plain one; inner, what the
 * stamps put between their two clock reads (an empty function's interval);
 * innerSd, the rounds' spread of inner (MAD as a standard deviation).
 * The rounds come from before the first call and after the last: their
 * medians over both (rounds near a call, rather than all, once moved a
 * churn fixture's corrected call time to -460 ns).
 */
export function stampCosts(rounds) {
  const out = {};
  for (const k of ['a', 'u', 'g', 'x']) {
    const inner = rounds.map((r) => r[k].inner);
    const outer = rounds.map((r) => r[k].outer);
    out[k] = { outer: Math.max(0, median(outer)), inner: Math.max(0, median(inner)), innerSd: robustSd(inner) };
  }
  return out;
}

/** Whether call i settles a change between stamped and control calls (alloc-timing.js: compared in neither). */
const settling = (c, i) => (c.settling?.[i] ?? 0) === 1;

/** Call i's stamps whose cost stays the calibration's (cost: stampCosts's): ns. */
const calibratedStamps = (c, i, { u, g }) => (c.allocs[i] - c.sampled[i]) * u.outer + c.grows[i] * g.outer;

/**
 * Call i's parts and the call's time with the stamps' cost taken off (ns):
 * { call, sampledNs, grow, inside }, sampledNs the time between its sampled
 * allocator calls' stamps, their grows taken off. c: the per-call arrays;
 * ns: the call's logged time; cost: stampCosts's; outer: its op's
 * contextCosts ({ x, a, n }: ns a stamp pair adds to a call).
 */
function partsOf(c, i, ns, cost, outer) {
  const { u, g, x } = cost;
  const pairs = c.sampled[i] + c.nulls[i];
  const pairOuter = pairs > 0 ? (c.sampled[i] * outer.a.ns + c.nulls[i] * outer.n.ns) / pairs : 0;
  const unsampledInExport = c.allocsInExport[i] - Math.min(c.allocsInExport[i], c.sampledInExport[i]);
  const growInAlloc = c.growNsInAlloc[i] - c.growsInAlloc[i] * g.inner;
  const call = ns - pairs * pairOuter - calibratedStamps(c, i, cost) - (c.exports[i] + c.nestedExports[i]) * outer.x.ns;
  const sampledNs = c.allocNs[i] - growInAlloc - c.growsInAlloc[i] * g.outer;
  const grow = c.growNs[i] - c.grows[i] * g.inner;
  const inside =
    c.exports[i] > 0
      ? c.exportNs[i] -
        c.exports[i] * x.inner -
        c.sampledInExport[i] * pairOuter -
        unsampledInExport * u.outer -
        c.growsInExport[i] * g.outer -
        c.nestedExports[i] * outer.x.ns
      : 0;
  return { call, sampledNs, grow, inside };
}

/**
 * Per op, the stamps' cost where the module runs (contextCosts, pooled
 * over the ops: pooledCosts), from its calls after warm-up: each call's time against the timed pass's same call
 * when the two passes' ops line up call by call (same seed), else alone.
 * raw, timed, warmupCalls, ops: timeSplitSummary's; n: the calls read.
 */
function opContexts(raw, timed, warmupCalls, ops, cost, n) {
  const c = raw.stamps.calls;
  let aligned = timed.elapsed.length >= n;
  for (let i = 0; aligned && i < n; i++) aligned = timed.op[i] === raw.op[i];
  const rows = ops.map(() => []);
  for (let i = warmupCalls; i < n; i++) {
    if (settling(c, i)) continue;
    rows[raw.op[i]]?.push({
      d: raw.calls[i] - (aligned ? timed.elapsed[i] : 0) - calibratedStamps(c, i, cost),
      control: c.control?.[i] ?? 0,
      exports: c.exports[i] + c.nestedExports[i],
      sampled: c.sampled[i],
      nulls: c.nulls[i],
    });
  }
  const fallback = { x: cost.x.outer, a: cost.a.outer, n: cost.a.outer };
  // An op with no calls read keeps the calibration's costs (contextCosts of none).
  return { aligned, byOp: pooledCosts(rows.map((r) => contextCosts(r, fallback))), none: contextCosts([], fallback) };
}

/**
 * The allocator's time per event from an op's samples (q: its sums over
 * its typical calls: events; sampled, sampledNs (grows taken off), rawSq;
 * nulls, nullNs, nullSq), with the standard error of that estimate: the
 * sampled calls' mean interval less the null samples' (the stamps' own,
 * taken where the real ones are; the calibration's inner, innerNs, without
 * any), the variance of each mean over its samples, the sampled calls' with
 * the finite population correction (every call sampled: no sampling
 * error). Returns { perEvent, stampNs, se }.
 */
function sampledMean(q, innerNs) {
  const variance = (sum, sq, n) => (n > 1 ? Math.max(0, sq / n - (sum / n) ** 2) / n : 0);
  const stampNs = q.nulls > 0 ? q.nullNs / q.nulls : innerNs;
  if (q.sampled === 0) return { perEvent: 0, stampNs, se: 0 };
  const fpc = q.events > 0 ? Math.max(0, 1 - q.sampled / q.events) : 0;
  const se = Math.sqrt(variance(q.sampledNs, q.rawSq, q.sampled) * fpc + variance(q.nullNs, q.nullSq, q.nulls));
  return { perEvent: q.sampledNs / q.sampled - stampNs, stampNs, se };
}

/**
 * The share r = Σpart / Σcall over n calls with a 95 % interval: the delta
 * method's standard error of a ratio of sums, widened by the uncertainty of
 * the stamps' cost (extraSe, as a share). Returns { share, low, high }.
 */
function ratioInterval(part, call, extraSe = 0) {
  const n = part.length;
  const sumP = part.reduce((s, v) => s + v, 0);
  const sumC = call.reduce((s, v) => s + v, 0);
  const r = sumC > 0 ? sumP / sumC : 0;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (part[i] - r * call[i]) ** 2;
  const meanC = sumC / (n || 1);
  const se = n > 1 && meanC > 0 ? Math.sqrt(ss / (n * (n - 1))) / meanC : 0;
  const half = Z95 * Math.sqrt(se ** 2 + extraSe ** 2);
  // Not clamped to [0, 1]: a share near 0 is estimated with noise on both sides.
  return { share: r, low: r - half, high: r + half };
}

/**
 * The median of a histogram of event times (hist: counts, bin b from
 * 2^(b / binsPerOctave) ns), the middle of its bin in log scale.
 */
function histogramMedian(hist, binsPerOctave) {
  const total = hist.reduce((a, b) => a + b, 0);
  let seen = 0;
  for (let b = 0; b < hist.length; b++) {
    seen += hist[b];
    if (seen >= total / 2) return 2 ** ((b + 0.5) / binsPerOctave);
  }
  return 0;
}

/**
 * The allocator's events of one op (or of the run, op null) by kind and
 * size class: { alloc: [{ sizeClass, sampled, events, nsPerEvent,
 * medianNs }], free, realloc }, classes with sampled events only; the last
 * class is the frees' (sizeClass null: the size of a freed block is not
 * known). events: the sampled ones times scale (every event over the
 * sampled ones). nsPerEvent (the mean) and medianNs (a preemption cannot
 * move it) have the stamps' inner cost taken off.
 */
function byClass(classes, op, innerNs, scale) {
  const { kinds, sizeClasses, ops, values, cell, binsPerOctave } = classes;
  const out = {};
  kinds.forEach((_, k) => {
    const rows = [];
    for (let s = 0; s < sizeClasses; s++) {
      let sampled = 0;
      let ns = 0;
      const hist = new Array(cell - 2).fill(0);
      for (let o = 0; o < ops; o++) {
        if (op !== null && o !== op) continue;
        const at = ((o * kinds.length + k) * sizeClasses + s) * cell;
        sampled += values[at];
        ns += values[at + 1];
        for (let b = 0; b < hist.length; b++) hist[b] += values[at + 2 + b];
      }
      if (sampled > 0)
        rows.push({
          sizeClass: s === sizeClasses - 1 ? null : s,
          sampled,
          events: Math.round(sampled * scale),
          nsPerEvent: Math.max(0, ns / sampled - innerNs),
          medianNs: Math.max(0, histogramMedian(hist, binsPerOctave) - innerNs),
        });
    }
    out[KIND_NAMES[k]] = rows;
  });
  return out;
}

/**
 * The advice for one op's parts (shares of its time): { code, share,
 * bound } where code is 'allocator' (fewer allocations or an arena will
 * pay; a faster allocator gives at most bound = 1 / (1 - share)), 'grow'
 * (reserve the memory up front), 'glue' (the JS glue's copies) or
 * 'algorithm' (none of the three is worth acting on), the largest part past
 * its ADVICE_SHARE first.
 */
export function adviceOf(shares) {
  const worth = ['allocator', 'glue', 'grow']
    .filter((p) => shares[p] >= ADVICE_SHARE[p])
    .sort((a, b) => shares[b] - shares[a]);
  const code = worth[0] ?? 'algorithm';
  const share = shares[code];
  return { code, share, bound: share < 1 ? 1 / (1 - share) : null };
}

/**
 * The standard error of an op's call time with the stamps taken off, as
 * checked against the timed pass: from the uncertainty of the stamps' cost
 * (outer: contextCosts's; a cost the calibration gave counts as known), its
 * stamp pairs per call (q: the op's sums over its calls: exports, sampled,
 * nulls) times each cost's standard error; and, paired with the timed pass
 * (k: the sum and the sum of squares of the calls' differences from the
 * timed pass's same calls), the spread of those differences.
 */
function callSe(outer, q, calls, k) {
  if (calls === 0) return 0;
  const se = (kind) => outer[kind].se ?? 0;
  const paired = calls > 1 ? Math.sqrt(Math.max(0, k.diffSq / calls - (k.diff / calls) ** 2) / (calls - 1)) : 0;
  return Math.hypot((q.exports / calls) * se('x'), (q.sampled / calls) * se('a'), (q.nulls / calls) * se('n'), paired);
}

/** The mean of each op's calls after warm-up up to its cut (opQuantiles's): [ns per op]. */
function trimmedMeans(elapsed, op, from, cuts) {
  const sums = cuts.map(() => [0, 0]);
  for (let i = from; i < elapsed.length; i++) {
    const s = sums[op[i]];
    if (s && elapsed[i] <= cuts[op[i]]) {
      s[0] += elapsed[i];
      s[1]++;
    }
  }
  return sums.map(([sum, n]) => (n ? sum / n : null));
}

/**
 * summary.timeSplit from the pass's raw data (raw: { calls: per-call ns
 * from its log, op: per-call op, stamps: the worker's result }), the timed
 * pass (timed: its decoded log, whose call times the parts are checked
 * against), its warm-up (calls before warmupCalls are warm-up) and the
 * run's ops ([{ name }]). Returns null without raw. Per op, over its
 * stamped calls after warm-up no slower than its TYPICAL quantile (of their
 * times with the stamps taken off, the stamps' cost where the module runs:
 * stampContext, contextCosts's): calls, mean call ns (stamps taken off)
 * against the timed pass's (paired with it: over the same calls, typical
 * in both passes) and against the pass's control calls' (by the same rule;
 * null without any), drift (the control calls' time against the timed
 * pass's same calls, less 1; null unpaired), its standard error from the stamps' cost
 * (callSe), the four parts' ns per call and shares (the allocator's:
 * its sampled calls' mean time times its calls, with an interval), the
 * sampler's rate and samples, allocations per call and their mean bytes,
 * the events by kind and size class, memory.grow in warm-up and after it
 * (every call), and the advice; for the run: the same totals and
 * memory.grow's share of the whole pass.
 * Long: one pass over the calls, then one record per op.
 */
export function timeSplitSummary(raw, timed, warmupCalls, ops) {
  if (!raw?.stamps) return null;
  const { stamps } = raw;
  const cost = stampCosts(stamps.calibration);
  const c = stamps.calls;
  const n = Math.min(raw.calls.length, c.allocNs.length);
  const context = opContexts(raw, timed, warmupCalls, ops, cost, n);
  const parts = [];
  for (let i = 0; i < n; i++) parts.push(partsOf(c, i, raw.calls[i], cost, context.byOp[raw.op[i]] ?? context.none));
  // The parts come from the stamped calls (a control call has none), settled
  // ones; ranked by their time with the stamps taken off (a sampled call is slower by its stamps).
  const control = (i) => (c.control?.[i] ?? 0) === 1;
  const corrected = parts.map((p) => p.call);
  const stampedOp = Array.from({ length: n }, (_, i) => (control(i) || settling(c, i) ? -1 : raw.op[i]));
  const cuts = opQuantiles(corrected, stampedOp, warmupCalls, ops.length, TYPICAL);
  const timedCuts = opQuantiles(timed.elapsed, timed.op, warmupCalls, ops.length, TYPICAL);
  // Paired with the timed pass, a call counts when it is typical in both
  // passes, and the parts' sum is checked against the timed pass's time of
  // the very same calls; else against the timed pass's own typical calls.
  const { aligned } = context;
  const timedNs = aligned ? null : trimmedMeans(timed.elapsed, timed.op, warmupCalls, timedCuts);
  const typicalTimed = (i) => !aligned || timed.elapsed[i] <= timedCuts[raw.op[i]];
  // The control calls' time, by the same rule: the parts' sum's check within the pass.
  const controlOp = Array.from({ length: n }, (_, i) => (control(i) && !settling(c, i) ? raw.op[i] : -1));
  const controlCuts = opQuantiles(corrected, controlOp, warmupCalls, ops.length, TYPICAL);
  const checks = ops.map(() => ({ timed: 0, diff: 0, diffSq: 0, control: 0, controlTimed: 0, controls: 0 }));
  const per = ops.map(() => ({
    call: [],
    grow: [],
    inside: [],
    events: [],
    sampled: 0,
    sampledNs: 0,
    rawSq: 0,
    nulls: 0,
    nullNs: 0,
    nullSq: 0,
    allocs: 0,
    exports: 0,
    bytes: 0,
  }));
  const warm = ops.map(() => ({ ns: 0, growNs: 0, grows: 0, calls: 0 }));
  const steady = ops.map(() => ({ ns: 0, growNs: 0, grows: 0, calls: 0 }));
  // Every event over the sampled ones, per op over all its calls: the size classes' scale.
  const scale = ops.map(() => ({ events: 0, sampled: 0 }));
  for (let i = 0; i < n; i++) {
    const o = raw.op[i];
    if (!per[o]) continue;
    const p = parts[i];
    scale[o].events += c.allocs[i];
    scale[o].sampled += c.sampled[i];
    const g = i < warmupCalls ? warm[o] : steady[o];
    g.calls++;
    g.ns += p.call;
    g.growNs += p.grow;
    g.grows += c.grows[i];
    if (i < warmupCalls || settling(c, i) || !typicalTimed(i)) continue;
    const k = checks[o];
    if (control(i)) {
      if (p.call > controlCuts[o]) continue;
      k.control += p.call;
      k.controlTimed += aligned ? timed.elapsed[i] : 0;
      k.controls++;
      continue;
    }
    if (p.call > cuts[o]) continue;
    if (aligned) {
      k.timed += timed.elapsed[i];
      k.diff += p.call - timed.elapsed[i];
      k.diffSq += (p.call - timed.elapsed[i]) ** 2;
    }
    const q = per[o];
    q.call.push(p.call);
    q.grow.push(p.grow);
    q.inside.push(p.inside);
    q.events.push(c.allocs[i]);
    q.sampled += c.sampled[i];
    q.sampledNs += p.sampledNs;
    q.rawSq += c.allocNsSq[i];
    q.nulls += c.nulls[i];
    q.nullNs += c.nullNs[i];
    q.nullSq += c.nullNsSq[i];
    q.allocs += c.allocations[i];
    q.exports += c.exports[i] + c.nestedExports[i];
    q.bytes += c.allocBytes[i];
  }
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  const scaleOf = (x) => (x.sampled > 0 ? x.events / x.sampled : 0);
  const byOp = ops.map((op, o) => {
    const q = per[o];
    const calls = q.call.length;
    const total = sum(q.call);
    const events = sum(q.events);
    const mean = sampledMean({ ...q, events }, cost.a.inner);
    const allocator = events * mean.perEvent;
    const grow = sum(q.grow);
    const inside = sum(q.inside);
    const glue = Math.max(0, total - inside);
    const algorithm = Math.max(0, inside - allocator - grow);
    const share = (v) => (total > 0 ? v / total : 0);
    // Beside the calls' own spread: the sampling's error of the mean (null
    // samples' included), or without null samples the calibration's, known
    // to innerSd per event; as shares of the op's time.
    const samplingSe = share(events * mean.se);
    const calSe = q.nulls > 0 ? 0 : share(events * cost.a.innerSd);
    const shares = {
      algorithm: share(algorithm),
      allocator: share(allocator),
      grow: share(grow),
      glue: share(glue),
    };
    const share0 = (x) => (x.ns > 0 ? x.growNs / x.ns : 0);
    return {
      op: op.name,
      calls,
      callNs: calls ? total / calls : 0,
      timedCallNs: aligned ? (calls ? checks[o].timed / calls : null) : timedNs[o],
      controlCallNs: checks[o].controls ? checks[o].control / checks[o].controls : null,
      // The control calls against the timed pass's same calls: how much slower the pass ran them unstamped.
      drift: aligned && checks[o].controlTimed > 0 ? checks[o].control / checks[o].controlTimed - 1 : null,
      callSe: callSe(context.byOp[o], q, calls, checks[o]),
      ns: Object.fromEntries(
        Object.entries({ algorithm, allocator, grow, glue }).map(([k, v]) => [k, calls ? v / calls : 0]),
      ),
      shares,
      allocatorShare: ratioInterval(
        q.events.map((e) => e * mean.perEvent),
        q.call,
        Math.hypot(samplingSe, calSe),
      ),
      stampContext: context.byOp[o],
      sampling: {
        rate: stamps.rates[o] ?? 1,
        sampled: q.sampled,
        nulls: q.nulls,
        stampNs: mean.stampNs,
        nsPerEvent: mean.perEvent,
        se: mean.se,
      },
      eventsPerCall: calls ? events / calls : 0,
      allocsPerCall: calls ? q.allocs / calls : 0,
      bytesPerAlloc: q.allocs ? q.bytes / q.allocs : 0,
      classes: byClass(stamps.classes, o, mean.stampNs, scaleOf(scale[o])),
      grow: {
        warmup: { calls: warm[o].calls, grows: warm[o].grows, share: share0(warm[o]) },
        steady: { calls: steady[o].calls, grows: steady[o].grows, share: share0(steady[o]) },
      },
      advice: adviceOf(shares),
    };
  });
  const all = (key) => sum(byOp.map((r) => r.ns[key] * r.calls));
  const nulls = sum(per.map((q) => q.nulls));
  const stampNsOfRun = nulls > 0 ? sum(per.map((q) => q.nullNs)) / nulls : cost.a.inner;
  const totalNs = sum(byOp.map((r) => r.callNs * r.calls));
  const whole = (xs, k) => sum(xs.map((x) => x[k]));
  const growOf = (xs) => (whole(xs, 'ns') > 0 ? whole(xs, 'growNs') / whole(xs, 'ns') : 0);
  return {
    parts: TIME_PARTS,
    typical: TYPICAL,
    swap: raw.swap ? swapSummary(raw.swap, c.allocs, warmupCalls, ops, byOp) : null,
    stampCost: cost,
    pairedWithTimed: context.aligned,
    stamped: stamps.stamped,
    warmupCalls: Math.min(warmupCalls, n),
    ops: byOp,
    run: {
      calls: sum(byOp.map((r) => r.calls)),
      callNs: totalNs,
      shares: Object.fromEntries(TIME_PARTS.map((k) => [k, totalNs > 0 ? all(k) / totalNs : 0])),
      classes: byClass(
        stamps.classes,
        null,
        stampNsOfRun,
        scaleOf({ events: whole(scale, 'events'), sampled: whole(scale, 'sampled') }),
      ),
      grow: {
        warmup: { share: growOf(warm), grows: whole(warm, 'grows') },
        steady: { share: growOf(steady), grows: whole(steady, 'grows') },
        // Every memory.grow of the pass, warm-up included, against the whole pass.
        pass: growOf([...warm, ...steady]),
      },
    },
  };
}
