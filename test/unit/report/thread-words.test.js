// The threads' notes in words (src/report/thread-words.js, through
// withSentences), and a stable run's headline quoting them (words.js).

import assert from 'node:assert/strict';
import test from 'node:test';
import { withSentences } from '../../../src/report/sentences.js';
import { noteLines, verdictLine } from '../../../src/report/words.js';

const FAILED = { kind: 'thread-failed', series: null, failed: 1, started: 4, iteration: 5120, code: 1 };
const GROWING = {
  kind: 'thread-pool-growing',
  series: null,
  startedAfterWarmup: 15,
  aliveFrom: 5,
  aliveTo: 20,
  warmup: 4500,
};
const FAILED_WORDS =
  '1 of the 4 worker threads the target started exited with an error, the first near iteration 5120 (exit code 1): work handed to it may never finish, and what it allocated in a shared memory stays allocated.';
const GROWING_WORDS =
  'The target\'s pool of worker threads kept growing after warm-up: 15 threads started after iteration 4500, from 5 alive then to 20 at the end. Each thread has its own JS heap, measured apart (threads-js-heap) where the threads answer (docs/allocator.md, "Threads").';

test('thread-failed and thread-pool-growing notes, worded', () => {
  const s = withSentences({ findings: [], inconclusive: [], series: [], notes: [FAILED, GROWING] });
  assert.deepEqual(
    s.notes.map((n) => n.sentence),
    [FAILED_WORDS, GROWING_WORDS],
  );
  // A failure whose exit was not seen during a call: no iteration, no code.
  const bare = withSentences({ notes: [{ ...FAILED, failed: 2, iteration: null, code: null }] });
  assert.equal(
    bare.notes[0].sentence,
    '2 of the 4 worker threads the target started exited with an error, the first: work handed to it may never finish, and what it allocated in a shared memory stays allocated.',
  );
});

test("a stable run's headline quotes the threads' notes, and the notes list does not repeat them", () => {
  const s = withSentences({
    status: 'completed',
    verdict: 'stable',
    iterations: { completed: 20000 },
    findings: [],
    inconclusive: [],
    series: [],
    notes: [FAILED, GROWING],
  });
  assert.deepEqual(verdictLine(s), {
    ok: true,
    title: 'Stable',
    text: `${FAILED_WORDS} ${GROWING_WORDS} No leak, fragmentation, growth or slowdown found in 20,000 calls.`,
  });
  assert.deepEqual(noteLines(s), []);
});
