// One target's run as `run`, each target of `soak` and the library's soak()
// do it: the baseline resolved before the run (src/baseline/use.js), the
// run (src/run/run.js), the run saved as a baseline after it. The one place
// the three steps meet.
import { saveRunBaseline, withBaseline } from '../baseline/use.js';
import { moduleFacts } from '../compare/module-facts.js';
import { runTarget } from '../run/run.js';
import { describeTarget } from '../run/target.js';

/** Sizes raw, gzip -9 and brotli of a module target's file, or null for a scenario or no file (the library's bytes). */
const sizesOf = (file) => () => (file && describeTarget(file).kind === 'module' ? moduleFacts(file).size : null);

/**
 * cfg (runConfig's) with its baseline resolved: --baseline's seed,
 * iterations and counting pass for what argv (the run's, target first) does
 * not give. file: the target's file (null for bytes); target: a suite
 * target's name, or null. Throws exit 2 when the baseline cannot be read.
 * Resolving twice is resolving once, so soak may resolve every target's
 * before the first run.
 */
export function resolveBaseline(cfg, argv, { file, target = null }) {
  return withBaseline(cfg, argv, { target, sizes: sizesOf(file) });
}

/**
 * Runs source (a path, or { bytes, name }) with cfg as `run ...argv` would,
 * its baseline resolved (resolveBaseline), and saves it as a baseline when
 * cfg.saveBaseline asks and the run completed (never in memory). file,
 * target: as resolveBaseline's; interrupt, inMemory: runTarget's. Resolves
 * runTarget's { exitCode, summary, outDir } and savedBaseline (the baseline
 * file's path, or null).
 */
export async function runWithBaseline(source, cfg, argv, { file, target = null, interrupt, inMemory = false }) {
  const resolved = resolveBaseline(cfg, argv, { file, target });
  const run = await runTarget(source, resolved, ['run', ...argv], { interrupt, inMemory });
  const savedBaseline = inMemory
    ? null
    : saveRunBaseline(resolved, run.summary, run.outDir, { target, sizes: sizesOf(file) });
  return { ...run, savedBaseline };
}
