// What a baseline keeps of a run, and a run against a baseline (pure: no
// file is read or written here; src/baseline/store.js does that). A
// baseline is what a later comparison needs: the seed (a run against it
// replays the same calls), the target's fingerprint and sizes, the verdict,
// the time per call with the medians of BATCHES equal batches of the
// post-warm-up calls (the noise of the time), the exact counts of the
// counting pass, and the memory high-water mark.
import { addon } from '../addon.js';
import { beyondTolerance } from '../options/parsers.js';
import { DEFAULTS } from '../options/schema.js';
import { BOOTSTRAP, windowRow } from '../protocol.js';

const BATCHES = 32;
/** The fewest batches a time comparison takes (againstBaseline). */
const MIN_BATCHES = 4;

/** The bounds [lo, hi) of batch b of k equal batches of the calls [from, from + span). */
const batchBounds = (from, span, k, b) => [from + Math.floor((b * span) / k), from + Math.floor(((b + 1) * span) / k)];

/**
 * The control's samples of a decoded run as the calls they follow (its
 * iterations over the stride), or an empty array without a control.
 */
function controlCalls(timed) {
  const c = timed.metrics?.controlNs;
  const stride = timed.stride ?? 1;
  return c ? Array.from(c.iter, (i) => i / stride) : [];
}

/**
 * How many equal batches the calls [from, calls) are cut into: BATCHES
 * (fewer for a short run: at least 8 calls each), or, when that leaves a
 * batch with no sample of the machine's control, the most (at least
 * MIN_BATCHES) that each hold one, so that the time is judged against the
 * machine (a short run samples its control every 0.5 ms, less often than
 * BATCHES batches of its calls); the first count when none does.
 */
function batchCount(timed, from) {
  const span = timed.calls - from;
  const most = Math.min(BATCHES, Math.floor(span / 8));
  const at = controlCalls(timed);
  const covered = (k) => {
    let i = 0;
    for (let b = 0; b < k; b++) {
      const [lo, hi] = batchBounds(from, span, k, b);
      while (i < at.length && at[i] < lo) i++;
      if (i === at.length || at[i] >= hi) return false;
    }
    return true;
  };
  for (let k = most; k >= MIN_BATCHES; k--) if (covered(k)) return k;
  return most;
}

/** The medians of k equal batches of the calls [from, calls) of a decoded run. */
function batchMedians(timed, from, k) {
  const n = timed.header.ops.length;
  const span = timed.calls - from;
  const out = [];
  for (let b = 0; b < k; b++) {
    const [lo, hi] = batchBounds(from, span, k, b);
    out.push(windowRow(addon.windowStats(timed.elapsed, timed.op, lo, hi, n), 0).median);
  }
  return out;
}

/**
 * The medians of the machine's control (the reference workload's time,
 * docs/verdicts.md "Time against the machine") over the same k batches as
 * batchMedians, by the calls its samples follow; null when the run measured
 * none or a batch has no sample.
 */
function controlMedians(timed, from, k) {
  const c = timed.metrics?.controlNs;
  if (!c || c.value.length === 0) return null;
  const at = controlCalls(timed);
  const span = timed.calls - from;
  const out = [];
  let i = 0;
  for (let b = 0; b < k; b++) {
    const [lo, hi] = batchBounds(from, span, k, b);
    const values = [];
    while (i < at.length && at[i] < lo) i++;
    for (; i < at.length && at[i] < hi; i++) values.push(c.value[i]);
    if (values.length === 0) return null;
    values.sort((x, y) => x - y);
    out.push(values[values.length >> 1]);
  }
  return out;
}

/** The exact counts of the counting pass, or null (also for a pass cut short: they cover part of the run). */
function countsOf(summary) {
  const a = summary.allocations;
  if (!a?.calls || a.partial || !a.instrumented.some((e) => e.length > 0)) return null;
  return { calls: a.calls, allocs: a.allocs.total, bytes: a.bytes.total, liveEnd: a.live.end };
}

/**
 * The baseline record of an analysed run: summary (analyze's), timed (its
 * decoded timed log), sizes ({ raw, gzip, brotli } of a module, or null),
 * name. Returns the baseline.json object (docs/summary.md, "baseline").
 */
export function baselineRecord(summary, timed, sizes, name) {
  const from = Math.min(summary.warmup.iterations, timed.calls);
  const k = batchCount(timed, from);
  const time = windowRow(addon.windowStats(timed.elapsed, timed.op, from, timed.calls, timed.header.ops.length), 0);
  return {
    schema: 'wasm-soak-baseline',
    version: 1,
    name,
    createdAt: new Date().toISOString(),
    seed: summary.seed,
    target: { name: summary.name, kind: summary.target.kind, ...(summary.target.module ?? summary.target.scenario) },
    sizes,
    config: { calls: timed.header.config.calls, args: timed.header.config.args, iterations: timed.calls },
    verdict: summary.verdict,
    findings: summary.findings.map((f) => f.kind),
    time: {
      calls: time.n,
      median: time.median,
      p90: time.p90,
      p99: time.p99,
      batchMedians: batchMedians(timed, from, k),
      controlMedians: controlMedians(timed, from, k),
    },
    counts: countsOf(summary),
    memory: { highWater: summary.memory.max, growthEvents: summary.memory.growthEvents },
    reproduce: summary.reproduce,
  };
}

