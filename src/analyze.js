// Turns a result folder's log into summary.json and the reports: the base
// summary, then the trend verdicts, then the exit code, then figures,
// report.html, summary.md and junit.xml.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRun } from './log.js';
import { buildSummary } from './summary.js';
import { writeReports } from './report.js';
import { analyzeRun } from './verdict.js';
import { EXIT } from './errors.js';

/** Exit code for a run's status and findings (README, "Exit codes"). */
export function exitCodeFor(status, findings, failOn) {
  if (status === 'failed') return EXIT.FAILED;
  if (status === 'interrupted') return EXIT.INTERRUPTED;
  return findings.some((f) => failOn.includes(f.kind)) ? EXIT.FINDING : EXIT.OK;
}

const writeSummary = (dir, summary) => writeFileSync(join(dir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);

/**
 * Reads dir/samples.wslog, analyses it and writes dir/summary.json and the
 * reports. cfg: { warmup, failOn, timeThreshold, formats, requirePlots };
 * run: the runner's outcome { status, reason, phase, error }. summary.json is
 * written before the reports, so a failing plot never loses the analysis.
 * Returns the summary (exitCode included).
 */
export async function analyzeResult(dir, { cfg, run }) {
  const data = readRun(join(dir, 'samples.wslog'));
  const declared = (data.header.memories ?? []).map((m) => m.maximumBytes);
  // The trend tests judge the JS heap by what survives GCs (the sampled heap
  // also holds garbage not yet collected); no GC during the run: untested.
  const empty = { iter: new Float64Array(0), tMs: new Float64Array(0), value: new Float64Array(0) };
  const retained = { ...data, metrics: { ...data.metrics, jsHeap: data.metrics.jsHeapAfterGC ?? empty } };
  const verdict = analyzeRun(retained, {
    warmup: cfg.warmup,
    timeThreshold: cfg.timeThreshold,
    memoryMaximumBytes: declared.length > 0 && declared.every((d) => d > 0) ? declared.reduce((a, b) => a + b, 0) : null,
  });
  const summary = buildSummary(data, verdict.warmup.iterations, { ...run, exitCode: null });
  summary.warmup = verdict.warmup;
  summary.verdict = verdict.verdict;
  summary.findings = verdict.findings;
  summary.series = verdict.series;
  summary.severityOrder = verdict.severityOrder;
  summary.exitCode = exitCodeFor(run.status, summary.findings, cfg.failOn);
  summary.outputs = { log: 'samples.wslog', summary: 'summary.json' };
  writeSummary(dir, summary);
  try {
    const reports = await writeReports(dir, data, summary, { formats: cfg.formats ?? undefined, requirePlots: cfg.requirePlots });
    summary.outputs.figures = reports.figures;
    summary.outputs.plotsSkipped = reports.skipped;
  } catch (err) {
    if (err.code !== 'WS_PLOTS_FAILED') throw err;
    summary.outputs.plotsSkipped = err.message;
    summary.exitCode = EXIT.FAILED;
  }
  writeSummary(dir, summary);
  return summary;
}
