// What an analysis of a recorded run takes when it is not a run's own
// analysis (`wasm-soak report DIR`, the library's analyze()): the options
// the run was recorded with, and its outcome as the log tells it.
import { DEFAULTS } from '../options/schema.js';
import { countCoverage } from './allocations.js';

/** The analysis options: those given, else the run's (its log header), else the schema's defaults. */
export function analysisConfig(header, values = {}) {
  const c = header.config ?? {};
  return {
    warmup: values.warmup ?? c.warmup ?? DEFAULTS.warmup,
    failOn: values.failOn ?? c.failOn ?? DEFAULTS.failOn,
    timeThreshold: values.timeThreshold ?? c.timeThreshold ?? DEFAULTS.timeThreshold,
    budgets: values.budgets ?? c.budgets ?? null,
  };
}

/** A run's outcome from its decoded log alone: completed when the log was closed, else a crash. */
export function logOutcome(data) {
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

/**
 * A counting pass's outcome from its decoded log alone (counted), when no
 * summary kept it: completed when it covered every call and was closed;
 * interrupted when the run was (runStatus: a signal cut both short);
 * else failed, saying how far it got (a kill or a crash).
 */
export function logCountOutcome(counted, runStatus) {
  const { calls, of, closed, partial } = countCoverage(counted);
  if (!partial) return { status: 'completed', error: null };
  if (runStatus === 'interrupted') return { status: 'interrupted', error: null };
  return {
    status: 'failed',
    phase: 'log',
    error: {
      name: 'Error',
      // An error's message, as the run's own errors carry one (the report words findings, not failures).
      message: `the counting pass ended after ${calls.toLocaleString('en-US')} of its ${of.toLocaleString('en-US')} calls${closed ? '' : ' without closing its log (it was killed or crashed)'}`,
    },
  };
}
