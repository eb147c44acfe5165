// `wasm-soak compare A.wasm B.wasm|B.so [C …]`: the library's compareArms
// (src/library/compare.js): the TL;DR table on stdout, compare.json/.md/.html
// in the folder.
import { compareArms } from '../../library/compare.js';

/** Runs the comparison of parseCommand('compare', argv); resolves the exit code. */
export async function commandCompare({ values, positionals }, argv) {
  const { exitCode, terminal } = await compareArms(positionals, values, argv);
  process.stdout.write(`${terminal}\n`);
  return exitCode;
}
