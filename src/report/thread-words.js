// The notes of the worker threads a target started (src/analysis/threads.js)
// in words: a thread that exited with an error, a pool still growing after
// warm-up. Pure; no I/O.

import { formatCount, plural } from './format.js';

// The kinds of the notes worded here.
export const THREAD_NOTES = new Set(['thread-failed', 'thread-pool-growing']);

/** The sentence of a `thread-failed` or `thread-pool-growing` note n, '' for any other. */
export function threadNoteSentence(n) {
  if (n.kind === 'thread-failed') {
    const near = n.iteration != null ? ` near iteration ${n.iteration}` : '';
    const code = n.code != null ? ` (exit code ${n.code})` : '';
    return `${formatCount(n.failed)} of the ${plural(n.started, 'worker thread')} the target started exited with an error, the first${near}${code}: work handed to it may never finish, and what it allocated in a shared memory stays allocated.`;
  }
  if (n.kind === 'thread-pool-growing')
    return `The target's pool of worker threads kept growing after warm-up: ${plural(n.startedAfterWarmup, 'thread')} started after iteration ${n.warmup}, from ${formatCount(n.aliveFrom)} alive then to ${formatCount(n.aliveTo)} at the end. Each thread has its own JS heap, measured apart (threads-js-heap) where the threads answer (docs/allocator.md, "Threads").`;
  return '';
}
