// Main-thread side of the ring: moves published records into the log. The
// worker's C loop waits when the ring is full, so draining often keeps the
// loop running and draining late never loses a sample.

export const CTL = { WRITE: 0, READ: 1, CAPACITY: 2, STOP: 3, ITERATION: 4, WAITING: 5 };
const HEADER_BYTES = 64;
const RECORD_BYTES = 32;

/** Allocates the SharedArrayBuffer of a ring of capacity records (a power of two). */
export function createRing(capacity) {
  const sab = new SharedArrayBuffer(HEADER_BYTES + capacity * RECORD_BYTES);
  new Int32Array(sab, 0, 16)[CTL.CAPACITY] = capacity;
  return sab;
}

/**
 * Returns drain(): copies every published record to sink(chunk) (a
 * Uint8Array view that is only valid during the call), then frees the slots.
 * Returns the number of records drained.
 */
export function createDrain(sab, sink) {
  const ctl = new Int32Array(sab, 0, 16);
  const capacity = ctl[CTL.CAPACITY];
  const slots = new Uint8Array(sab, HEADER_BYTES, capacity * RECORD_BYTES);
  return function drain() {
    const read = Atomics.load(ctl, CTL.READ) >>> 0;
    const n = ((Atomics.load(ctl, CTL.WRITE) >>> 0) - read) >>> 0;
    if (n === 0) return 0;
    const start = read & (capacity - 1);
    const first = Math.min(n, capacity - start);
    sink(slots.subarray(start * RECORD_BYTES, (start + first) * RECORD_BYTES));
    if (n > first) sink(slots.subarray(0, (n - first) * RECORD_BYTES));
    Atomics.store(ctl, CTL.READ, (read + n) | 0);
    Atomics.notify(ctl, CTL.READ);
    return n;
  };
}

/** Asks the worker's loop to stop after its current iteration. */
export function requestStop(sab) {
  Atomics.store(new Int32Array(sab, 0, 16), CTL.STOP, 1);
}
