// What an analysis of a recorded run takes when it is not a run's own
// analysis (`wasm-soak report DIR`, the library's analyze()): its outcome
// as the log tells it (the options it was recorded with are the library's
// to resolve: src/library/analysis-config.js).
import { countCoverage } from './allocations.js';

// The codes of the errors the analysis infers from a log alone (no run told
// it more); src/report/fact-words.js words them.
/** The timed pass's log was never closed: the run crashed or was killed. */
export const LOG_NOT_CLOSED = 'WS_ELOG_NOT_CLOSED';
/** The counting pass's log covers fewer calls than the run made. */
export const COUNT_CUT_SHORT = 'WS_ECOUNT_CUT_SHORT';

/**
 * A run's outcome from its decoded log alone: completed when the log was
 * closed, else a crash (error code LOG_NOT_CLOSED, worded by the report).
 */
export function logOutcome(data) {
  if (data.complete) return { status: 'completed', reason: 'iterations', error: null };
  return { status: 'failed', reason: null, phase: 'worker', error: { name: 'Error', code: LOG_NOT_CLOSED } };
}

/**
 * A counting pass's outcome from its decoded log alone (counted), when no
 * summary kept it: completed when it covered every call and was closed;
 * interrupted when the run was (runStatus: a signal cut both short);
 * else failed, error code COUNT_CUT_SHORT with how far it got (calls of
 * of) and whether it closed its log (a kill or a crash).
 */
export function logCountOutcome(counted, runStatus) {
  const { calls, of, closed, partial } = countCoverage(counted);
  if (!partial) return { status: 'completed', error: null };
  if (runStatus === 'interrupted') return { status: 'interrupted', error: null };
  // The counts it covered are the counting pass's (summary.sources.countingPass): the report words them.
  return { status: 'failed', phase: 'log', error: { name: 'Error', code: COUNT_CUT_SHORT, calls, of, closed } };
}
