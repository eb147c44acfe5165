// How much of an arm's allocations its counting pass saw, and whether two
// arms' counts may be set side by side. A pass that wrapped only the glue's
// boundary functions (wasm-bindgen's __wbindgen_malloc and __wbindgen_free,
// which Rust code inside the module never calls, with no allocator found
// behind them, or one found without its realloc or belied by its frees)
// counts the glue's allocations, not the module's; a pass cut short counts
// its first calls.
// Neither compares with a complete pass, and no gate judges such a row.

/** The coverage words, as the confounds and the TL;DR say them. */
export const COVERAGE_WORDS = Object.freeze({
  complete: 'complete',
  'boundary-only': 'boundary only (glue wrappers; own allocations unseen)',
  partial: 'partial (the pass was cut short)',
  none: 'none (no allocator found to count)',
});

/** An analysed summary's counting coverage: 'complete', 'boundary-only', 'partial' or 'none'. */
export function countingCoverage(summary) {
  const a = summary.allocations;
  if (!a?.calls || !a.instrumented.some((names) => names.length > 0)) return 'none';
  if (!a.complete) return 'boundary-only';
  return a.partial ? 'partial' : 'complete';
}

/**
 * Whether arm's counts compare with base's: { comparable } (both passes
 * complete; report/compare-words.js says which is not).
 */
export const countsComparable = (arm, base) => ({
  comparable: arm.counting === 'complete' && base.counting === 'complete',
});
