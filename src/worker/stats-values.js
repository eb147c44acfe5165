// What a scenario's stats() returns, checked before it becomes a metric: a
// byte count is a number from 0 to 2^53 (8 PiB; past it a double no longer
// counts bytes one by one). Anything else (a string, NaN, Infinity, 1e308,
// a negative number) is dropped, and said once per field on stderr, which
// the terminal shows above the progress line.
import { inspect } from 'node:util';

const FIELDS = ['liveBytes', 'heapBytes'];

const usable = (v) => typeof v === 'number' && v >= 0 && v <= Number.MAX_SAFE_INTEGER;

/**
 * Returns read(s, iteration): { liveBytes, heapBytes } of stats() result s,
 * each its value when usable, else NaN (no sample); warns (write, default
 * stderr) the first time each field is not usable. An absent field is no
 * sample and no warning.
 */
export function createStatsReader(write = (text) => process.stderr.write(text)) {
  const warned = new Set();
  return (s, iteration) => {
    const out = {};
    for (const field of FIELDS) {
      const v = s?.[field];
      out[field] = usable(v) ? v : Number.NaN;
      if (v === undefined || v === null || usable(v) || warned.has(field)) continue;
      warned.add(field);
      write(
        `wasm-soak: stats() returned ${field} ${inspect(v)} after iteration ${iteration}, which is no byte count (a number from 0 to 2^53); such values are dropped from the ${field} series (said once).\n`,
      );
    }
    return out;
  };
}
