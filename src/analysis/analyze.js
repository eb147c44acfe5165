// The analysis of a run: decoded logs in, the summary out (docs/summary.md).
// Pure: it reads nothing and writes nothing; the result folder's files are
// written by src/report/result.js. The base summary, the counting pass's
// allocations and budgets, the trend verdicts, and the exit code they imply.
import { EXIT } from '../cli/exit-codes.js';
import { checkBudgets, growthAttribution, summarizeAllocations } from './allocations.js';
import { buildSummary } from './summary.js';
import { analyzeRun, verdictOf } from './verdict.js';

/**
 * Exit code for a run's status and findings (README, "Exit codes"). Budget
 * findings always fail: a budget is an explicit gate.
 */
export function exitCodeFor(status, findings, failOn) {
  if (status === 'failed') return EXIT.FAILED;
  if (status === 'interrupted') return EXIT.INTERRUPTED;
  return findings.some((f) => f.kind === 'budget' || failOn.includes(f.kind)) ? EXIT.FINDING : EXIT.OK;
}

const EMPTY_SERIES = { iter: new Float64Array(0), tMs: new Float64Array(0), value: new Float64Array(0) };

/**
 * The series the trend tests judge, best source first: live bytes from the
 * scenario's stats(), else the counting pass when it found the allocator's
 * entry points (exact counts), else the allocator's own statistics
 * (mallinfo, emmalloc). The heap census series are recorded but not judged
 * yet: its samples are time-budgeted, and a fast run's ten or so census
 * points read as "flat" to the trend test, which would turn a leak into
 * fragmentation; heap bytes from stats(), else the allocator;
 * the JS heap as retained after full GCs (the sampled heap also holds
 * garbage not yet collected; no full GC during the run: untested).
 * allocations: summarizeAllocations of the counting pass, or null.
 */
function trendInput(data, allocations = null) {
  const m = data.metrics;
  // A counting pass that found no allocator entry point saw nothing: its
  // flat live bytes are no evidence (a stripped build), so they are not used.
  const found = allocations?.summary.instrumented.some((entryPoints) => entryPoints.length > 0);
  const counted = found ? allocations.liveSeries : undefined;
  const live = m.liveBytes ?? counted ?? m.allocatorLive;
  const heap = m.heapBytes ?? m.allocatorHeap;
  const metrics = { ...m, jsHeap: m.jsHeapAfterGC ?? EMPTY_SERIES };
  if (live) metrics.liveBytes = live;
  if (heap) metrics.heapBytes = heap;
  // Peak live bytes within calls (counting pass), for the memory figure.
  if (live === counted && allocations) metrics.livePeak = allocations.peakSeries;
  let liveSource = null;
  if (m.liveBytes) liveSource = 'stats()';
  else if (counted) liveSource = 'counting pass';
  else if (m.allocatorLive) liveSource = data.header.sources?.allocator?.source ?? 'allocator statistics';
  return { input: { ...data, metrics }, liveSource };
}

/**
 * The trend verdicts of a decoded run under cfg ({ warmup, timeThreshold }),
 * as the summary and the progress line's preliminary verdict both take them:
 * { input, liveSource, trend } with trend from analyzeRun.
 */
export function judgeTrends(data, cfg, allocations = null) {
  const { input, liveSource } = trendInput(data, allocations);
  const declared = (data.header.memories ?? []).map((m) => m.maximumBytes);
  const trend = analyzeRun(input, {
    warmup: cfg.warmup,
    timeThreshold: cfg.timeThreshold,
    memoryMaximumBytes:
      declared.length > 0 && declared.every((d) => d > 0) ? declared.reduce((a, b) => a + b, 0) : null,
  });
  return { input, liveSource, trend };
}

/** What the summary says of the counting pass: null when none was asked for. */
function countingPassOf(count, counted) {
  if (!count && !counted) return null;
  const instrumented = counted?.header.instrumented ?? [];
  const found = instrumented.some((entryPoints) => entryPoints.length > 0);
  return {
    status: count?.status ?? 'completed',
    instrumented,
    error: count?.error ? { message: count.error.message, phase: count.phase ?? null } : null,
    note:
      counted && !found
        ? 'no allocator entry point was found by export name or in the name section (a stripped release build?); use a build that keeps names, e.g. a debug build'
        : null,
  };
}

/**
 * Analyses a run and writes nothing. timed: the decoded timed pass
 * (readRun); counted: the decoded counting pass (readRun with allocs) or
 * null; cfg: { warmup, failOn, timeThreshold, budgets }; run: the timed
 * pass's outcome { status, reason, phase, error, untrackedMemories }; count:
 * the counting pass's outcome or null. Returns { summary, figureData }: the
 * summary (docs/summary.md; outputs.figures and plotsSkipped are the report
 * writers' to fill) and the decoded run as the figures show it.
 */
export function analyze({ timed, counted = null, cfg, run, count = null }) {
  const allocations = counted ? summarizeAllocations(counted) : null;
  const { input, liveSource, trend } = judgeTrends(timed, cfg, allocations);
  const budgetFindings = counted ? checkBudgets(counted, cfg.budgets) : [];
  const summary = buildSummary(timed, trend.warmup.iterations, trend.windows, { ...run, exitCode: null });
  summary.warmup = trend.warmup;
  summary.findings = [...trend.findings, ...budgetFindings];
  // A failed run has no verdict of its own: its findings judge the calls
  // before the failure (summary.error says where it failed), its verdict is "error".
  summary.verdict = run.status === 'failed' ? 'error' : verdictOf(summary.findings);
  summary.series = trend.series;
  summary.severityOrder = trend.severityOrder;
  summary.sources = {
    ...(timed.header.sources ?? {}),
    liveBytes: liveSource,
    countingPass: countingPassOf(count, counted),
  };
  summary.allocations = allocations ? allocations.summary : null;
  summary.growthAttribution = growthAttribution(timed, allocations?.summary);
  summary.exitCode = exitCodeFor(run.status, summary.findings, cfg.failOn);
  // A counting pass that was asked for and failed loses requested data.
  if (count?.status === 'failed' && summary.exitCode !== EXIT.INTERRUPTED) summary.exitCode = EXIT.FAILED;
  // A hung call (the watchdog ended the worker) is named as a finding; the
  // run failed (exit 3) whatever the samples recorded before it say.
  if (run.error?.code === 'WS_EHUNG') {
    const e = summary.error;
    summary.findings.push({
      kind: 'hung-call',
      sentence: run.error.message,
      iteration: e.iteration,
      op: e.op,
      phase: e.phase,
      elapsedMs: e.elapsedMs,
    });
  }
  summary.outputs = { log: 'samples.wslog', countLog: counted ? 'samples-count.wslog' : null, summary: 'summary.json' };
  // The figures show what the verdicts judged (e.g. live bytes from the
  // counting pass when the module reports none itself); the JS heap line is
  // the retained heap where measured, else the sampled one.
  const figureData = { ...input, metrics: { ...input.metrics, jsHeap: timed.metrics.jsHeap ?? EMPTY_SERIES } };
  return { summary, figureData };
}
