// A working set's wander against the memory verdicts (docs/verdicts.md, "A
// finding must recur"): the clean fixture's live bytes (soak/fixtures/
// slots.h: 256 slots of log-normal sizes, stationary after a few hundred
// calls) judged at many seeds, first pass alone and then with the second
// run that a finding or question a wander could explain asks for (another
// seed, run.js replicaSeed), as `run` would make it.
//
// One real run of soak/scenarios/clean-stats.mjs gives the timing, the
// sample iterations and the warm-up; each seed's live bytes are the
// fixture's own, computed in this process at those iterations (the path
// depends on the seed and the call count alone). The leak cases add a
// fixed number of bytes per call to them.
//
// Targets: on the stationary paths, memory findings ≤ 0.1 % and open
// questions ≤ 0.5 % of the seeds; a 16 B/call leak found in ≥ 95 %; the
// second runs cost a 8 B/call leak (found in about 90 % of the first
// passes) at most 1 point of detection.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { decodeLog } from '../src/analysis/log-reader.js';
import { analyzeRun } from '../src/analysis/verdict.js';
import { replicaSeed } from '../src/run/run.js';
import '../src/worker/quiet-wasi.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TARGETS = { findings: 0.001, open: 0.005, detection: 0.95, cost: 0.01 };

const { values: args } = parseArgs({
  options: {
    seeds: { type: 'string', default: '5000' },
    'leak-seeds': { type: 'string', default: '1000' },
  },
});

/** The decoded log of one real clean-stats run (its timing, sample iterations and warm-up). */
function realRun() {
  const dir = mkdtempSync(join(tmpdir(), 'wasm-soak-wander-'));
  try {
    const cli = join(ROOT, 'src', 'cli', 'main.js');
    const scenario = join(ROOT, 'soak', 'scenarios', 'clean-stats.mjs');
    const r = spawnSync(process.execPath, [cli, 'run', scenario, '-q', '--format', 'md', '--seed', '1', '-o', dir]);
    if (r.status !== 0 && r.status !== 1) throw new Error(`the timing run failed: ${r.stderr}`);
    return decodeLog(join(dir, 'samples.wslog'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// node:wasi warns that it is experimental when it loads: after the filter.
const { WASI } = await import('node:wasi');
const data = realRun();
const live = data.metrics.liveBytes;
const module = new WebAssembly.Module(readFileSync(join(ROOT, 'soak', 'modules', 'clean.wasm')));

/** The run's data with the clean fixture's live bytes at seed, plus leak bytes per call. */
function withPath(seed, leak) {
  const wasi = new WASI({ version: 'preview1', returnOnExit: true });
  const instance = new WebAssembly.Instance(module, wasi.getImportObject());
  wasi.initialize(instance);
  const e = instance.exports;
  e.seed(seed);
  const value = new Float64Array(live.iter.length);
  for (let i = 0, k = 0; i < data.calls && k < value.length; i++) {
    e.step(i);
    while (k < value.length && live.iter[k] === i) value[k++] = (e.live_bytes() >>> 0) + leak * i;
  }
  const metrics = { ...data.metrics, liveBytes: { ...live, value } };
  delete metrics.heapBytes;
  return { ...data, header: { ...data.header, seed }, metrics };
}

/** 'finding', 'open' or 'stable' of analyzeRun's result r. */
const outcome = (r) => (r.findings.length > 0 ? 'finding' : r.inconclusive.length > 0 ? 'open' : 'stable');

/** Tallies n seeds with leak bytes per call: { alone, judged, second } counts by outcome. */
function tally(n, leak) {
  const alone = { finding: 0, open: 0, stable: 0 };
  const judged = { finding: 0, open: 0, stable: 0 };
  let second = 0;
  for (let s = 1; s <= n; s++) {
    const seed = Math.imul(s, 2654435761) >>> 0 || 1;
    const first = withPath(seed, leak);
    const r = analyzeRun(first);
    alone[outcome(r)]++;
    if (!r.mustRecur) {
      judged[outcome(r)]++;
      continue;
    }
    second++;
    judged[outcome(analyzeRun({ ...first, replica: withPath(replicaSeed(seed), leak) }))]++;
  }
  return { alone, judged, second };
}

const pct = (k, n) => `${((100 * k) / n).toFixed(2)} %`;
const verdict = (met) => (met ? 'ok' : 'MISSED');
const seeds = Number(args.seeds);
const leakSeeds = Number(args['leak-seeds']);
const analysed = analyzeRun(data);
console.log(
  `wander: clean fixture live bytes, ${live.iter.length} samples over ${data.calls} calls, warm-up ${analysed.warmup.iterations}`,
);

const still = tally(seeds, 0);
console.log(
  `wander: ${seeds} stationary seeds, first pass alone: findings ${pct(still.alone.finding, seeds)}, open ${pct(still.alone.open, seeds)}; second runs ${still.second}`,
);
console.log(
  `wander: memory findings with the second run ${pct(still.judged.finding, seeds)} (target <= ${pct(TARGETS.findings * seeds, seeds)}) ${verdict(still.judged.finding <= TARGETS.findings * seeds)}`,
);
console.log(
  `wander: open questions with the second run ${pct(still.judged.open, seeds)} (target <= ${pct(TARGETS.open * seeds, seeds)}) ${verdict(still.judged.open <= TARGETS.open * seeds)}`,
);
for (const leak of [16, 8]) {
  const t = tally(leakSeeds, leak);
  const target =
    leak === 16
      ? {
          met: t.judged.finding >= TARGETS.detection * leakSeeds,
          text: `>= ${pct(TARGETS.detection * leakSeeds, leakSeeds)}`,
        }
      : {
          met: t.judged.finding >= t.alone.finding - TARGETS.cost * leakSeeds,
          text: `>= the first pass alone, ${pct(t.alone.finding, leakSeeds)}, less 1 point`,
        };
  console.log(
    `wander: ${leak} B/call leak, ${leakSeeds} seeds, found ${pct(t.judged.finding, leakSeeds)} (open ${pct(t.judged.open, leakSeeds)}; second runs ${t.second}) (target ${target.text}) ${verdict(target.met)}`,
  );
}
