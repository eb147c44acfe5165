// The analysis of a run: decoded logs in, the summary out (docs/summary.md).
// Pure: it reads nothing and writes nothing; the result folder's files are
// written by src/report/result.js. The base summary, the counting pass's
// allocations and budgets, the trend verdicts, and every finding handed to
// the one judge (judge.js) for the verdict and the exit code.

import { CENSUS_KIND, FINDING_KINDS, WASM32_MAX_BYTES } from '../protocol.js';
import { againstBaseline, baselineRecord, verdictChange } from './against-baseline.js';
import {
  checkBudgets,
  countCoverage,
  coverageComplete,
  growthAttribution,
  summarizeAllocations,
  unmatchedFrees,
} from './allocations.js';
import { leakedBlocks } from './blocks.js';
import { censusSummary, judgingMemory } from './census.js';
import { censusMetricsOf } from './census-metrics.js';
import { COUNT_CUT_SHORT, logCountOutcome } from './config.js';
import { withEvidence } from './finding-evidence.js';
import { memoryGrowSource, withGrowFailures } from './grow-failures.js';
import { growsWithCalls } from './grows-with-calls.js';
import { judge, runStatus } from './judge.js';
import { explainedByObjects, objectsSummary } from './objects.js';
import { sitesSummary } from './sites.js';
import { buildSummary } from './summary.js';
import { threadsFacts, withPoolGrowth } from './threads.js';
import { timeSplitSummary } from './time-split.js';
import { timedMedians } from './timed-medians.js';
import { analyzeRun } from './verdict.js';

const EMPTY_SERIES = { iter: new Float64Array(0), tMs: new Float64Array(0), value: new Float64Array(0) };

// Where the live bytes the verdicts judge came from (summary.sources.liveBytes,
// worded by src/report/fact-words.js): the scenario's stats(), the counting
// pass, the allocator's own statistics, or the heap census: its walk of the
// chunks, its proof of a heap that never frees (a bump allocator: its growth
// is what was allocated, all of it live; docs/allocator.md), or its walks
// after a full GC whose finalizers ran (what the application holds;
// src/worker/worker.js, heldSample).
export const LIVE_SOURCE = Object.freeze({
  stats: 'stats',
  counting: 'counting-pass',
  allocator: 'allocator',
  census: 'census',
  censusNeverFrees: 'census-never-frees',
  censusHeld: 'census-held',
});
const CENSUS_SOURCES = new Set([LIVE_SOURCE.census, LIVE_SOURCE.censusNeverFrees, LIVE_SOURCE.censusHeld]);
// Held samples the live series needs to stand in for the census's own.
const MIN_HELD_SAMPLES = 12;

/** Whether census series c (censusMetricsOf's) last recognised a heap that never frees. */
function neverFrees(c) {
  const kinds = c.censusKind?.value ?? [];
  for (let i = kinds.length - 1; i >= 0; i--) if (kinds[i] !== CENSUS_KIND.none) return kinds[i] === CENSUS_KIND.bump;
  return false;
}

/**
 * Whether the counting pass's live bytes are evidence: its entry points
 * cover the allocator's core, it saw allocations (a pass that saw none
 * while the module ran has missed the allocator, whatever it wrapped), and
 * it covered the whole run (a pass cut short says nothing of the calls
 * after it, where the trend windows are: it never stands in for the timed
 * pass's own sources), and its live bytes never exceeded the heap or the
 * memory that holds them (allocations.js liveContradiction: a pass that
 * missed frees).
 */
function countedLiveUsable(allocations) {
  const a = allocations?.summary;
  return Boolean(a?.complete && !a.partial && a.allocs.total > 0 && !a.contradiction);
}

/**
 * The series the trend tests judge, best source first: live bytes from the
 * scenario's stats(), else the counting pass when it wrapped the allocator's
 * core (exact counts; a pass that found nothing, or only boundary wrappers
 * such as wasm-bindgen's, is no evidence), else the allocator's own
 * statistics (mallinfo, emmalloc), else the heap census (live bytes walked
 * in linear memory) of the memory judgingMemory picks, whose free bytes
 * between blocks are then the holes too; heap bytes likewise from stats(),
 * the allocator, or the span of the heap's segments in that census. The JS heap as retained after
 * full GCs (the sampled heap also holds garbage not yet collected; no full
 * GC during the run: untested). A source that saw nothing gives no series:
 * missing live bytes are never read as flat ones.
 * allocations: summarizeAllocations of the counting pass, or null.
 */
