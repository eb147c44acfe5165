// The early stop's rule on recorded runs (docs/verdicts.md, "Early stop"):
// `node bench/early-stop.js DIR...` replays each result folder's
// samples.wslog through the live analysis the timed pass runs, analysing
// at every 40th of the run (far more often than the 2 s schedule, so any
// moment the rule would fire is seen), and prints where the rule first
// decides (or "never") beside the folder's verdict. A run that is not a
// leak must say never. `npm run soak:real -- -o DIR` (or a suite's result
// root) gives the folders: every subfolder with a samples.wslog is read.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLiveAnalysis } from '../src/analysis/live.js';
import { RECORD_OFFSETS, RECORD_SIZE } from '../src/protocol.js';

const STEPS = 40;

/** The records of an intact version-2 log without their block headers (docs/log-format.md, "Blocks"). */
function readLog(path) {
  const buf = readFileSync(path);
  const length = buf.readUInt32LE(12);
  const header = JSON.parse(buf.subarray(16, 16 + length).toString('utf8'));
  const parts = [];
  for (let at = Math.ceil((16 + length) / RECORD_SIZE) * RECORD_SIZE; at + RECORD_SIZE <= buf.length; ) {
    if (buf.readUInt32BE(at) !== 0xf7575353) throw new Error(`${path}: no block header at byte ${at}`);
    const n = buf.readUInt32LE(at + 8);
    parts.push(buf.subarray(at + RECORD_SIZE, at + RECORD_SIZE + n * RECORD_SIZE));
    at += RECORD_SIZE + n * RECORD_SIZE;
  }
  const all = Buffer.concat(parts);
  return { header, records: new Uint8Array(all.buffer, all.byteOffset, all.length - (all.length % RECORD_SIZE)) };
}

/** Where the rule first decides on the run in dir: { calls, share } or null, and the run's own calls. */
function replay(dir) {
  const { header, records } = readLog(join(dir, 'samples.wslog'));
  const c = header.config;
  const planned = c.iterations;
  const cfg = { warmup: c.warmup, timeThreshold: c.timeThreshold, iterations: planned, durationMs: null };
  const live = createLiveAnalysis({ header, cfg });
  const view = new DataView(records.buffer, records.byteOffset, records.byteLength);
  const n = records.length / RECORD_SIZE;
  const iteration = (i) => view.getUint32(i * RECORD_SIZE + RECORD_OFFSETS.iteration, true);
  let k = 0;
  let decided = null;
  for (let step = 1; step <= STEPS && !decided; step++) {
    const upTo = Math.round((planned * step) / STEPS);
    let end = k;
    while (end < n && iteration(end) < upTo) end++;
    live.consume(records.subarray(k * RECORD_SIZE, end * RECORD_SIZE));
    k = end;
    decided = live.preliminary(true)?.decided ?? null;
  }
  live.close();
  return decided;
}

const roots = process.argv.slice(2);
if (roots.length === 0) {
  console.error('usage: node bench/early-stop.js RESULT-DIR...   (a result folder, or a suite root holding them)');
  process.exit(2);
}
const dirs = roots.flatMap((r) =>
  existsSync(join(r, 'samples.wslog'))
    ? [r]
    : readdirSync(r, { withFileTypes: true })
        .filter((e) => e.isDirectory() && existsSync(join(r, e.name, 'samples.wslog')))
        .map((e) => join(r, e.name)),
);
let wrong = 0;
for (const dir of dirs) {
  const s = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
  const d = replay(dir);
  const at = d ? `decided at ${d.calls.toLocaleString('en-US')} calls (${(100 * d.share).toFixed(0)} %)` : 'never';
  // Decided where the run found no leak: the rule would have changed its verdict.
  const bad = d && !['leak', 'unfreed-objects'].includes(s.verdict);
  if (bad) wrong++;
  console.log(`${dir.padEnd(40)} ${String(s.verdict).padEnd(16)} ${at}${bad ? '  WRONG' : ''}`);
}
console.log(`${dirs.length} runs, ${wrong} decided where the run found no leak`);
process.exit(wrong ? 1 : 0);
