// Main-thread side of the ring: moves published records into the log. The
// worker's C loop waits when the ring is full, so draining often keeps the
// loop running and draining late never loses a sample.

import { CTL, CTL_WORDS, RECORD_SIZE, RING_HEADER_BYTES, STOP_REQUEST } from '../protocol.js';

/** Allocates the SharedArrayBuffer of a ring of capacity records (a power of two). */
export function createRing(capacity) {
  const sab = new SharedArrayBuffer(RING_HEADER_BYTES + capacity * RECORD_SIZE);
  new Int32Array(sab, 0, CTL_WORDS)[CTL.capacity] = capacity;
  return sab;
}

// The records drain() hands on before it frees their slots: the loop writes
// while the main thread drains, and a drain of a whole ring (4-10 ms of
// writing and analysis here) that freed its slots only at its end held the
// loop of a fast module in back-pressure for most of it.
const PIECE = 1 << 14;

/**
 * Returns drain(): copies every published record to sink(chunk) (a
 * Uint8Array view that is only valid during the call), freeing the slots of
 * each piece of at most PIECE records as soon as sink took it. Returns the
 * number of records drained.
 */
export function createDrain(sab, sink) {
  const ctl = new Int32Array(sab, 0, CTL_WORDS);
  const capacity = ctl[CTL.capacity];
  const slots = new Uint8Array(sab, RING_HEADER_BYTES, capacity * RECORD_SIZE);
  return function drain() {
    let read = Atomics.load(ctl, CTL.read) >>> 0;
    const n = ((Atomics.load(ctl, CTL.write) >>> 0) - read) >>> 0;
    for (let left = n; left > 0; ) {
      const start = read & (capacity - 1);
      const piece = Math.min(left, capacity - start, PIECE);
      sink(slots.subarray(start * RECORD_SIZE, (start + piece) * RECORD_SIZE));
      read = (read + piece) >>> 0;
      left -= piece;
      Atomics.store(ctl, CTL.read, read | 0);
      Atomics.notify(ctl, CTL.read);
    }
    return n;
  };
}

/** Asks the worker's loop to stop after its current iteration. */
export function requestStop(sab) {
  Atomics.store(new Int32Array(sab, 0, CTL_WORDS), CTL.stop, STOP_REQUEST.afterCall);
}

/**
 * Tells the worker's loop, before the worker is terminated, that the call in
 * progress is cut short: it is not recorded as a completed (thrown) call.
 */
export function abandonRun(sab) {
  Atomics.store(new Int32Array(sab, 0, CTL_WORDS), CTL.stop, STOP_REQUEST.abandon);
}
