// The thinning of a capped log (src/run/thinning.js), measured: 20 M calls
// drained in chunks of 4 096 records against a 64 MiB cap, the time per
// record of the whole thinning and the share of it spent in C (the filter,
// addon.logThin, and addon.recordIterations), so that where thinning lives
// is decided by numbers: `node bench/thinning.js` (docs/benchmarks.md).
import { addon } from '../src/addon.js';
import { RECORD_OFFSETS, RECORD_SIZE, RECORD_TYPE } from '../src/protocol.js';
import { cost, createThinning } from '../src/run/thinning.js';

const CALLS = 20_000_000;
const CHUNK = 4096;
const chunk = new Uint8Array(CHUNK * RECORD_SIZE);
const view = new DataView(chunk.buffer);
for (let k = 0; k < CHUNK; k++) {
  view.setUint8(k * RECORD_SIZE + RECORD_OFFSETS.type, RECORD_TYPE.call);
  view.setBigUint64(k * RECORD_SIZE + RECORD_OFFSETS.a, 100n, true);
}
let inC = 0n;
const { logThin, recordIterations } = addon;
const timed =
  (fn) =>
  (...args) => {
    const t = process.hrtime.bigint();
    const r = fn(...args);
    inC += process.hrtime.bigint() - t;
    return r;
  };
addon.logThin = timed(logThin);
addon.recordIterations = timed(recordIterations);
const plan = createThinning({ maxBytes: 64 * 2 ** 20, seed: 1, ops: 1 });
let written = 0;
let filling = 0n;
const started = process.hrtime.bigint();
for (let from = 0; from < CALLS; from += CHUNK) {
  const t = process.hrtime.bigint();
  for (let k = 0; k < CHUNK; k++) view.setUint32(k * RECORD_SIZE + RECORD_OFFSETS.iteration, (from + k) >>> 0, true);
  filling += process.hrtime.bigint() - t;
  for (const piece of plan.filter(chunk, written)) written += cost(piece.length / RECORD_SIZE);
}
const total = Number(process.hrtime.bigint() - started - filling);
addon.logThin = logThin;
addon.recordIterations = recordIterations;
console.log(
  `thinning: ${(total / CALLS).toFixed(1)} ns per record in all, ${(Number(inC) / CALLS).toFixed(1)} ns of it in C (logThin, recordIterations), ${((total - Number(inC)) / CALLS).toFixed(1)} ns the plan in JS; ` +
    `stride ${plan.kept.stride}, ${(written / 2 ** 20).toFixed(1)} MiB written`,
);
