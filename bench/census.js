// The heap census's cost, measured in runs of the real runner on a heap of
// about 5 M chunks in about 200 MiB of linear memory
// (bench/census-heap.mjs), at the default slow cadence: the first locate
// (taken before the first call: a search of static memory and a walk that
// proves the state), the re-walks from the remembered state at the slow
// samples against their reference (a plain sequential read of the same
// number of heap bytes, measured right after the run, both in CPU time:
// target <= 2x), and
// the census's share of the loop thread's CPU time (kept under
// 5 % by the census's own 4 % budget, charged in that thread's CPU time,
// which skips censuses due too soon, and the floor's cap of 4.5 % on the 16
// censuses the budget does not skip; the share without the budget is
// printed too). Twice: quiet, and with two busy loops started halfway
// through the run (a machine loaded mid-run stretches wall time, not the
// CPU time a walk uses). The share of wall time is printed for both.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeLog } from '../src/analysis/log-reader.js';
import { parseCommand } from '../src/library/parse-command.js';
import { parseDuration } from '../src/options/parsers.js';
import { runConfig } from '../src/options/schema.js';
import { runTarget } from '../src/run/run.js';
import { startLoad } from './load.js';

const DURATION = process.argv[2] ?? '10s';
const scenario = new URL('./census-heap.mjs', import.meta.url).pathname;
const ok = (pass) => (pass ? 'ok' : 'MISSED');

/** One run; loaded: start two busy loops halfway through. Returns { summary, run }. */
async function measure(loaded) {
  const out = mkdtempSync(join(tmpdir(), 'wasm-soak-census-bench-'));
  const argv = ['-n', '100000000', '--duration', DURATION, '--seed', '1', '--warmup', '0'];
  const cfg = runConfig(parseCommand('run', [scenario, ...argv]).values);
  Object.assign(cfg, { out, quiet: true, formats: [] });
  const ms = parseDuration(DURATION);
  let stop = () => {};
  const timer = loaded ? setTimeout(() => (stop = startLoad({ count: 2, limitMs: ms })), ms / 2) : null;
  try {
    const { summary } = await runTarget(scenario, cfg, ['run', scenario]);
    return { summary, run: await decodeLog(join(out, 'samples.wslog')) };
  } finally {
    clearTimeout(timer);
    stop();
    rmSync(out, { recursive: true });
  }
}

const quiet = await measure(false);
const { run } = quiet;
const m = run.metrics;
const first = run.header.sources.census;
const walks = Array.from(m.censusWalkNs?.value ?? [], (ns) => ns / 1e6);
const chunks = Array.from(m.censusChunks?.value ?? []);
const memory = Object.entries(m).find(([k]) => k.startsWith('memory:'))?.[1];
const slow = Array.from(m.rss?.tMs ?? m.jsHeap.tMs);
const gaps = slow.slice(1).map((t, i) => t - slow[i]);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const rewalk = median(walks.slice(1));
const unbudgeted = rewalk / median(gaps);

/**
 * The reference of a re-walk: the median CPU ms (the walks are charged in
 * the loop thread's CPU time; the process has one busy thread here) of a
 * plain sequential read of bytes bytes (memchr over zeroed, resident
 * memory, for a byte it never finds), measured right after the run. The
 * zeros are written, so that every page is its own (untouched pages would
 * all read the kernel's one zero page, from the cache).
 */
function sequentialRead(bytes) {
  const buf = Buffer.allocUnsafeSlow(Math.max(1, bytes)).fill(0);
  const cpuMs = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const times = [];
  for (let r = 0; r < 9; r++) {
    const t = cpuMs();
    if (buf.indexOf(1) !== -1) throw new Error('the reference read found a byte it should not');
    times.push(cpuMs() - t);
  }
  return median(times);
}

/** The census's share of the loop thread's CPU time and of the run's wall time, and its censuses. */
function shares({ summary: s, run: r }) {
  const spent = Array.from(r.metrics.censusWalkNs?.value ?? []).reduce((t, ns) => t + ns, 0);
  const cpu = r.metrics.threadCpuNs?.value ?? [];
  const wallSpent = spent / 1e6; // a walk's CPU time: at most its wall time
  return {
    cpu: cpu.length > 1 ? spent / (cpu[cpu.length - 1] - cpu[0]) : NaN,
    wall: wallSpent / s.durationMs,
    taken: r.metrics.censusWalkNs?.value.length ?? 0,
    slow: (r.metrics.rss?.tMs ?? r.metrics.jsHeap.tMs).length,
  };
}

console.log(`census: ${first?.source ?? `nothing recognised (${first?.enable})`}`);
console.log(
  `  memory                 ${((memory?.value.at(-1) ?? 0) / 2 ** 20).toFixed(0)} MiB, ${chunks.at(-1) ?? 0} chunks`,
);
console.log(`  first locate           ${first?.walkMs?.toFixed(1)} ms (target <= 100)  ${ok(first?.walkMs <= 100)}`);
const heapBytes = m.censusHeap?.value.at(-1) ?? memory?.value.at(-1) ?? 0;
const read = sequentialRead(heapBytes);
console.log(
  `  re-walk                ${rewalk.toFixed(1)} ms, median of ${walks.length - 1}; reference: a sequential read of its ${(heapBytes / 2 ** 20).toFixed(0)} MiB heap ${read.toFixed(1)} ms (load ${loadavg()[0].toFixed(1)})`,
);
console.log(
  `  re-walk / read         ${(rewalk / read).toFixed(2)}x (target <= 2, reference ${read.toFixed(1)} ms)  ${ok(rewalk / read <= 2)}`,
);
const loaded = await measure(true);
for (const [name, r] of [
  ['quiet', quiet],
  ['loaded mid-run', loaded],
]) {
  const x = shares(r);
  console.log(
    `  share, ${name.padEnd(15)}${(x.cpu * 100).toFixed(2)} % of the loop thread's CPU time (${(x.wall * 100).toFixed(2)} % of the wall time) over ${(r.summary.durationMs / 1000).toFixed(1)} s, ${x.taken} of ${x.slow} slow samples taken (target: censuses taken, <= 5 %)  ${ok(x.taken > 0 && x.cpu <= 0.05)}`,
  );
}
console.log(
  `  without the budget     ${(unbudgeted * 100).toFixed(1)} % (a re-walk at every slow sample, one per ${median(gaps).toFixed(0)} ms)`,
);
