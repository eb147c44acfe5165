// `wasm-soak report DIR`: the library's reportFolder (src/library/report.js)
// re-analyses and re-plots a result folder; one line on stdout says what.
import { reportFolder } from '../../library/report.js';
import { noteResultFolder } from '../std-streams.js';

/**
 * Re-reports the folder of parseCommand('report', argv). The analysis
 * options not given keep the run's (its log header), else the defaults.
 */
export async function commandReport({ values, positionals }) {
  const dir = positionals[0];
  const warn = (text) => process.stderr.write(`wasm-soak: ${text}\n`);
  const { summary, exitCode, interrupted } = await reportFolder(dir, values, { warn });
  noteResultFolder(dir);
  if (!interrupted && !values.quiet)
    process.stdout.write(
      `${dir}: ${summary.status}, verdict ${summary.verdict}; wrote ${[...(summary.outputs.figures ?? []), 'summary.json'].join(', ')}\n`,
    );
  return exitCode;
}
