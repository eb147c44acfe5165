// What an analysis of a recorded run takes when it is not a run's own
// analysis (`wasm-soak report DIR`, the library's analyze()): the options
// the run was recorded with, and its outcome as the log tells it.
import { EXIT, SoakError } from '../errors.js';
import { DEFAULTS, optionNamed } from '../options/schema.js';
import { countCoverage } from './allocations.js';

// The codes of the errors the analysis infers from a log alone (no run told
// it more); src/report/fact-words.js words them.
/** The timed pass's log was never closed: the run crashed or was killed. */
export const LOG_NOT_CLOSED = 'WS_ELOG_NOT_CLOSED';
/** The counting pass's log covers fewer calls than the run made. */
export const COUNT_CUT_SHORT = 'WS_ECOUNT_CUT_SHORT';

/**
 * The log header's config[key], checked by the parser of --flag (given as
 * the text text(value) would be on the command line), or undefined when
 * absent. A value the option would refuse (a header edited by hand:
 * `timeThreshold: "x"`) is exit 2 naming the field, never an analysis
 * that fails deep inside.
 */
function fromHeader(c, key, flag, text = String) {
  const value = c[key];
  if (value === undefined || value === null) return undefined;
  try {
    return optionNamed(flag).parse(text(value), flag);
  } catch (err) {
    let shown;
    try {
      shown = JSON.stringify(value).slice(0, 60);
    } catch {
      shown = 'a value too deep to show';
    }
    throw new SoakError(
      'WS_EFORMAT',
      `The log header's config.${key} is ${shown}, which --${flag} would refuse: ${err.message}`,
      {
        fix: `Give --${flag} to analyse the log with a value of your own.`,
        exitCode: EXIT.USAGE,
      },
    );
  }
}

/** A header's failOn (a list of kinds) as --fail-on's text; anything else as it is, for the parser to refuse. */
const failOnText = (v) =>
  Array.isArray(v) && v.every((k) => typeof k === 'string') ? (v.length ? v.join(',') : 'none') : String(v);

/** The analysis options: those given, else the run's (its log header), else the schema's defaults. */
export function analysisConfig(header, values = {}) {
  const c = header.config ?? {};
  return {
    warmup: values.warmup ?? fromHeader(c, 'warmup', 'warmup') ?? DEFAULTS.warmup,
    failOn: values.failOn ?? fromHeader(c, 'failOn', 'fail-on', failOnText) ?? DEFAULTS.failOn,
    timeThreshold: values.timeThreshold ?? fromHeader(c, 'timeThreshold', 'time-threshold') ?? DEFAULTS.timeThreshold,
    budgets: values.budgets ?? c.budgets ?? null,
  };
}

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
