// compare's native yardstick in words (docs/compare.md, "The native
// yardstick"): the sentence places the gap only when the two intervals do
// not overlap. Native arms compared end to end: test/e2e/long/native.test.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gapSentence } from '../../../src/report/compare-words.js';

test('the sentence places the gap only when the two intervals do not overlap', () => {
  const op = (name, ratio, low, high, allocsPerCall) => ({ op: name, ratio: { ratio, low, high }, allocsPerCall });
  assert.equal(
    gapSentence([op('parse', 3.1, 3.0, 3.2, 12), op('scan', 1.2, 1.15, 1.25, 0)]),
    'parse is 3.10× native (95 %: 3.00–3.20×) at 12 allocations per call, scan 1.20× native (95 %: 1.15–1.25×) at no allocation: the gap is in allocation-heavy code.',
  );
  assert.match(
    gapSentence([op('parse', 1.3, 1.1, 1.5, 12), op('scan', 1.2, 1.15, 1.25, 0)]),
    /intervals overlap: this comparison cannot tell/,
  );
  assert.match(
    gapSentence([op('parse', 1.1, 1.05, 1.15, 12), op('scan', 1.5, 1.4, 1.6, 0)]),
    /the gap is not in allocation; at 1.2× or less on the allocation-heavy path, a new allocator will not change much\.$/,
  );
  // One op, or ops that allocate alike: nothing to compare.
  assert.equal(gapSentence([op('parse', 3.1, 3.0, 3.2, 12)]), null);
  assert.equal(gapSentence([op('a', 3.1, 3.0, 3.2, 2), op('b', 1.1, 1.0, 1.2, 2)]), null);
});
