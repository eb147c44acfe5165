// `wasm-soak report DIR` (src/cli/commands/report.js calls reportFolder):
// re-analyses and re-plots a result folder from its log, also one left by
// an interrupted or crashed run, once no other run writes there (it locks
// the folder: folder-lock.js).
// The analysis and report modules load while the timed log decodes on
// another thread (decodeLogAsync): they are imported once the decode has
// started.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { decodeLogAsync, readResultLogs } from '../analysis/log-reader.js';
import { EXIT } from '../errors.js';
import { DEFAULTS } from '../options/schema.js';
import { freeReserve } from '../run/disk-reserve.js';
import { lockFolder } from '../run/folder-lock.js';
import { interrupts } from '../run/interrupt.js';

/**
 * The outcome of a run whose summary.json says it completed but whose log
 * (data) has lost its end (cut short after the run: truncated, half lost):
 * failed, saying how much of it is left. The log's own completeness
 * decides, never the summary's word alone.
 */
function lostEnd(data, s, formatCount) {
  const of = s.iterations?.completed;
  const calls = formatCount(data.calls);
  const ran = Number.isFinite(of) ? ` of the ${formatCount(of)}` : '';
  return {
    status: 'failed',
    reason: null,
    phase: 'log',
    error: {
      name: 'Error',
      message: `samples.wslog has lost its end: it holds ${calls}${ran} calls the run completed (summary.json says it completed; the log was cut short after it); the calls it holds were analysed`,
    },
  };
}

/**
 * The run's outcome { run, count }: from summary.json when the run wrote
 * one, else from the log (run); count the counting pass's as the summary
 * said it, else null (the analysis reads it from its log). A summary that
 * says completed over a log that lost its end is overruled (lostEnd).
 */
function previousOutcome(dir, data, { logOutcome, formatCount }) {
  const path = join(dir, 'summary.json');
  if (existsSync(path)) {
    try {
      const s = JSON.parse(readFileSync(path, 'utf8'));
      const cp = s.sources?.countingPass;
      const count = cp ? { status: cp.status, phase: cp.error?.phase ?? null, error: cp.error, frees: cp.frees } : null;
      if (s.status === 'completed' && !data.complete) return { run: lostEnd(data, s, formatCount), count };
      if (s.status)
        return {
          run: {
            status: s.status,
            reason: s.stopReason,
            phase: s.error?.phase,
            error: s.error,
            decided: s.earlyStop ?? null,
            threads: s.sources?.threads ?? null,
          },
          count,
        };
    } catch {
      // A summary cut short by a crash: fall back to the log.
    }
  }
  return { run: logOutcome(data), count: null };
}

/**
 * Re-reports result folder dir with the analysis and report options values
 * ({ warmup, failOn, timeThreshold, budgets, formats, requirePlots,
 * plotTimeoutMs }, camelCase as the command's): those not given keep the
 * run's (its log header), else the defaults. warn(text) is told of a
 * damaged log. Resolves { summary, exitCode, interrupted } (interrupted: a
 * signal cut the re-report short).
 */
export async function reportFolder(dir, values, { warn = () => {} } = {}) {
  // A folder that does not exist has no log to read: readResultLogs says so.
  const lock = statSync(dir, { throwIfNoEntry: false })?.isDirectory() ? lockFolder(dir) : null;
  // A killed run's disk reserve is free to use now that the folder is this command's.
  if (lock) freeReserve(dir);
  try {
    return await reportInto(dir, values, warn);
  } finally {
    lock?.release();
  }
}

/** reportFolder's work on dir, locked. */
async function reportInto(dir, values, warn) {
  const decoding = decodeLogAsync(join(dir, 'samples.wslog'));
  // Settled below; an import failing first must not leave it unhandled.
  decoding.catch(() => {});
  const [
    { logOutcome },
    { judge },
    { damageWords },
    { formatCount },
    { analyzeInto },
    { analysisConfig },
    { loadWriters },
  ] = await Promise.all([
    import('../analysis/config.js'),
    import('../analysis/judge.js'),
    import('../report/damage-words.js'),
    import('../report/format.js'),
    import('../report/result.js'),
    import('./analysis-config.js'),
    import('../report/report.js'),
  ]);
  // The writers of the formats asked for load too (writeFormats takes them
  // from the module cache; a failure is its to report), and the number
  // formats their locale data (made at their first use).
  loadWriters(values.formats ?? DEFAULTS.formats).catch(() => {});
  formatCount(0);
  const logs = readResultLogs(dir, { timed: await decoding });
  const data = logs.timed;
  for (const [name, log] of [
    ['samples.wslog', logs.timed],
    ['samples-count.wslog', logs.counted],
    ['samples-replica.wslog', logs.replica],
  ]) {
    const damage = log && damageWords(join(dir, name), log);
    if (damage) warn(damage);
  }
  const cfg = {
    ...analysisConfig(data.header, values),
    formats: values.formats ?? DEFAULTS.formats,
    requirePlots: values.requirePlots ?? DEFAULTS.requirePlots,
    plotTimeoutMs: values.plotTimeoutMs ?? DEFAULTS.plotTimeoutMs,
  };
  const interrupt = interrupts();
  const { run, count } = previousOutcome(dir, data, { logOutcome, formatCount });
  const summary = await analyzeInto(dir, { cfg, run, count, interrupt, logs });
  // 130, or 3 for a failed run (result.js)
  if (interrupt.interrupted) return { summary, exitCode: summary.exitCode, interrupted: true };
  // Re-reporting an interrupted run judges what it recorded.
  const exitCode =
    summary.exitCode === EXIT.INTERRUPTED
      ? judge({ findings: summary.findings, inconclusive: summary.inconclusive, failOn: cfg.failOn }).exitCode
      : summary.exitCode;
  return { summary, exitCode, interrupted: false };
}
