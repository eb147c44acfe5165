// compare's native arm (docs/compare.md, "The native yardstick"): the
// yardstick fixture built to wasm and, here, to a native shared library
// (node soak/build.js --native), compared end to end: outputs agree call for
// call, both ops' wasm ÷ native ratios and the sentence placing the gap; a
// native arm that segfaults is that arm's failure (exit 3, the signal named)
// and the other arm's results are kept; a Ctrl-C stops every arm; a
// library's own mallinfo2 is its memory;
// libraries that cannot be an arm are
// exit-2 errors naming the problem; a suite's native arm; the sentence's rule.
// The checks here run no CLI and no worker; the runs through the CLI are in
// test/e2e/native.test.js.
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
