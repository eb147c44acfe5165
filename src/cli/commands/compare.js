// `wasm-soak compare A.wasm B.wasm|B.so [C …]`: the arms in interleaved ABBA
// blocks, the TL;DR table on stdout, compare.json/.md/.html in the folder.
import { runCompare } from '../../compare/run-compare.js';
import { compareConfig } from '../../options/schema.js';
import { terminalReport } from '../../report/compare-page.js';
import { terminalText } from '../../report/escape.js';

/** Runs the comparison of parseCommand('compare', argv); resolves the exit code. */
export async function commandCompare({ values, positionals }, argv) {
  const cfg = compareConfig(values);
  const { exitCode, result, outDir } = await runCompare(positionals, cfg, ['compare', ...argv]);
  process.stdout.write(`${terminalText(terminalReport(result, outDir))}\n`);
  return exitCode;
}
