// The main thread's side of the ring (src/run/drain.js): every published
// record reaches the sink in order, across the ring's wrap, and each piece's
// slots are freed as soon as the sink took it, so the loop writes on while
// a long drain goes on.
import assert from 'node:assert/strict';
import test from 'node:test';
import { CTL, CTL_WORDS, RECORD_SIZE, RING_HEADER_BYTES } from '../../../src/protocol.js';
import { createDrain, createRing } from '../../../src/run/drain.js';

/** Publishes count records into sab's ring from record number first on, each filled with its number's low byte. */
function publish(sab, first, count) {
  const ctl = new Int32Array(sab, 0, CTL_WORDS);
  const capacity = ctl[CTL.capacity];
  const slots = new Uint8Array(sab, RING_HEADER_BYTES, capacity * RECORD_SIZE);
  for (let k = first; k < first + count; k++) {
    const at = (k & (capacity - 1)) * RECORD_SIZE;
    slots.fill(k & 0xff, at, at + RECORD_SIZE);
  }
  Atomics.store(ctl, CTL.write, (first + count) | 0);
}

test('a drain hands on every record in order and frees each piece before the next', () => {
  const capacity = 1 << 16;
  const sab = createRing(capacity);
  const ctl = new Int32Array(sab, 0, CTL_WORDS);
  // Start near the end of the ring, so that the records wrap.
  const first = capacity - 1000;
  Atomics.store(ctl, CTL.read, first);
  publish(sab, first, 60000);
  const seen = [];
  const freedBefore = [];
  const drain = createDrain(sab, (chunk) => {
    freedBefore.push(((Atomics.load(ctl, CTL.read) >>> 0) - first) >>> 0);
    for (let i = 0; i < chunk.length; i += RECORD_SIZE) seen.push(chunk[i]);
  });
  assert.equal(drain(), 60000);
  assert.deepEqual(
    seen,
    Array.from({ length: 60000 }, (_, i) => (first + i) & 0xff),
  );
  // Pieces of at most 16 384 records, each freed before the sink saw the next.
  assert.ok(freedBefore.length >= 5, `${freedBefore.length} pieces`);
  let handed = 0;
  freedBefore.forEach((freed, i) => {
    assert.equal(freed, handed, `piece ${i} came after the slots before it were freed`);
    handed += i === 0 ? 1000 : Math.min(16384, 60000 - handed);
  });
  assert.equal(Atomics.load(ctl, CTL.read) >>> 0, (first + 60000) >>> 0);
  assert.equal(drain(), 0);
});
