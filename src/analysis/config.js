// What an analysis of a recorded run takes when it is not a run's own
// analysis (`wasm-soak report DIR`, the library's analyze()): the options
// the run was recorded with, and its outcome as the log tells it.
import { DEFAULTS } from '../cli/options.js';

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
