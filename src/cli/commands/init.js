// `wasm-soak init PACKAGE|GLUE.js|MODULE.wasm [-o scenario.mjs]`: writes a
// scenario that loads the module and runs one working op.
import { relative } from 'node:path';
import { EXIT } from '../../errors.js';
import { init } from '../../init/init.js';

/** Writes the scenario of parseCommand('init', argv) and says how to run it. */
export async function commandInit({ values, positionals }) {
  const done = await init({ operand: positionals[0], out: values.out ?? null, force: values.force ?? false });
  const shown = relative(process.cwd(), done.file) || done.file;
  const op = done.alloc
    ? `op ${done.op} (the module's allocator only: no exported call worked with random arguments; replace it)`
    : `op ${done.op}`;
  process.stdout.write(
    `wrote ${shown}: ${done.kind}; ${op} ran ${done.calls} calls here.\n` +
      `Add the calls your application makes as ops (its API is listed at the end of the file), then:\n` +
      `  npx wasm-soak run ${shown}\n`,
  );
  return EXIT.OK;
}