function trendInput(data, allocations = null) {
  const m = data.metrics;
  const counted = countedLiveUsable(allocations) ? allocations.liveSeries : undefined;
  const k = judgingMemory(data);
  const c = k >= 0 ? censusMetricsOf(m, k) : {};
  const held = c.censusLiveHeld?.value.length >= MIN_HELD_SAMPLES ? c.censusLiveHeld : undefined;
  const census = c.censusLive?.value.length > 0 ? (held ?? c.censusLive) : undefined;
  const live = m.liveBytes ?? counted ?? m.allocatorLive ?? census;
  const heap = m.heapBytes ?? m.allocatorHeap ?? (census ? c.censusHeap : undefined);
  const metrics = { ...m, censusFree: c.censusFree, jsHeap: m.jsHeapAfterGC ?? EMPTY_SERIES };
  if (live) metrics.liveBytes = live;
  if (heap) metrics.heapBytes = heap;
  // Peak live bytes within calls (counting pass), for the memory figure.
  if (live === counted && allocations) metrics.livePeak = allocations.peakSeries;
  let liveSource = null;
  if (m.liveBytes) liveSource = LIVE_SOURCE.stats;
  else if (counted) liveSource = LIVE_SOURCE.counting;
  else if (m.allocatorLive) liveSource = LIVE_SOURCE.allocator;
  else if (census)
    liveSource = neverFrees(c) ? LIVE_SOURCE.censusNeverFrees : held ? LIVE_SOURCE.censusHeld : LIVE_SOURCE.census;
  return { input: { ...data, metrics }, liveSource, censusMemory: k };
}

/**
 * The trend verdicts of a decoded run under cfg ({ warmup, timeThreshold }),
 * as the summary and the progress line's preliminary verdict both take them:
 * { input, liveSource, censusMemory, trend } (censusMemory: the memory whose
 * census the verdicts read, -1 for none) with trend from analyzeRun, its findings
 * joined by the failed memory.grow calls of the run (else of the counting
 * pass, countedGrows) and its verdict theirs.
 */
export function judgeTrends(data, cfg, allocations = null, countedGrows = null) {
  const { input, liveSource, censusMemory } = trendInput(data, allocations);
  const memories = data.header.memories ?? [];
  const declared = memories.map((m) => m.maximumBytes);
  // Live bytes from one memory's census run into that memory's limit.
  const fromCensus = CENSUS_SOURCES.has(liveSource);
  const censused = fromCensus && memories.length > 1 ? memories[censusMemory] : undefined;
  const trend = analyzeRun(input, {
    warmup: cfg.warmup,
    timeThreshold: cfg.timeThreshold,
    memoryMaximumBytes:
      declared.length > 0 && declared.every((d) => d > 0) ? declared.reduce((a, b) => a + b, 0) : null,
    heapMaximumBytes: censused ? (censused.maximumBytes ?? WASM32_MAX_BYTES) : null,
  });
  trend.findings = withGrowFailures(trend.findings, data.header, data.growFailures, countedGrows);
  trend.verdict = judge({ findings: trend.findings, inconclusive: trend.inconclusive }).verdict;
  return { input, liveSource, censusMemory, trend };
}

/** census (censusSummary's, or null) with the memory it read: { index, label, module }. */
function withCensusMemory(census, m, index) {
  return census && { ...census, memory: { index, label: m?.label ?? null, module: m?.module ?? null } };
}

/**
 * What the summary says of the counting pass: null when none was asked for.
 * count: its outcome; counted: its decoded log (or null: it never started).
 */
