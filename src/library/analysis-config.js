// The options an analysis of a recorded run takes (`wasm-soak report DIR`,
// the library's analyze()): those given, else the ones the run was
// recorded with (its log header), each checked by its option's parser, else
// the defaults.
import { EXIT, SoakError } from '../errors.js';
import { DEFAULTS, optionNamed } from '../options/schema.js';

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
