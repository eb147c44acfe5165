// What the counting pass saw: allocations and bytes per call by op, the
// live-byte series that tells a leak from fragmentation, exact budget gates,
// and which ops' calls grew memory or left live bytes behind.
import { addon } from '../addon.js';
import { CENSUS_KIND, FLAG, windowRow } from '../protocol.js';

const LIVE_POINTS = 4000;

/** addon.windowStats rows (all, then per op) of a per-call count array. */
function perOpStats(values, op, calls, nOps) {
  const f32 = values instanceof Float32Array ? values : Float32Array.from(values.subarray(0, calls));
  return addon.windowStats(f32, op.subarray(0, calls), 0, calls, nOps);
}

const row = (stats, k) => {
  const { median, p90, p99 } = windowRow(stats, k);
  return { median, p90, p99 };
};

/** Per-op totals of a per-call array. */
function totals(values, op, calls, nOps) {
  const out = new Float64Array(nOps);
  for (let i = 0; i < calls; i++) out[op[i]] += values[i];
  return out;
}

/**
 * How much of the run a decoded counting pass covers: { calls, of, closed,
 * partial }: the calls it logged of the calls it was asked to repeat (the
 * timed pass's, its header's iterations), whether its log was closed, and
 * partial when either falls short (a signal, an abort, a kill or a crash
 * cut it short).
 */
export function countCoverage(count) {
  const calls = count.calls + (count.lostCalls ?? 0);
  const of = count.header.config?.iterations ?? calls;
  return { calls, of, closed: count.complete, partial: !count.complete || calls < of };
}

/**
 * Summarises a decoded counting-pass log (decodeLog(path, { allocs: true }));
 * frees: the pass's matched and unmatched frees (coverageComplete).
 * Returns { summary, liveSeries, peakSeries }: live bytes after calls,
 * thinned to at most LIVE_POINTS points ({ iter, tMs, value }), and the peak
 * live bytes within the calls of each of those strides.
 */
export function summarizeAllocations(count, frees = null) {
  const ops = count.header.ops;
  const n = count.allocRecords === count.calls ? count.calls : Math.min(count.calls, count.allocRecords);
  const allocStats = perOpStats(count.allocs, count.op, n, ops.length);
  const byteStats = perOpStats(count.allocBytes, count.op, n, ops.length);
  const allocTotals = totals(count.allocs, count.op, n, ops.length);
  const freeTotals = totals(count.frees, count.op, n, ops.length);
  const byteTotals = totals(count.allocBytes, count.op, n, ops.length);
  const leftBehind = new Float64Array(ops.length);
  const calls = new Float64Array(ops.length);
  // Live bytes before the first call are not recorded: its share starts at 1.
  for (let i = 0; i < n; i++) {
    calls[count.op[i]]++;
    if (i > 0) leftBehind[count.op[i]] += count.live[i] - count.live[i - 1];
  }
  // Live bytes after the first call of each stride, and the highest peak
  // within any call of the stride (so no peak is lost by thinning).
  const stride = Math.max(1, Math.floor(n / LIVE_POINTS));
  const points = Math.ceil(n / stride);
  const liveSeries = { iter: new Float64Array(points), tMs: new Float64Array(points), value: new Float64Array(points) };
  const peakSeries = { iter: liveSeries.iter, tMs: liveSeries.tMs, value: new Float64Array(points) };
  for (let k = 0, i = 0; i < n; i += stride, k++) {
    liveSeries.iter[k] = i;
    liveSeries.value[k] = count.live[i];
    let high = 0;
    for (let j = i; j < Math.min(n, i + stride); j++) high = Math.max(high, count.peak[j]);
    peakSeries.value[k] = high;
  }
  let peak = 0;
  for (let i = 0; i < n; i++) peak = Math.max(peak, count.peak[i]);
  // Time per call in the instrumented pass, to show beside the timed one.
  const timeStats = addon.windowStats(count.elapsed.subarray(0, n), count.op.subarray(0, n), 0, n, ops.length);
  const coverage = countCoverage(count);
  const summary = {
    pass: 'count',
    calls: n,
    // A pass cut short: its counts are for its first calls only (of the run's ofCalls).
    partial: coverage.partial,
    ofCalls: coverage.of,
    instrumented: count.header.instrumented ?? [],
    complete: coverageComplete(count.header, frees),
    // Live bytes above the heap or the memory that holds them (liveContradiction), or null.
    contradiction: liveContradiction(count),
    allocs: { ...row(allocStats, 0), total: allocTotals.reduce((a, b) => a + b, 0) },
    bytes: { ...row(byteStats, 0), total: byteTotals.reduce((a, b) => a + b, 0) },
    live: { start: n ? count.live[0] : 0, end: n ? count.live[n - 1] : 0, peak },
    timeMedianNs: windowRow(timeStats, 0).median,
    ops: ops.map((o, k) => ({
      name: o.name,
      timeMedianNs: windowRow(timeStats, k + 1).median,
      calls: calls[k],
      allocs: { ...row(allocStats, k + 1), total: allocTotals[k] },
      frees: { total: freeTotals[k] },
      bytes: { ...row(byteStats, k + 1), total: byteTotals[k] },
      liveLeftBehind: leftBehind[k],
    })),
  };
  return { summary, liveSeries, peakSeries };
}

// An allocator found behind boundary wrappers is inferred from the code
// (src/worker/allocator/behind-boundary.js): the pass trusts it while no
// more than this share of the blocks it frees are blocks it never saw
// allocated (the module is instantiated rewritten, so a right guess leaves
// none; the real modules tried left none).
export const MAX_UNMATCHED_SHARE = 0.01;

