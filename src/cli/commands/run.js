// `wasm-soak run TARGET`: one soak run (the library's runWithBaseline), its
// result folder and the terminal report (the library's writeTerminal).
import { runWithBaseline } from '../../library/run-target.js';
import { writeTerminal } from '../../library/terminal.js';
import { runConfig } from '../../options/schema.js';
import { noteResultFolder } from '../std-streams.js';

/** Runs the target of parseCommand('run', argv); resolves the exit code. */
export async function commandRun({ values, positionals }, argv) {
  const cfg = runConfig(values);
  const run = await runWithBaseline(positionals[0], cfg, argv, { file: positionals[0] });
  noteResultFolder(run.outDir);
  await writeTerminal(run, cfg);
  return run.exitCode;
}
