// A soak of the harness itself: 10 M calls of an empty export through the
// real runner (worker, C loop, ring, drain, log), and whether the harness's
// own memory stays flat. Measured on both sides of the ring: the process RSS
// and the worker's V8 heap, as the worker samples them into the log at the
// slow cadence, and the main thread's RSS and V8 heap, sampled here while the
// log grows. Flat: from a fifth of the calls to the last, each grows by at
// most LIMIT bytes (a leak of one byte per call would be 8 MB).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeLog } from '../src/analysis/log-reader.js';
import { parseCommand } from '../src/library/parse-command.js';
import { runConfig } from '../src/options/schema.js';
import { RECORD_SIZE } from '../src/protocol.js';
import { formatBytes } from '../src/report/format.js';
import { runTarget } from '../src/run/run.js';

const N = Number(process.argv[2] ?? 10_000_000);
const LIMIT = 4 * 1024 * 1024;
const modulePath = new URL('../soak/modules/empty.wasm', import.meta.url).pathname;

/** The value of a decoded metric series at the first sample at or past iteration from, and its last. */
function span(series, from) {
  const k = series.iter.findIndex((it) => it >= from);
  return { first: series.value[k], last: series.value[series.value.length - 1] };
}

const out = mkdtempSync(join(tmpdir(), 'wasm-soak-self-'));
const log = join(out, 'samples.wslog');
const argv = [modulePath, '-n', String(N), '--seed', '1', '--call', 'noop'];
const cfg = Object.assign(runConfig(parseCommand('run', argv).values), { out, quiet: true, formats: [] });

// The main thread's memory while the log grows: at a fifth of the calls and
// at the last sample before the loop ends (the analysis that follows reads
// the whole log and is not the harness at steady state).
const main = { first: null, last: null };
const sampler = setInterval(() => {
  let calls = 0;
  try {
    calls = statSync(log).size / RECORD_SIZE;
  } catch {
    return; // no log yet
  }
  if (calls >= 0.999 * N) return;
  const m = process.memoryUsage();
  const now = { rss: m.rss, heap: m.heapUsed };
  if (calls >= N / 5) {
    main.first ??= now;
    main.last = now;
  }
}, 50);
const t0 = performance.now();
const { summary } = await runTarget(modulePath, cfg, ['run', modulePath]);
clearInterval(sampler);
const wallS = (performance.now() - t0) / 1000;
const data = decodeLog(log);
rmSync(out, { recursive: true });

const rows = [
  ['process RSS (worker samples)', span(data.metrics.rss, N / 5)],
  ["worker's V8 heap", span(data.metrics.jsHeap, N / 5)],
];
if (main.first) {
  rows.push(["main thread's RSS", { first: main.first.rss, last: main.last.rss }]);
  rows.push(["main thread's V8 heap", { first: main.first.heap, last: main.last.heap }]);
}
console.log(
  `self-soak: ${summary.iterations.completed} calls of an empty export in ${wallS.toFixed(1)} s, from ${N / 5} calls to the last`,
);
let flat = summary.iterations.completed === N && main.first !== null;
for (const [name, { first, last }] of rows) {
  const ok = last - first <= LIMIT;
  flat &&= ok;
  console.log(
    `  ${name.padEnd(30)} ${formatBytes(first)} -> ${formatBytes(last)} (${last >= first ? '+' : ''}${formatBytes(last - first)}; target <= +${formatBytes(LIMIT)})  ${ok ? 'ok' : 'MISSED'}`,
  );
}
if (!main.first) console.log("  main thread's memory: no sample during the loop  MISSED");
process.exitCode = flat ? 0 : 1;
