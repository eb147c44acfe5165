// `wasm-soak init PACKAGE|GLUE.js|MODULE.wasm [-o scenario.mjs]`: writes a
// scenario that loads the module and runs one working op.
import { relative } from 'node:path';
import { EXIT } from '../../errors.js';
import { init } from '../../init/init.js';

/** Writes the scenario of parseCommand('init', argv) and says how to run it. */
export async function commandInit({ values, positionals }) {
  const done = await init({ operand: positionals[0], out: values.out ?? null, force: values.force ?? false });
  const shown = relative(process.cwd(), done.file) || done.file;
  if (done.placeholder) {
    process.stdout.write(
      `wrote ${shown}: ${done.kind}; no call worked with random arguments, so its op ${done.op} is a placeholder that fails the run until you replace it with the calls your application makes (the API is listed at the end of the file).\n` +
        `Then: npx wasm-soak run ${shown}\n`,
    );
    return EXIT.OK;
  }
  process.stdout.write(
    `wrote ${shown}: ${done.kind}; op ${done.op} ran ${done.calls} calls here.\n` +
      `Add the calls your application makes as ops (its API is listed at the end of the file), then:\n` +
      `  npx wasm-soak run ${shown}\n`,
  );
  return EXIT.OK;
}
