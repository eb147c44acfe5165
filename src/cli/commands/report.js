// `wasm-soak report DIR`: re-analyses and re-plots a result folder from its
// log, also one left by an interrupted or crashed run.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze, exitCodeFor } from '../../analysis/analyze.js';
import { readResultLogs } from '../../analysis/log-reader.js';
import { writeResult } from '../../report/result.js';
import { EXIT, usageError } from '../exit-codes.js';
import { DEFAULTS, parseCommand } from '../options.js';

const FORMATS = ['png', 'svg', 'html', 'md', 'junit'];

/** The run's outcome: from summary.json when the run wrote one, else from the log. */
function previousOutcome(dir, data) {
  const path = join(dir, 'summary.json');
  if (existsSync(path)) {
    try {
      const s = JSON.parse(readFileSync(path, 'utf8'));
      if (s.status) return { status: s.status, reason: s.stopReason, phase: s.error?.phase, error: s.error };
    } catch {
      // A summary cut short by a crash: fall back to the log.
    }
  }
  if (data.complete) return { status: 'completed', reason: 'iterations', error: null };
  return {
    status: 'failed',
    reason: null,
    phase: 'worker',
    error: {
      name: 'Error',
      message:
        'the run ended without closing its log (it crashed or was killed); the samples up to the last flush were analysed',
    },
  };
}

export async function commandReport(argv) {
  const { values, positionals } = parseCommand(argv);
  if (positionals.length !== 1)
    throw usageError(
      'WS_EUSAGE',
      'report needs one result folder.',
      'Usage: wasm-soak report <result-dir> [--format png,svg,html,md,junit]',
    );
  const dir = positionals[0];
  const formats = values.format ? values.format.split(',') : FORMATS;
  const bad = formats.filter((f) => !FORMATS.includes(f));
  if (bad.length)
    throw usageError(
      'WS_EOPTION',
      `--format has unknown formats: ${bad.join(', ')}.`,
      `Use a comma-separated list of ${FORMATS.join(', ')}.`,
    );
  const { timed: data, counted } = readResultLogs(dir);
  const c = data.header.config ?? {};
  const cfg = {
    warmup: values.warmup ? (values.warmup === 'auto' ? 'auto' : Number(values.warmup)) : (c.warmup ?? DEFAULTS.warmup),
    failOn: values['fail-on'] ? values['fail-on'].split(',') : (c.failOn ?? DEFAULTS.failOn),
    timeThreshold: values['time-threshold']
      ? Number(values['time-threshold'])
      : (c.timeThreshold ?? DEFAULTS.timeThreshold),
    budgets: c.budgets ?? null,
    formats,
    requirePlots: Boolean(values['require-plots']),
  };
  const summary = await writeResult(dir, analyze({ timed: data, counted, cfg, run: previousOutcome(dir, data) }), cfg);
  if (!values.quiet)
    process.stdout.write(
      `${dir}: ${summary.status}, verdict ${summary.verdict}; wrote ${[...(summary.outputs.figures ?? []), 'summary.json'].join(', ')}\n`,
    );
  // Re-reporting an interrupted run judges what it recorded.
  return summary.exitCode === EXIT.INTERRUPTED
    ? exitCodeFor('completed', summary.findings, cfg.failOn)
    : summary.exitCode;
}
