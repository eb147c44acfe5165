// Any thrown value as a worker's messages report it: an Error (any
// subclass, also one from another realm) keeps its name, message and stack;
// anything else is described as what it is ("threw a string: 'x'", "threw
// undefined"); a WASI proc_exit is named as such.
import { inspect } from 'node:util';

/** err as the summary reports it; never throws, even for a value whose inspection throws. */
export function serializeError(err) {
  try {
    return describeThrown(err);
  } catch (failure) {
    // A value whose very inspection throws (a Proxy whose traps throw).
    let why = 'reading it threw';
    try {
      why = `reading it threw ${String(failure?.message ?? failure)}`;
    } catch {}
    return {
      name: 'non-Error value',
      message: `threw a value that cannot be described (${why}; not an Error, so no stack)`,
      stack: null,
    };
  }
}

/** serializeError's description; may throw when reading err throws. */
function describeThrown(err) {
  const isError = err instanceof Error || Object.prototype.toString.call(err) === '[object Error]';
  if (isError) {
    return {
      name: err.name,
      message: String(err.message || err.name || 'an error without a message'),
      stack: err.stack,
      code: err.code,
      fix: err.fix,
      exitCode: err.exitCode,
    };
  }
  const what =
    err === undefined || err === null
      ? String(err)
      : `${typeof err === 'object' ? 'an object' : `a ${typeof err}`}: ${inspect(err, { depth: 2, breakLength: Infinity }).slice(0, 500)}`;
  return { name: 'non-Error value', message: `threw ${what} (not an Error, so no stack)`, stack: null };
}

/**
 * The summary's error of a failed outcome: a WASI proc_exit (exitCodeOf
 * gives its code; node:wasi throws a symbol for it) named as such at
 * iteration, anything else as serializeError says.
 */
export function failureOf(outcome, exitCodeOf, iteration) {
  const code = outcome.phase === 'iteration' ? (exitCodeOf?.(outcome.error) ?? null) : null;
  if (code === null) return serializeError(outcome.error);
  return {
    name: 'Error',
    code: 'WS_EPROCEXIT',
    message: `the module called proc_exit(${code}) in iteration ${iteration}`,
    stack: null,
  };
}
