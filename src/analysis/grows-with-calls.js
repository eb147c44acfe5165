// Which findings are memory that grows with the calls (analyze.js
// toReplicate, src/report/sentences.js): a heap that grows so explains a
// slowdown beside it (docs/verdicts.md, "A finding must recur").

// Growth causes that rest on peaks of blocks freed late, which a GC's timing moves.
export const PEAK_CAUSES = new Set(['heap-end', 'live-peaks', 'live-rising']);
const HEAP_KINDS = new Set(['memory-exhausted', 'leak', 'unfreed-objects', 'fragmentation', 'js-heap-growth']);

/**
 * Whether finding f ({ kind, cause }) is memory that grows with the calls
 * and recurs with them without a second pass (growth held by peaks needs
 * one): such a heap explains a slowdown beside it, which then is not timed
 * again.
 */
export function growsWithCalls(f) {
  if (f.kind === 'growth') return !PEAK_CAUSES.has(f.cause);
  return HEAP_KINDS.has(f.kind);
}
