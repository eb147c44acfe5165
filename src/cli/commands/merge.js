// `wasm-soak merge DIR...`: the shards' suite results as one (the
// library's mergeFolders, src/library/merge.js), its lines on stdout.
import { mergeFolders } from '../../library/merge.js';
import { RESULTS_ROOT } from '../../options/schema.js';

/** Runs parseCommand('merge', argv); resolves the exit code. */
export async function commandMerge({ values, positionals }) {
  const { exitCode, lines } = await mergeFolders(positionals, values.out ?? RESULTS_ROOT);
  process.stdout.write(`${lines.join('\n')}\n`);
  return exitCode;
}