/**
 * Whether a counting pass's frees ({ matched, unmatched, unseen }: the
 * worker's, or null) belie what it wrapped (header: its log's): more than
 * MAX_UNMATCHED_SHARE of them were frees it missed (unseen: a block handed
 * out again while it held it live), in any pass, or, for an allocator found
 * behind boundary wrappers, freed blocks it never saw allocated (unmatched;
 * an allocator found by name may free blocks C code got elsewhere).
 */
export function unmatchedFrees(header, frees) {
  if (!frees) return false;
  const behind = (header.coverage ?? []).some((c) => c.behind);
  const wrong = (behind ? frees.unmatched : 0) + (frees.unseen ?? 0);
  return wrong > MAX_UNMATCHED_SHARE * (frees.matched + wrong);
}

/**
 * The first call of a decoded counting pass (count) after which its live
 * bytes exceed what its own log says holds them: the live bytes or the heap
 * the census walked, or the heap's top (when the run has one memory and one
 * module instrumented), or the linear memory of every tracked memory, which
 * a right count never does. Returns { iteration, liveBytes, limitBytes,
 * limit: 'census-live' | 'heap' | 'heap-top' | 'memory' }, or null
 * when they never do (or the log cannot tell: no calls, a thinned log).
 */
export function liveContradiction(count) {
  const n = Math.min(count.calls, count.allocRecords ?? 0);
  if (!count.live || n === 0 || (count.stride ?? 1) > 1) return null;
  const at = (i, limitBytes, limit) => ({ iteration: i, liveBytes: count.live[i], limitBytes, limit });
  const found = [];
  const oneModule = (count.header.instrumented ?? []).filter((names) => names.length > 0).length === 1;
  // Every block counted is one the census walked in use (requested bytes:
  // no more than its chunk), in the heap it walked, and below the heap's top
  // (sbrk). The census samples follow a call with nothing run between.
  const kinds = count.metrics?.censusKind?.value;
  const recognised = (k) => kinds !== undefined && kinds[k] !== CENSUS_KIND.none;
  const positive = (_k, v) => v > 0;
  for (const [name, limit, usable] of [
    ['censusLive', 'census-live', recognised],
    ['censusHeap', 'heap', positive],
    ['heapTop', 'heap-top', positive],
  ]) {
    const series = count.metrics?.[name];
    if (!series || !oneModule || (count.header.memories ?? []).length !== 1) continue;
    for (let k = 0; k < series.iter.length; k++) {
      const i = series.iter[k] - (count.firstIteration ?? 0);
      if (i >= 0 && i < n && usable(k, series.value[k]) && count.live[i] > series.value[k]) {
        found.push(at(i, series.value[k], limit));
        break;
      }
    }
  }
  const { iter, bytes } = count.memory;
  if (bytes.length > 0) {
    for (let i = 0, k = 0; i < n; i++) {
      while (k + 1 < iter.length && iter[k + 1] - (count.firstIteration ?? 0) <= i) k++;
      if (count.live[i] > bytes[k]) {
        found.push(at(i, bytes[k], 'memory'));
        break;
      }
    }
  }
  return found.sort((a, b) => a.iteration - b.iteration)[0] ?? null;
}

/**
 * Whether a counting pass's live bytes can judge a leak: it wrapped entry
 * points, in every module they cover the allocator's core, and its frees
 * (or null: not known) do not belie them (unmatchedFrees). Logs written
 * before coverage was recorded: when any entry point was wrapped.
 */
export function coverageComplete(header, frees = null) {
  const instrumented = header.instrumented ?? [];
  if (!instrumented.some((names) => names.length > 0)) return false;
  if (!header.coverage) return true;
  return header.coverage.every((c) => c.complete) && !unmatchedFrees(header, frees);
}

/**
 * Checks the exact per-call counts against budgets ({ all, ops } per kind;
 * see src/options/parsers.js parseBudget). Returns one finding per broken budget, at the
 * first call that broke it.
 */
export function checkBudgets(count, budgets) {
  const findings = [];
  const ops = count.header.ops;
  const n = Math.min(count.calls, count.allocRecords ?? 0);
  for (const [kind, values] of [
    ['allocs', count.allocs],
    ['bytes', count.allocBytes],
  ]) {
    const budget = budgets?.[kind];
    if (!budget) continue;
    const limits = ops.map((o) => budget.ops[o.name] ?? budget.all);
    for (let i = 0; i < n; i++) {
      const limit = limits[count.op[i]];
      if (limit === null || limit === undefined || values[i] <= limit) continue;
      const op = ops[count.op[i]].name;
      findings.push({
        kind: 'budget',
        series: `${kind}-per-call`,
        window: { from: i, to: i + 1 },
        op,
        iteration: i,
        value: values[i],
        limit,
      });
      break;
    }
  }
  return findings;
}

/**
 * Which ops' calls grew linear memory (timed pass) and, with a counting
 * pass, how many live bytes each op left behind.
 */
export function growthAttribution(data, allocationSummary) {
  const ops = data.header.ops;
  const events = new Float64Array(ops.length);
  const grown = new Float64Array(ops.length);
  const { iter, bytes } = data.memory;
  for (let k = 1; k < iter.length; k++) {
    const i = iter[k];
    if (!(data.flags[i] & FLAG.grew)) continue;
    events[data.op[i]]++;
    grown[data.op[i]] += bytes[k] - bytes[k - 1];
  }
  return ops.map((o, k) => ({
    op: o.name,
    growthEvents: events[k],
    grownBytes: grown[k],
    liveLeftBehind: allocationSummary ? allocationSummary.ops[k].liveLeftBehind : null,
  }));
}
