// Turns a result folder's log into summary.json and the reports: the base
// summary, then the trend verdicts, then the exit code, then figures,
// report.html, summary.md and junit.xml.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRun } from './log.js';
import { buildSummary } from './summary.js';
import { writeReports } from './report.js';
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
  const warmup = cfg.warmup === 'auto' ? Math.floor(data.calls / 10) : cfg.warmup;
  const summary = buildSummary(data, warmup, { ...run, exitCode: null });
  summary.verdict = 'stable';
  summary.findings = [];
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
