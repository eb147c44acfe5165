// A run's terminal report as the CLI (src/cli/) reaches it, through the
// library: the formats table's `terminal` writer (src/report/terminal.js).
// The words its own lines use are in text.js, which loads no addon.
import { write as writeTerminalReport } from '../report/terminal.js';

/**
 * Writes the terminal report of a run (runWithBaseline's { summary, outDir,
 * savedBaseline }) under its cfg (quiet, json, requirePlots) to stdout and
 * stderr.
 */
export function writeTerminal({ summary, outDir, savedBaseline }, cfg) {
  return writeTerminalReport(outDir, summary, { cfg, savedBaseline });
}