function countingPassOf(count, counted, allocations) {
  if (!count && !counted) return null;
  const instrumented = counted?.header.instrumented ?? [];
  const found = instrumented.some((entryPoints) => entryPoints.length > 0);
  const cover = counted ? countCoverage(counted) : null;
  const contradiction = allocations?.summary.contradiction ?? null;
  // Why its live bytes are no evidence, if they are not (src/report/sentences.js words it).
  let caveat = null;
  if (cover?.partial) caveat = 'partial';
  else if (counted && !found) caveat = 'nothing-found';
  else if (contradiction) caveat = 'inconsistent';
  else if (counted && (counted.header.coverage ?? []).some((c) => c.noRealloc)) caveat = 'no-realloc';
  else if (counted && !coverageComplete(counted.header)) caveat = 'boundary-only';
  else if (counted && unmatchedFrees(counted.header, count?.frees)) caveat = 'unmatched-frees';
  else if (allocations && !countedLiveUsable(allocations)) caveat = 'no-allocations';
  return {
    status: count.status,
    calls: cover?.calls ?? 0,
    ofCalls: cover?.of ?? null,
    partial: cover?.partial ?? true,
    instrumented,
    entryPoints: (counted?.header.coverage ?? []).flatMap((c) => c.found),
    complete: counted ? coverageComplete(counted.header, count?.frees) && !cover.partial : false,
    frees: count?.frees ?? null,
    contradiction,
    error: count?.error ? countError(count) : null,
    caveat,
  };
}

/**
 * The counting pass's error as the summary keeps it: its message (the
 * run's), where it came, and for one the analysis inferred from the log
 * alone (COUNT_CUT_SHORT) its code and whether the log was closed, which
 * the report words (the calls it covered are the pass's own).
 */
function countError({ error: e, phase }) {
  const inferred = e.code === COUNT_CUT_SHORT ? { code: e.code, closed: e.closed } : {};
  return { message: e.message, phase: phase ?? null, ...inferred };
}

/**
 * The memory-exhausted finding of a run that stopped because the module's
 * allocator returned NULL (or no usable block) for a buffer argument
 * (WS_EALLOC): [] for any other run. e: the summary's error; err: the run's;
 * onlyOp: the op when the run has one (the call that was about to run).
 */
function allocatorExhausted(e, err, onlyOp) {
  if (err?.code !== 'WS_EALLOC' || !e) return [];
  const bytes = Number.isFinite(err.allocBytes) && err.allocBytes > 0 ? err.allocBytes : null;
  return [
    {
      kind: 'memory-exhausted',
      series: 'allocator',
      iteration: e.iteration,
      op: e.op ?? onlyOp,
      bytes,
      limitBytes: null,
    },
  ];
}

/**
 * The hung-call finding of a run whose watchdog ended a call (WS_EHUNG): []
 * for any other run. e: the summary's error (whose message the report
 * quotes for it); err: the run's.
 */
function hungCall(e, err) {
  if (err?.code !== 'WS_EHUNG' || !e) return [];
  return [
    {
      kind: 'hung-call',
      iteration: e.iteration,
      op: e.op,
      phase: e.phase,
      elapsedMs: e.elapsedMs,
    },
  ];
}

/**
 * A failed run's verdict on the calls it recorded up to the failure: the
 * judge's on the findings that name a verdict (a hung call is the failure
 * itself); null for a run that did not fail or recorded no call.
 */
function recordedVerdict(summary) {
  if (summary.status !== 'failed' || !(summary.samples?.calls > 0)) return null;
  const findings = summary.findings.filter((f) => FINDING_KINDS.includes(f.kind));
  return judge({ findings, inconclusive: summary.inconclusive }).verdict;
}

/**
 * The run with its iterations counted from its first call, as the trend
 * windows count calls: the same run unless a test hook started the loop's
 * counter past 0 (docs/log-format.md, "Iterations").
 */
function fromFirstCall(data) {
  const first = data.firstIteration ?? 0;
  if (!first) return data;
  const shift = (xs) => Float64Array.from(xs, (x) => x - first);
  const metrics = Object.fromEntries(Object.entries(data.metrics).map(([k, m]) => [k, { ...m, iter: shift(m.iter) }]));
  return { ...data, memory: { ...data.memory, iter: shift(data.memory.iter) }, metrics };
}

/**
 * What in the decoded timed pass logged, judged under cfg, must recur in a
 * second timed pass (the replica) before it stands: 'slowdown' (the same
 * calls again: the same seed), 'memory' (a memory finding or still-rising
 * question that a working set's own wander or a GC's timing could explain,
 * C's mustRecur: another seed, since the same calls wander the same way),
 * or null for nothing. Then run.js runs the replica. A slowdown beside
 * memory that grows with the calls (growsWithCalls) is the growing heap's
 * cost: it recurs with the heap, and that finding outranks it, so it is
 * not timed again (docs/verdicts.md, "A finding must recur").
 */
