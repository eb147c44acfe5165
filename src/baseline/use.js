// --save-baseline and --baseline for `run` and each target of `soak`:
// resolve the baseline before the run (its seed, iterations and counting
// pass unless given, so that the run replays the same calls), and save one
// after it.
import { join } from 'node:path';
import { baselineRecord } from '../analysis/against-baseline.js';
import { decodeLog } from '../analysis/log-reader.js';
import { baselineDir, loadBaseline, saveBaseline } from './store.js';

/** The baseline reference of a target: ref, or ref/<target> for a suite's. */
const refOf = (ref, target) => (target ? join(baselineDir(ref), target) : ref);

/**
 * cfg with cfg.baseline resolved to { record, dir, sizes } (a string
 * before), the baseline's seed, iterations and counting pass taken for what
 * argv does not give. target: the suite target's name (soak), or null;
 * sizes: a function that returns the target's sizes ({ raw, gzip, brotli },
 * or null for a scenario or bytes without a file), called only when a
 * baseline is given. Throws exit 2 when the baseline cannot be read.
 */
export function withBaseline(cfg, argv, { target = null, sizes }) {
  if (cfg.baseline === null || typeof cfg.baseline !== 'string') return cfg;
  const { record, dir } = loadBaseline(refOf(cfg.baseline, target));
  const given = (flag, short) => argv.some((a) => a === flag || a.startsWith(`${flag}=`) || a === short);
  return {
    ...cfg,
    seed: given('--seed') ? cfg.seed : record.seed,
    iterations: given('--iterations', '-n') ? cfg.iterations : record.config.iterations,
    countAllocs: cfg.countAllocs || record.counts !== null,
    baseline: { record, dir, sizes: sizes() },
  };
}

/**
 * Saves the run in outDir as baseline cfg.saveBaseline (ref/<target> for a
 * suite's) when it completed; target and sizes as withBaseline's. Returns
 * the baseline file's path, or null.
 */
export function saveRunBaseline(cfg, summary, outDir, { target = null, sizes }) {
  if (!cfg.saveBaseline || summary.status !== 'completed') return null;
  const timed = decodeLog(join(outDir, 'samples.wslog'));
  const name = target ? `${cfg.saveBaseline}/${target}` : cfg.saveBaseline;
  return saveBaseline(refOf(cfg.saveBaseline, target), baselineRecord(summary, timed, sizes(), name));
}
