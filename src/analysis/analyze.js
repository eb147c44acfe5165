// Turns a result folder's logs into summary.json and the reports: the base
// summary, the counting pass's allocations, the trend verdicts, the exit
// code, then figures, report.html, summary.md and junit.xml.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT } from '../cli/exit-codes.js';
import { writeReports } from '../report/report.js';
import { checkBudgets, growthAttribution, summarizeAllocations } from './allocations.js';
import { readRun } from './log-reader.js';
import { buildSummary } from './summary.js';
import { analyzeRun } from './verdict.js';

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
 * scenario's stats(), else the counting pass, else the allocator's own
 * statistics (mallinfo, emmalloc); heap bytes from stats(), else the
 * allocator; the JS heap as retained after full GCs (the sampled heap also
 * holds garbage not yet collected; no full GC during the run: untested).
 */
function verdictInput(data, allocations) {
  const m = data.metrics;
  const counted = allocations?.liveSeries;
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
 * Writes dir/summary.json; when the folder cannot take it (a full disk, a
 * read-only folder), prints the summary on stderr with the reason instead.
 * Returns true when written.
 */
export function writeSummaryOrPrint(dir, summary) {
  const text = `${JSON.stringify(summary, null, 2)}\n`;
  try {
    writeFileSync(join(dir, 'summary.json'), text);
    return true;
  } catch (err) {
    process.stderr.write(
      `wasm-soak: cannot write summary.json in ${dir}: ${err.message}; the summary follows.\n${text}`,
    );
    return false;
  }
}

/** Marks summary as cut short by a signal that came during the analysis or the reports. */
function markInterrupted(summary, interrupt, figures) {
  const first = interrupt?.first;
  if (!first) return;
  const cutShort =
    {
      run: ['the run'],
      'counting pass': ['the counting pass'],
      analysis: figures ? ['figures'] : [],
      reports: figures ? ['figures'] : [],
    }[first.during] ?? [];
  summary.interrupted = { signal: first.signal, during: first.during, cutShort };
  summary.exitCode = EXIT.INTERRUPTED;
}

/**
 * Reads dir/samples.wslog (and dir/samples-count.wslog when a counting pass
 * ran), analyses them and writes dir/summary.json and the reports. cfg:
 * { warmup, failOn, timeThreshold, budgets, formats, requirePlots }; run: the
 * timed pass's outcome { status, reason, phase, error }; count: the counting
 * pass's outcome or null. summary.json is written before the reports, so a
 * failing plot never loses the analysis. Returns the summary.
 */
export async function analyzeResult(dir, { cfg, run, count = null, interrupt = null }) {
  // A signal from here on: finish the analysis and the text reports, skip
  // the figures (the slow part); a second one stops at once.
  const skipFigures = new AbortController();
  interrupt?.enter('analysis', {
    message: 'finishing the analysis (the figures will be skipped)',
    stop: () => skipFigures.abort(),
    now: () =>
      writeSummaryOrPrint(dir, {
        schema: 'wasm-soak-summary',
        version: 1,
        status: run.status,
        exitCode: EXIT.INTERRUPTED,
        error: null,
        interrupted: { during: 'analysis', cutShort: ['analysis', 'reports'], recover: `wasm-soak report ${dir}` },
      }),
  });
  await interrupt?.checkpoint();
  const data = readRun(join(dir, 'samples.wslog'));
  await interrupt?.checkpoint();
  const countLog = join(dir, 'samples-count.wslog');
  const counted = existsSync(countLog) ? readRun(countLog, { allocs: true }) : null;
  const allocations = counted ? summarizeAllocations(counted) : null;
  const { input, liveSource } = verdictInput(data, allocations);
  const declared = (data.header.memories ?? []).map((m) => m.maximumBytes);
  const verdict = analyzeRun(input, {
    warmup: cfg.warmup,
    timeThreshold: cfg.timeThreshold,
    memoryMaximumBytes:
      declared.length > 0 && declared.every((d) => d > 0) ? declared.reduce((a, b) => a + b, 0) : null,
  });
  const budgetFindings = counted ? checkBudgets(counted, cfg.budgets) : [];
  const summary = buildSummary(data, verdict.warmup.iterations, { ...run, exitCode: null });
  summary.warmup = verdict.warmup;
  summary.verdict = verdict.verdict === 'stable' && budgetFindings.length > 0 ? 'budget' : verdict.verdict;
  summary.findings = [...verdict.findings, ...budgetFindings];
  summary.series = verdict.series;
  summary.severityOrder = verdict.severityOrder;
  summary.sources = {
    ...(data.header.sources ?? {}),
    liveBytes: liveSource,
    countingPass: countingPassOf(count, counted),
  };
  summary.allocations = allocations ? allocations.summary : null;
  summary.growthAttribution = growthAttribution(data, allocations?.summary);
  summary.exitCode = exitCodeFor(run.status, summary.findings, cfg.failOn);
  // A counting pass that was asked for and failed loses requested data.
  if (count?.status === 'failed' && summary.exitCode !== EXIT.INTERRUPTED) summary.exitCode = EXIT.FAILED;
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
  const figuresAsked = (cfg.formats ?? ['png']).some((f) => ['png', 'svg', 'html'].includes(f));
  markInterrupted(summary, interrupt, figuresAsked);
  summary.outputs = { log: 'samples.wslog', countLog: counted ? 'samples-count.wslog' : null, summary: 'summary.json' };
  if (!writeSummaryOrPrint(dir, summary)) {
    summary.outputs.summary = null;
    summary.exitCode = summary.exitCode === EXIT.INTERRUPTED ? EXIT.INTERRUPTED : EXIT.FAILED;
  }
  interrupt?.enter('reports', {
    message: 'skipping the figures; writing the summary and the text reports',
    stop: () => skipFigures.abort(),
    now: () => {
      summary.interrupted = { ...summary.interrupted, cutShort: ['reports'], recover: `wasm-soak report ${dir}` };
      summary.exitCode = EXIT.INTERRUPTED;
      writeSummaryOrPrint(dir, summary);
    },
  });
  try {
    // The figures show what the verdicts judged (e.g. live bytes from the
    // counting pass when the module reports none itself); the JS heap line is
    // the retained heap where measured, else the sampled one.
    const figureData = { ...input, metrics: { ...input.metrics, jsHeap: data.metrics.jsHeap ?? EMPTY_SERIES } };
    const reports = await writeReports(dir, figureData, summary, {
      formats: cfg.formats ?? undefined,
      requirePlots: cfg.requirePlots,
      plotTimeoutMs: cfg.plotTimeoutMs,
      signal: skipFigures.signal,
    });
    summary.outputs.figures = reports.figures;
    summary.outputs.plotsSkipped = reports.skipped;
  } catch (err) {
    if (err.code === 'WS_PLOTS_FAILED') {
      summary.outputs.plotsSkipped = err.message;
    } else {
      // A report that cannot be written (a full disk): named, not a crash.
      process.stderr.write(`wasm-soak: cannot write the reports in ${dir}: ${err.message}\n`);
      summary.outputs.reportsError = err.message;
    }
    if (summary.exitCode !== EXIT.INTERRUPTED) summary.exitCode = EXIT.FAILED;
  }
  markInterrupted(summary, interrupt, figuresAsked);
  if (!writeSummaryOrPrint(dir, summary)) summary.outputs.summary = null;
  return summary;
}
