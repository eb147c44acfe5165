// `npm run bench`: every benchmark, one after the other, each printing its
// own side-by-side figures: the runner's per-iteration overhead, the trend
// analysis of 1 M samples (statistics alone, then the whole log-to-summary
// analysis), the progress line's preliminary verdict on a 200 000-call run,
// plotting 10 M samples, the heap census on 5 M chunks, the counting pass's
// memory.grow rewrite, the time gate's accuracy up to 1 M calls, the
// library's peak RSS with and without `out` (its log on disk or in memory),
// and a self-soak: 10 M calls through the
// harness, whose own memory must stay flat.
import { spawnSync } from 'node:child_process';

const benches = [
  ['bench/runner.js'],
  ['--expose-gc', 'bench/verdict.js'],
  ['bench/analysis.js'],
  ['bench/live.js'],
  ['bench/plot.js'],
  ['bench/census.js'],
  ['bench/grow.js'],
  ['bench/accuracy.js'],
  ['bench/library-memory.js'],
  ['bench/self-soak.js'],
];
let failed = 0;
for (const args of benches) {
  const r = spawnSync(process.execPath, args, { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
