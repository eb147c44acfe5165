// What the CLI (src/cli/) writes on the terminal, which it reaches only
// through the library: a run's terminal report (the formats table's
// `terminal` writer, src/report/terminal.js), and the words and escaping
// of the report that its own lines use (its errors, its help, a suite's
// and a comparison's lines).
import { write as writeTerminalReport } from '../report/terminal.js';

export { terminalText } from '../report/escape.js';
export { formatCount } from '../report/format.js';
export { describeFailure } from '../report/words.js';

/**
 * Writes the terminal report of a run (runWithBaseline's { summary, outDir,
 * savedBaseline }) under its cfg (quiet, json, requirePlots) to stdout and
 * stderr.
 */
export function writeTerminal({ summary, outDir, savedBaseline }, cfg) {
  return writeTerminalReport(outDir, summary, { cfg, savedBaseline });
}
