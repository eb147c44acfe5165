// Cost of the progress line's preliminary verdict (src/analysis/live.js) on a
// real run: records a run of a given duration (default 10 s of
// soak/modules/work.wasm --call step: about 60 000 calls a second, so the
// log stays near 20 MB), then replays its log on the main thread as the run
// delivered it, a chunk per 10 ms of the recorded clock, with the terminal's
// progress tick every 250 ms. The live copy's clock is the recorded one plus
// the real time spent in each analysis. Prints the analyses run, ms per
// analysis, the fraction of the run's wall time they took (target: at least
// one analysis, since the first is due after 2 s, and <= 2 %) and the cost of
// feeding the records.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLiveAnalysis } from '../src/analysis/live.js';
import { RECORD_OFFSETS, RECORD_SIZE } from '../src/protocol.js';
import { preliminaryWords } from '../src/report/progress-words.js';

const DURATION = process.argv[2] ?? '10s';
const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'wasm-soak-live-'));
const module = join(root, 'soak/modules/work.wasm');
const run = spawnSync(
  process.execPath,
  [
    join(root, 'src/cli/main.js'),
    'run',
    module,
    '--call',
    'step',
    '--duration',
    DURATION,
    '-o',
    dir,
    '-q',
    '--format',
    'md',
  ],
  { stdio: 'inherit' },
);
if (run.status !== 0 && run.status !== 1) process.exit(1);

const buf = readFileSync(join(dir, 'samples.wslog'));
rmSync(dir, { recursive: true });
const length = buf.readUInt32LE(12);
const start = Math.ceil((16 + length) / RECORD_SIZE) * RECORD_SIZE;
const header = JSON.parse(buf.subarray(16, 16 + length).toString('utf8'));
const records = blockRecords(buf, start);
const view = new DataView(records.buffer, records.byteOffset, records.byteLength);
const tMs = (i) => Number(view.getBigUint64(i * RECORD_SIZE + RECORD_OFFSETS.t, true)) / 1e6;

/**
 * The records of a freshly written (intact) version-2 log from byte start
 * on, without their block headers (docs/log-format.md, "Blocks"): the
 * records as the ring delivered them. Throws at anything but a block header
 * where one belongs.
 */
function blockRecords(bytes, start) {
  const parts = [];
  let at = start;
  while (at + RECORD_SIZE <= bytes.length) {
    if (bytes.readUInt32BE(at) !== 0xf7575353) throw new Error(`no block header at byte ${at}`);
    const n = bytes.readUInt32LE(at + 8);
    parts.push(bytes.subarray(at + RECORD_SIZE, at + RECORD_SIZE + n * RECORD_SIZE));
    at += RECORD_SIZE + n * RECORD_SIZE;
  }
  const all = Buffer.concat(parts);
  return new Uint8Array(all.buffer, all.byteOffset, Math.floor(all.length / RECORD_SIZE) * RECORD_SIZE);
}

let virtual = 0;
let realAt = performance.now();
const now = () => virtual + (performance.now() - realAt);
const cfg = { warmup: header.config.warmup, timeThreshold: header.config.timeThreshold };
const live = createLiveAnalysis({ header, cfg, now });
const count = records.length / RECORD_SIZE;
let feedMs = 0;
let last = null;
let nextTick = 250;
for (let i = 0; i < count; ) {
  // One drain: every record up to the next 10 ms of the recorded clock.
  const until = tMs(i) + 10;
  let j = i;
  while (j < count && tMs(j) < until) j++;
  virtual = tMs(j - 1);
  realAt = performance.now();
  live.consume(records.subarray(i * RECORD_SIZE, j * RECORD_SIZE));
  feedMs += performance.now() - realAt;
  if (virtual >= nextTick) {
    realAt = performance.now();
    last = preliminaryWords(live.preliminary()) ?? last;
    nextTick += 250;
  }
  i = j;
}
const during = live.cost;
const wall = during.wallMs;
realAt = performance.now();
const t0 = performance.now();
const final = live.analyze();
const finalMs = performance.now() - t0;
const met = during.runs > 0 && during.totalMs <= 0.02 * wall;
console.log(
  `live analysis: ${final.calls.toLocaleString('en-US')} calls over ${(wall / 1000).toFixed(1)} s; ${during.runs} analyses, ` +
    `${(during.totalMs / Math.max(1, during.runs)).toFixed(1)} ms each (max ${during.maxMs.toFixed(1)}), ` +
    `${((100 * during.totalMs) / wall).toFixed(2)} % of the wall time (target >= 1 analysis, <= 2 %) ${met ? 'ok' : 'MISSED'}; ` +
    `on the whole run (${final.calls.toLocaleString('en-US')} calls, stride ${final.stride}): ${finalMs.toFixed(1)} ms; ` +
    `feeding the records: ${((1e6 * feedMs) / count).toFixed(1)} ns per record`,
);
console.log(`last line: ${last}; at the end: ${final.verdict}`);
