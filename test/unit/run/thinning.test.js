// src/run/thinning.js: the plan of a capped log's thinning, its pure steps
// and the whole plan over synthetic calls (the cap never passed, the stride
// doubling as the run goes on, every call before half the cap kept).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LOG_BLOCK_RECORDS, RECORD_OFFSETS, RECORD_SIZE, RECORD_TYPE } from '../../../src/protocol.js';
import { cost, createThinning, keepAtCap, neededShift, RESERVE_BYTES, wholePrefix } from '../../../src/run/thinning.js';

/** n raw records from iteration from: a call each, a metric after every 10th. */
function records(from, n, { metrics = false } = {}) {
  const out = [];
  for (let i = from; i < from + n; i++) {
    out.push([RECORD_TYPE.call, i]);
    if (metrics && i % 10 === 9) out.push([RECORD_TYPE.metric, i]);
  }
  const bytes = new Uint8Array(out.length * RECORD_SIZE);
  const view = new DataView(bytes.buffer);
  out.forEach(([type, i], k) => {
    view.setUint8(k * RECORD_SIZE + RECORD_OFFSETS.type, type);
    view.setUint32(k * RECORD_SIZE + RECORD_OFFSETS.iteration, i, true);
    view.setBigUint64(k * RECORD_SIZE + RECORD_OFFSETS.a, 100n, true);
  });
  return bytes;
}

test('a record costs its bytes and its share of a block header', () => {
  assert.equal(cost(1), 2 * RECORD_SIZE);
  assert.equal(cost(LOG_BLOCK_RECORDS), (LOG_BLOCK_RECORDS + 1) * RECORD_SIZE);
  assert.equal(cost(LOG_BLOCK_RECORDS + 1), (LOG_BLOCK_RECORDS + 3) * RECORD_SIZE);
});

test('the stride is the least that fits the budget, at least 2', () => {
  assert.equal(neededShift(100, 32, 3200), 1);
  assert.equal(neededShift(1000, 32, 3200), 4, '10× over: 2^4');
  assert.equal(neededShift(0, 0, 0), 1, 'nothing to fit');
  assert.equal(neededShift(10, 32, 0), Number.POSITIVE_INFINITY, 'an empty budget: the longest ws_thin takes');
});

test('the records written whole end before a call, within half the cap', () => {
  const chunk = records(0, 100, { metrics: true });
  assert.equal(wholePrefix(chunk, 0, 1 << 20), 110, 'all of it fits');
  const half = wholePrefix(chunk, 0, 4 * cost(50));
  assert.ok(half > 0 && half < 110);
  assert.equal(chunk[half * RECORD_SIZE], RECORD_TYPE.call, 'the next record is a call');
});

test('at the cap only marks always, summaries and failed grows while they fit', () => {
  const types = [RECORD_TYPE.call, RECORD_TYPE.summary, RECORD_TYPE.metric, RECORD_TYPE.mark, RECORD_TYPE.growFailed];
  const buf = new Uint8Array(types.length * RECORD_SIZE);
  types.forEach((t, k) => {
    buf[k * RECORD_SIZE] = t;
  });
  assert.equal(keepAtCap(buf, types.length, 0, 1 << 20), 3);
  assert.deepEqual(
    [0, 1, 2].map((k) => buf[k * RECORD_SIZE]),
    [RECORD_TYPE.summary, RECORD_TYPE.mark, RECORD_TYPE.growFailed],
  );
  const full = new Uint8Array(buf.length);
  types.forEach((t, k) => {
    full[k * RECORD_SIZE] = t;
  });
  assert.equal(keepAtCap(full, types.length, 1 << 20, 1 << 20), 1, 'no room: the mark alone');
  assert.equal(full[0], RECORD_TYPE.mark);
});

test('a long run against a small cap: every call kept to half the cap, then doubling strides, never past the cap', () => {
  const maxBytes = RESERVE_BYTES + cost(40_000);
  const plan = createThinning({ maxBytes, seed: 7, ops: 1 });
  let written = 0;
  let kept = 0;
  const chunk = 1000;
  for (let from = 0; from < 2_000_000; from += chunk) {
    for (const piece of plan.filter(records(from, chunk), written)) {
      written += cost(piece.length / RECORD_SIZE);
      kept += piece.length / RECORD_SIZE;
    }
    assert.ok(written <= maxBytes, `${written} bytes at ${from}`);
  }
  const end = plan.finish();
  written += cost(end.length / RECORD_SIZE);
  assert.ok(written <= maxBytes);
  const { fullIterations, stride, droppedAtCap } = plan.kept;
  assert.ok(fullIterations > 0 && fullIterations < 2_000_000, `${fullIterations} in full`);
  assert.ok(stride >= 64, `stride ${stride}`);
  assert.ok(kept < 40_000 && kept > fullIterations, `${kept} records kept`);
  assert.equal(droppedAtCap, 0, 'the windows kept the log under its cap without dropping');
});

test('a log under half its cap is never thinned', () => {
  const plan = createThinning({ maxBytes: 1 << 24, seed: 1, ops: 1 });
  const pieces = plan.filter(records(0, 500), 0);
  assert.equal(pieces.length, 1);
  assert.equal(pieces[0].length, 500 * RECORD_SIZE);
  assert.equal(plan.kept, null);
  assert.equal(plan.finish(), null);
});
