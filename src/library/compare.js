// `wasm-soak compare` and a suite's comparison targets, from the library:
// the arms in interleaved ABBA blocks (src/compare/run-compare.js) and the
// TL;DR table the terminal shows.
import { runCompare } from '../compare/run-compare.js';
import { compareConfig } from '../options/schema.js';
import { terminalReport } from '../report/compare-page.js';
import { terminalText } from '../report/escape.js';

/**
 * Compares the arms at paths under the options values (compare's,
 * camelCase); argv: the command line after `compare`, for the reproduce
 * command. Resolves runCompare's { exitCode, result, outDir } and terminal:
 * the TL;DR table, escaped for a terminal.
 */
export async function compareArms(paths, values, argv) {
  const run = await runCompare(paths, compareConfig(values), ['compare', ...argv]);
  return { ...run, terminal: terminalText(terminalReport(run.result, run.outDir)) };
}
