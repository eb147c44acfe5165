// The shape of a baseline.json (docs/summary.md, "baseline"), checked when
// one is loaded: a file edited by hand or written by something else names
// its first wrong field, instead of failing deep in the analysis.

const isNumber = (v) => typeof v === 'number' && Number.isFinite(v);
const isCount = (v) => Number.isSafeInteger(v) && v >= 0;
const numbers = (v) => Array.isArray(v) && v.every(isNumber);
const object = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v) => typeof v === 'string';

/** value as JSON for a message, at most 80 characters; a value too deep for JSON.stringify is named by its kind. */
function shown(value) {
  let text;
  try {
    text = JSON.stringify(value);
  } catch {
    text = Array.isArray(value) ? 'a list nested too deep to show' : 'a value too deep to show';
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

// [field, test, what it must be], in the order a reader meets them.
const FIELDS = [
  ['name', (r) => typeof r.name === 'string', 'a string'],
  ['seed', (r) => Number.isInteger(r.seed) && r.seed >= 0 && r.seed <= 0xffffffff, 'an integer from 0 to 4294967295'],
  ['target', (r) => object(r.target), 'an object'],
  ['config', (r) => object(r.config), 'an object'],
  [
    'config.iterations',
    (r) => Number.isSafeInteger(r.config.iterations) && r.config.iterations > 0,
    'a positive integer',
  ],
  [
    'config.calls',
    (r) =>
      r.config.calls === null ||
      (Array.isArray(r.config.calls) && r.config.calls.every((c) => object(c) && typeof c.name === 'string')),
    'a list of { name, weight } (or null)',
  ],
  ['config.args', (r) => Array.isArray(r.config.args), 'a list'],
  ['verdict', (r) => typeof r.verdict === 'string', 'a string'],
  ['findings', (r) => Array.isArray(r.findings) && r.findings.every(isText), 'a list of finding kinds (strings)'],
  ['time', (r) => object(r.time), 'an object'],
  ['time.median', (r) => isNumber(r.time.median) && r.time.median >= 0, 'a number of nanoseconds'],
  ['time.batchMedians', (r) => numbers(r.time.batchMedians), 'a list of numbers'],
  [
    'time.controlMedians',
    (r) => r.time.controlMedians == null || numbers(r.time.controlMedians),
    'a list of numbers (or null)',
  ],
  ['counts', (r) => r.counts === null || object(r.counts), 'an object (or null)'],
  [
    'counts',
    (r) => r.counts === null || ['calls', 'allocs', 'bytes', 'liveEnd'].every((k) => isNumber(r.counts[k])),
    'null or { calls, allocs, bytes, liveEnd } (numbers)',
  ],
  ['memory', (r) => object(r.memory), 'an object'],
  ['memory.highWater', (r) => isCount(r.memory.highWater), 'a number of bytes'],
];

/** Deeper than any baseline wasm-soak writes (about 6 levels), far below what recursion in JSON.stringify or a worker's structured clone can take. */
const MAX_DEPTH = 64;

/**
 * The path of the first field of record nested deeper than MAX_DEPTH
 * ("findings[0][0]…", cut short), or null: walked without recursion, so a
 * hand-made file nested 200 000 deep is named, never a stack overflow.
 */
function deepestField(record) {
  const stack = [[record, '', 0]];
  while (stack.length) {
    const [value, path, depth] = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_DEPTH) return path.length > 60 ? `${path.slice(0, 57)}...` : path;
    for (const [k, v] of Object.entries(value))
      stack.push([v, Array.isArray(value) ? `${path}[${k}]` : path ? `${path}.${k}` : k, depth + 1]);
  }
  return null;
}

/**
 * The first field of record (a parsed baseline.json of schema
 * wasm-soak-baseline, version 1) that a run against it cannot use:
 * { field, want, got } (got: the value as JSON, "missing" when absent), or
 * null when every field is usable.
 */
export function baselineProblem(record) {
  const deep = deepestField(record);
  if (deep) return { field: deep, want: `at most ${MAX_DEPTH} levels deep`, got: 'lists or objects nested deeper' };
  for (const [field, ok, want] of FIELDS) {
    if (ok(record)) continue;
    const value = field.split('.').reduce((v, k) => v?.[k], record);
    return { field, want, got: value === undefined ? 'missing' : shown(value) };
  }
  return null;
}
