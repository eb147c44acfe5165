// The counting pass's own checks on decoded counting logs built by hand
// (src/analysis/allocations.js): frees that belie what the pass wrapped, and
// counted live bytes the heap or the memory cannot hold, make it incomplete or
// inconsistent. The counting pass run end to end: test/e2e/allocations.test.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { coverageComplete, liveContradiction, unmatchedFrees } from '../../../src/analysis/allocations.js';

test('frees that belie what the pass wrapped: over 1 % missed in any pass, or unmatched behind boundary wrappers, makes it incomplete', () => {
  const behind = {
    instrumented: [['__wbindgen_malloc', '__wbindgen_free', 'realloc']],
    coverage: [{ complete: true, behind: true }],
  };
  const named = { instrumented: [['malloc', 'free']], coverage: [{ complete: true, behind: false }] };
  const clean = { matched: 1000, unmatched: 0, unseen: 0 };
  assert.equal(coverageComplete(behind, clean), true);
  assert.equal(coverageComplete(behind, null), true, 'frees not known (a log without them)');
  assert.equal(unmatchedFrees(behind, { matched: 1000, unmatched: 10, unseen: 0 }), false, '1 %');
  assert.equal(
    unmatchedFrees(behind, { matched: 1000, unmatched: 0, unseen: 11 }),
    true,
    'blocks handed out again while live',
  );
  assert.equal(coverageComplete(behind, { matched: 1000, unmatched: 11, unseen: 0 }), false);
  // A module's allocator found by name is not judged by frees of blocks it never saw (C code may free foreign blocks)…
  assert.equal(coverageComplete(named, { matched: 0, unmatched: 1000, unseen: 0 }), true);
  // …but frees it missed belie it too: a Rust build's __rust_dealloc inlined where the name section does not reach.
  assert.equal(unmatchedFrees(named, { matched: 1000, unmatched: 0, unseen: 11 }), true);
  assert.equal(unmatchedFrees(named, { matched: 1000, unmatched: 0, unseen: 10 }), false, '1 %');
});

/** A decoded counting pass of calls with live bytes live (one module, one memory), its memory and census heap. */
function countLog(live, { memory, heap }) {
  const calls = live.length;
  return {
    header: { instrumented: [['malloc', 'free']], memories: [{ label: 'memory' }] },
    calls,
    allocRecords: calls,
    live: Float64Array.from(live),
    memory: { iter: Float64Array.from(memory.map(([i]) => i)), bytes: Float64Array.from(memory.map(([, b]) => b)) },
    metrics: heap
      ? {
          censusHeap: {
            iter: Float64Array.from(heap.map(([i]) => i)),
            value: Float64Array.from(heap.map(([, b]) => b)),
          },
        }
      : {},
  };
}

test('counted live bytes above the heap or the memory that holds them contradict the pass', () => {
  const memory = [
    [0, 65536],
    [3, 131072],
  ];
  const heap = [
    [1, 40000],
    [4, 100000],
  ];
  assert.equal(
    liveContradiction(countLog([1000, 30000, 40000, 90000, 100000], { memory, heap })),
    null,
    'equal is fine',
  );
  assert.deepEqual(liveContradiction(countLog([1000, 40001, 60000, 90000, 100000], { memory, heap })), {
    iteration: 1,
    liveBytes: 40001,
    limitBytes: 40000,
    limit: 'heap',
  });
  // Without a census, linear memory bounds them: 65,536 B until call 3 grew it.
  assert.deepEqual(liveContradiction(countLog([1000, 65537, 0, 0], { memory })), {
    iteration: 1,
    liveBytes: 65537,
    limitBytes: 65536,
    limit: 'memory',
  });
  assert.equal(liveContradiction(countLog([1000, 65536, 0, 131072], { memory })), null);
  // What the census walked in use bounds them first; a census that recognised nothing bounds nothing.
  const walked = countLog([1000, 30000, 50000], { memory });
  walked.metrics.censusKind = { iter: Float64Array.of(0, 1, 2), value: Float64Array.of(0, 1, 1) };
  walked.metrics.censusLive = { iter: Float64Array.of(0, 1, 2), value: Float64Array.of(0, 29000, 60000) };
  assert.deepEqual(liveContradiction(walked), {
    iteration: 1,
    liveBytes: 30000,
    limitBytes: 29000,
    limit: 'census-live',
  });
  walked.live[1] = 29000;
  assert.equal(
    liveContradiction(walked),
    null,
    'a live count of 1,000 B beside an unrecognised heap is no contradiction',
  );
  // The heap's top (sbrk) bounds them too.
  const topped = countLog([1000, 2000, 3000], { memory });
  topped.metrics.heapTop = { iter: Float64Array.of(0, 2), value: Float64Array.of(4096, 2048) };
  assert.deepEqual(liveContradiction(topped), { iteration: 2, liveBytes: 3000, limitBytes: 2048, limit: 'heap-top' });
  // Two modules instrumented: their counts are summed, so only the memory bounds them.
  const two = countLog([50000, 0, 0, 0, 0], { memory, heap });
  two.header.instrumented = [['malloc', 'free'], ['__rust_alloc']];
  assert.equal(liveContradiction(two), null);
});
