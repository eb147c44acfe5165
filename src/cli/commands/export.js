// `wasm-soak export DIR --csv | --pprof | --dhat`: the library's
// exportResults (src/library/export.js), the paths written on stdout.
import { EXIT } from '../../errors.js';
import { exportResults } from '../../library/export.js';

/** Exports the folder of parseCommand('export', argv): --csv, --pprof, --dhat, or more than one. */
export async function commandExport({ values, positionals }) {
  const warn = (text) => process.stderr.write(`wasm-soak: ${text}\n`);
  const written = await exportResults(positionals[0], values, { warn });
  process.stdout.write(`${written.join('\n')}\n`);
  return EXIT.OK;
}