export function toReplicate(logged, cfg) {
  const { findings, mustRecur } = judgeTrends(fromFirstCall(logged), cfg).trend;
  if (findings.some((f) => f.kind === 'slowdown') && !findings.some(growsWithCalls)) return 'slowdown';
  return mustRecur ? 'memory' : null;
}

/**
 * Analyses a run and writes nothing. timed: the decoded timed pass
 * (decodeLog); counted: the decoded counting pass (decodeLog with allocs) or
 * null; cfg: { warmup, failOn, timeThreshold, budgets }; run: the timed
 * pass's outcome { status, reason, phase, error, untrackedMemories }; count:
 * the counting pass's outcome or null; replica: the decoded second timed
 * pass (run.js runs one when the first flagged what toReplicate names) or null;
 * onJudged(facts), when given, is told the verdicts' warm-up, series and
 * time windows ({ warmup, series, time } as the summary holds them) as soon
 * as they are known (the report starts its figures' quantiles then). Returns
 * { summary, figureData }: the summary (docs/summary.md; outputs.figures and
 * plotsSkipped are the report writers' to fill) and the decoded run as the
 * figures show it.
 * Long: the pipeline's steps in the summary's order, each a call.
 */
export function analyzeFacts({
  timed: logged,
  counted = null,
  replica = null,
  sites: rawSites = null,
  blocks: rawBlocks = null,
  objects: rawObjects = null,
  timeSplit: rawTimeSplit = null,
  cfg,
  run,
  count: given = null,
  onJudged = null,
}) {
  // A slowdown (or growth held by peaks) must recur in the second timed pass, when one ran to its end
  // (one cut short says nothing of the calls after it: the first pass's word stands).
  const whole = replica && replica.calls >= logged.calls ? fromFirstCall(replica) : null;
  const timed = { ...fromFirstCall(logged), replica: whole };
  // Without the run's word on its counting pass (report, the library), its log tells.
  const count = given ?? (counted ? logCountOutcome(counted, run.status) : null);
  const allocations = counted ? summarizeAllocations(counted, count?.frees) : null;
  const { input, liveSource, censusMemory, trend } = judgeTrends(timed, cfg, allocations, counted?.growFailures);
  onJudged?.({ warmup: trend.warmup, series: trend.series, time: trend.windows });
  const budgetFindings = counted ? checkBudgets(counted, cfg.budgets) : [];
  const summary = buildSummary(timed, trend.warmup.iterations, trend.windows, { ...run, exitCode: null });
  summary.warmup = trend.warmup;
  const memories = timed.header.memories ?? [];
  const census = withCensusMemory(
    censusSummary(timed, { from: trend.warmup.iterations, to: timed.calls }, Math.max(censusMemory, 0)),
    memories[Math.max(censusMemory, 0)],
    Math.max(censusMemory, 0),
  );
  // A counting pass cut short says nothing of the calls after it: its sites name no growth.
  const countedWhole = counted ? !countCoverage(counted).partial : false;
  const countingPass = countingPassOf(count, counted, allocations);
  const sites = countedWhole
    ? sitesSummary(rawSites, {
        windowFrom: trend.warmup.iterations,
        ops: timed.header.ops ?? [],
        caveat: countingPass?.caveat ?? null,
      })
    : null;
  const ops = timed.header.ops ?? [];
  const leaked = census ? leakedBlocks(rawBlocks, census.memory.index) : null;
  const exhausted = allocatorExhausted(summary.error, run.error, ops.length === 1 ? ops[0].name : null);
  // The glue's objects by class, and what they say of the memory findings.
  const objects = objectsSummary(rawObjects, trend.warmup.iterations);
  const explained = explainedByObjects(trend, timed, {
    objects,
    censusMemory,
    heldLive: liveSource === LIVE_SOURCE.censusHeld,
  });
  const { garbage } = explained;
  const wasmGc = timed.header.sources?.gc ?? null;
  summary.findings = [
    ...exhausted,
    ...explained.findings.map((f) =>
      withEvidence(f, {
        wasmGc,
        census,
        neverFrees: liveSource === LIVE_SOURCE.censusNeverFrees,
        memories,
        censusMemory,
        sites,
        leaked,
      }),
    ),
    ...budgetFindings,
    ...hungCall(summary.error, run.error),
  ];
  summary.inconclusive = trend.inconclusive;
  const threads = threadsFacts(run.threads, trend.warmup.iterations, {
    heapSeries: timed.metrics.threadsJsHeap,
    calls: summary.iterations.completed,
    ops,
  });
  summary.findings = summary.findings.map((f) => withPoolGrowth(f, threads.notes));
  summary.notes = [...explained.notes, ...threads.notes];
  summary.objects = objects && { ...objects, garbage };
  summary.verdict = null; // the judge's, below, once every finding is in
  summary.series = trend.series;
  summary.severityOrder = trend.severityOrder;
  summary.sources = {
    ...(timed.header.sources ?? {}),
    liveBytes: liveSource,
    countingPass,
    memoryGrow: memoryGrowSource(timed.header, counted),
    ...threads.source,
  };
  summary.census = census && {
    ...census,
    blocks: leaked && { markedAt: leaked.markedAt, picked: leaked.blocks.length },
  };
  // Recognised only once the module had a heap: say so where the header could not.
  if (census?.recognised && !summary.sources.census?.source) {
    // The report words its source from summary.census (src/report/fact-words.js).
    const { enable, ...header } = summary.sources.census ?? {};
    summary.sources.census = { ...header, source: null, kind: census.kind };
  }
  summary.allocations = allocations ? { ...allocations.summary, timedMedians: timedMedians(input) } : null;
  summary.sites = sites;
  summary.timeSplit = timeSplitSummary(rawTimeSplit, timed, trend.warmup.iterations, ops);
  summary.growthAttribution = growthAttribution(timed, allocations?.summary);
  // --baseline: the run against the saved one; its regressions beyond the
  // gates are findings of kind regression (summary.baseline.regressions).
  if (cfg.baseline?.record) {
    const current = baselineRecord(summary, timed, cfg.baseline.sizes, null);
    const gates = {
      slower: cfg.failIfSlower,
      moreAllocs: cfg.failIfMoreAllocs,
      higherWater: cfg.failIfHigherWater,
      moreAllocsTolerance: cfg.moreAllocsTolerance,
      higherWaterTolerance: cfg.higherWaterTolerance,
    };
    summary.baseline = againstBaseline(current, cfg.baseline.record, {
      gates,
      seed: summary.seed,
      dir: cfg.baseline.dir,
    });
  }
  // The one decision: a failed run's verdict is "error" (its findings judge
  // the calls before the failure, summary.error says where it failed); the
  // module's allocator running dry (WS_EALLOC) is a finding about the
  // module, judged as a completed run; a requested counting pass that
  // failed exits 3 (judge.js, docs/verdicts.md "The judge").
  const judged = judge({
    status: runStatus(run, count),
    findings: [...summary.findings, ...(summary.baseline?.regressions ?? [])],
    inconclusive: summary.inconclusive,
    failOn: cfg.failOn,
  });
  summary.verdict = judged.verdict;
  summary.exitCode = judged.exitCode;
  summary.recordedVerdict = recordedVerdict(summary);
  if (summary.baseline) summary.baseline.verdict = verdictChange(cfg.baseline.record.verdict, summary.verdict);
  summary.outputs = {
    log: 'samples.wslog',
    countLog: counted ? 'samples-count.wslog' : null,
    replicaLog: replica ? 'samples-replica.wslog' : null,
    sites: rawSites ? 'sites.json' : null,
    blocks: rawBlocks ? 'blocks.json' : null,
    objects: rawObjects ? 'objects.json' : null,
    summary: 'summary.json',
  };
  // The figures show what the verdicts judged (e.g. live bytes from the
  // counting pass when the module reports none itself); the JS heap line is
  // the retained heap where measured, else the sampled one.
  const figureData = { ...input, metrics: { ...input.metrics, jsHeap: timed.metrics.jsHeap ?? EMPTY_SERIES } };
  return { summary, figureData };
}
