// The counting pass's caveat (summary.sources.countingPass.caveat) in
// words: why its live bytes are not used, or are used only in part.
import { formatBytes, formatCount } from './format.js';

// The paths to the allocator a counting pass that missed frees did not wrap.
const UNSEEN_PATHS =
  'what was wrapped is not the whole allocator (the module reaches it by a path the pass did not wrap, such as an inlined __rust_dealloc, a free or realloc of the allocator called directly, or an allocator of its own)';

// The counting pass's caveat (countingPass.caveat) in words.
export const CAVEAT_WORDS = {
  partial: (p) =>
    `the pass was cut short after ${formatCount(p.calls)} of its ${formatCount(p.ofCalls)} calls: its live bytes say nothing of the calls after them, so no verdict uses them (the timed pass's sources decide); its counts per call, budgets and failed memory.grow calls are those of the calls it covered`,
  'nothing-found': () =>
    'no allocator entry point was found by export name, in the name section or behind a forwarder (a stripped release build?): the pass saw nothing, so its live bytes are not used; the heap census reads live bytes without names',
  'boundary-only': () =>
    "only boundary wrappers were found (e.g. wasm-bindgen's __wbindgen_malloc/__wbindgen_free), not the allocator behind them: memory they hand out is freed inside the module, so the pass's live bytes are not used for verdicts; the counts per call are still shown",
  'no-realloc': () =>
    "the allocator behind the boundary wrappers was found (its allocation and its free) but not its realloc: a block that realloc moves would stay live in the counts, so the pass's live bytes are not used for verdicts; the counts per call are still shown",
  'unmatched-frees': (p) =>
    `the allocator freed ${formatCount(p.frees.unmatched)} blocks the pass never saw allocated and handed out ${formatCount(p.frees.unseen ?? 0)} again that it held live (of ${formatCount(p.frees.matched + p.frees.unmatched + (p.frees.unseen ?? 0))} frees): ${UNSEEN_PATHS}, so the pass's live bytes are not used for verdicts; the counts per call are still shown`,
  inconsistent: (p) => {
    const c = p.contradiction;
    const limit = {
      'census-live': 'the live bytes the census walked in the same pass',
      heap: 'the heap the census walked in the same pass',
      'heap-top': "the heap's top (sbrk) in the same pass",
      memory: 'the whole linear memory',
    }[c.limit];
    const frees = p.frees
      ? ` (${formatCount(p.frees.unseen ?? 0)} blocks handed out again while it held them live, ${formatCount(p.frees.unmatched)} frees of blocks it never saw allocated)`
      : '';
    return `the pass counted ${formatBytes(c.liveBytes)} live after call ${formatCount(c.iteration + 1)}, more than ${limit} (${formatBytes(c.limitBytes)}): it missed frees${frees}; ${UNSEEN_PATHS}, so the pass is inconsistent and its live bytes are not used for verdicts; the counts per call are still shown`;
  },
  'no-allocations': () =>
    'the wrapped entry points saw no allocation in the whole pass: the module allocates another way (an internal allocator the wrappers do not reach), so the pass is no evidence and its live bytes are not used',
};
