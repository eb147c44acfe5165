// The heap census's cost, measured in one run of the real runner on a heap
// of about 5 M chunks in about 200 MiB of linear memory
// (bench/census-heap.mjs), at the default slow cadence: the first locate
// (taken before the first call: a search of static memory and a walk that
// proves the state), the re-walks from the remembered state at the slow
// samples, and the census's share of the run's wall time (kept under 5 % by
// the census's own 4 % time budget, which skips censuses due too soon; the
// share without the budget is printed too).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRun } from '../src/analysis/log-reader.js';
import { parseCommand, runConfig } from '../src/cli/options.js';
import { runTarget } from '../src/run/run.js';

const DURATION = process.argv[2] ?? '10s';
const scenario = new URL('./census-heap.mjs', import.meta.url).pathname;
const out = mkdtempSync(join(tmpdir(), 'wasm-soak-census-bench-'));
const argv = ['-n', '100000000', '--duration', DURATION, '--seed', '1', '--warmup', '0'];
const cfg = runConfig(parseCommand('run', [scenario, ...argv]).values);
Object.assign(cfg, { out, quiet: true, formats: [] });
const { summary } = await runTarget(scenario, cfg, ['run', scenario]);
const run = await readRun(join(out, 'samples.wslog'));
rmSync(out, { recursive: true });

const m = run.metrics;
const first = run.header.sources.census;
const walks = Array.from(m.censusWalkNs?.value ?? [], (ns) => ns / 1e6);
const chunks = Array.from(m.censusChunks?.value ?? []);
const memory = Object.entries(m).find(([k]) => k.startsWith('memory:'))?.[1];
const slow = Array.from(m.rss?.tMs ?? m.jsHeap.tMs);
const gaps = slow.slice(1).map((t, i) => t - slow[i]);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const rewalk = median(walks.slice(1));
const spent = walks.reduce((s, x) => s + x, 0);
const share = spent / summary.durationMs;
const unbudgeted = rewalk / median(gaps);
const ok = (pass) => (pass ? 'ok' : 'MISSED');

console.log(`census: ${first?.source ?? `nothing recognised (${first?.enable})`}`);
console.log(
  `  memory                 ${((memory?.value.at(-1) ?? 0) / 2 ** 20).toFixed(0)} MiB, ${chunks.at(-1) ?? 0} chunks`,
);
console.log(`  first locate           ${first?.walkMs?.toFixed(1)} ms (target <= 100)  ${ok(first?.walkMs <= 100)}`);
console.log(
  `  re-walk                ${rewalk.toFixed(1)} ms, median of ${walks.length - 1} (target <= 20)  ${ok(rewalk <= 20)}`,
);
console.log(
  `  share of wall time     ${(share * 100).toFixed(2)} % over ${(summary.durationMs / 1000).toFixed(1)} s, ${walks.length} of ${slow.length} slow samples taken (target: censuses taken, <= 5 %)  ${ok(walks.length > 0 && share <= 0.05)}`,
);
console.log(
  `  without the budget     ${(unbudgeted * 100).toFixed(1)} % (a re-walk at every slow sample, one per ${median(gaps).toFixed(0)} ms)`,
);