/**
 * A run against a baseline (both baselineRecord objects, the run's made
 * now): the time change with its 95 % bootstrap interval from the two runs'
 * batch medians, each over its machine's control when both runs measured
 * one ("within noise" when it includes no change), the exact count
 * differences (when both runs counted), the high-water mark, and the
 * regressions beyond gates ({ slower: fraction | null, moreAllocs,
 * higherWater, moreAllocsTolerance, higherWaterTolerance: the options'
 * tolerances, their defaults when absent }): findings of kind regression, which the judge reads
 * (src/analysis/judge.js). Returns summary.baseline; its verdict change is
 * filled once the run is judged (verdictChange).
 * Long: one comparison per part of the record (time, counts, sizes, high-water), in summary.baseline's order.
 */
export function againstBaseline(run, base, { gates, seed, dir }) {
  const log = (xs) => Float64Array.from(xs, Math.log);
  let time = null;
  const change = (a, b) => {
    const w = addon.bootstrapChange(a, b, BOOTSTRAP.replicates, BOOTSTRAP.level, seed);
    return { change: w.change, low: w.low, high: w.high };
  };
  if (run.time.batchMedians.length >= MIN_BATCHES && base.time.batchMedians.length >= MIN_BATCHES) {
    // Against the machine when both runs measured its control over every
    // batch: each batch's time over its control's, so that a machine slower
    // tonight than the night the baseline was saved is not a regression.
    const controlled =
      run.time.controlMedians?.length === run.time.batchMedians.length &&
      base.time.controlMedians?.length === base.time.batchMedians.length;
    const relative = (t) => Float64Array.from(t.batchMedians, (m, i) => Math.log(m / t.controlMedians[i]));
    const callsAlone = change(log(base.time.batchMedians), log(run.time.batchMedians));
    const decided = controlled ? change(relative(base.time), relative(run.time)) : callsAlone;
    time = {
      baseline: base.time.median,
      current: run.time.median,
      ...decided,
      level: BOOTSTRAP.level,
      method: controlled ? 'against the machine' : 'calls alone',
      callsAlone,
      machine: controlled ? change(log(base.time.controlMedians), log(run.time.controlMedians)) : null,
      withinNoise: decided.low <= 0 && decided.high >= 0,
    };
  }
  // Exact differences need the same calls (same seed and iterations);
  // otherwise only the rates per call are comparable.
  const sameCalls = run.counts && base.counts && run.counts.calls === base.counts.calls && run.seed === base.seed;
  const perCall = (c, k) => c[k] / c.calls;
  const counts =
    run.counts && base.counts
      ? {
          exact: sameCalls,
          allocs: sameCalls ? run.counts.allocs - base.counts.allocs : null,
          bytes: sameCalls ? run.counts.bytes - base.counts.bytes : null,
          allocsPerCall: perCall(run.counts, 'allocs') - perCall(base.counts, 'allocs'),
          bytesPerCall: perCall(run.counts, 'bytes') - perCall(base.counts, 'bytes'),
          liveEnd: run.counts.liveEnd - base.counts.liveEnd,
        }
      : null;
  const highWater = { baseline: base.memory.highWater, current: run.memory.highWater };
  const regressions = [];
  // The gates a run broke (src/report/sentences.js words them).
  if (time && gates.slower !== null && !time.withinNoise && time.low > gates.slower)
    regressions.push({ kind: 'regression', metric: 'time', gate: gates.slower });
  // More allocations: over the same calls, else the per-call rise over this run's calls.
  const allocTol = gates.moreAllocsTolerance ?? DEFAULTS.moreAllocsTolerance;
  const moreAllocs =
    counts &&
    (counts.exact
      ? beyondTolerance(counts.allocs, base.counts.allocs, allocTol)
      : beyondTolerance(
          counts.allocsPerCall * run.counts.calls,
          (base.counts.allocs / base.counts.calls) * run.counts.calls,
          allocTol,
        ));
  if (gates.moreAllocs && moreAllocs)
    regressions.push({ kind: 'regression', metric: 'allocations', calls: run.counts.calls, tolerance: allocTol });
  const waterTol = gates.higherWaterTolerance ?? DEFAULTS.higherWaterTolerance;
  if (gates.higherWater && beyondTolerance(highWater.current - highWater.baseline, highWater.baseline, waterTol))
    regressions.push({ kind: 'regression', metric: 'high-water', tolerance: waterTol });
  return {
    name: base.name,
    dir,
    createdAt: base.createdAt,
    sameTarget: run.target.sha256 === base.target.sha256,
    sameSeed: run.seed === base.seed,
    sameConfig: JSON.stringify(run.config) === JSON.stringify(base.config),
    time,
    counts,
    highWater,
    sizes:
      run.sizes && base.sizes
        ? {
            raw: run.sizes.raw - base.sizes.raw,
            gzip: run.sizes.gzip - base.sizes.gzip,
            brotli: run.sizes.brotli - base.sizes.brotli,
          }
        : null,
    verdict: null, // the judge's verdict against the baseline's: analyze fills it (verdictChange)
    regressions,
  };
}

/** How a run's verdict changed from a baseline's: null when it did not, else { from, to }. */
export const verdictChange = (from, to) => (from === to ? null : { from, to });
