// The summary of a run stopped before its analysis (a signal during setup,
// or a second one during the run).
import { EXIT } from '../errors.js';
import { writeSummaryOrPrint } from '../report/summary-json.js';
import { TOOL } from '../version.js';

/**
 * Writes a summary that says the run stopped before its analysis: during
 * (setup, run, counting pass) and cutShort say where and what was lost;
 * recover (a log was written, a second signal stopped it) names `wasm-soak
 * report DIR`, which analyses it; without a log there is nothing it could
 * read, so no command is named. Never throws; to stderr when the folder
 * cannot take it.
 */
export function writeStoppedSummary(dir, target, cfg, { during, cutShort, recover = false }) {
  const summary = {
    schema: 'wasm-soak-summary',
    version: 1,
    tool: TOOL,
    name: target.name,
    status: 'interrupted',
    exitCode: EXIT.INTERRUPTED,
    seed: cfg.seed,
    error: null,
    interrupted: { during, cutShort, ...(recover ? { recover: `wasm-soak report ${dir}` } : {}) },
  };
  writeSummaryOrPrint(dir, summary);
}
