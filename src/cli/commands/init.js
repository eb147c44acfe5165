// `wasm-soak init PACKAGE|GLUE.js|MODULE.wasm [-o scenario.mjs]`: writes a
// scenario that loads the module and runs one working op.
import { relative } from 'node:path';
import { EXIT } from '../../errors.js';
import { writeCiWorkflow } from '../../init/ci-workflow.js';
import { init } from '../../init/init.js';
import { VERSION } from '../../version.js';

/**
 * What init saw the op do: "op X ran N calls here, each entering the module"
 * only for an op that entered it (one whose module init could not watch is
 * said to have been run, no more).
 */
function ran({ op, calls, reach }) {
  if (!reach) return `op ${op} worked ${calls} times here (init could not see whether it enters a wasm module)`;
  const per = reach.calls === 1 ? 'one call' : `${Math.round(reach.calls * 10) / 10} calls`;
  return `op ${op} ran ${calls} calls here, each entering the module (${per} into its exports${reach.allocates ? ', allocating' : ''})`;
}

/** Writes the scenario of parseCommand('init', argv) and says how to run it. */
export async function commandInit({ values, positionals }) {
  if (values.ci) {
    const w = writeCiWorkflow({
      suitePath: positionals[0],
      out: values.out ?? null,
      force: values.force ?? false,
      version: VERSION,
    });
    const jobs = w.shards > 1 ? `${w.shards} shard jobs (--shard K/${w.shards}) and a merge job` : 'one job';
    process.stdout.write(
      `wrote ${relative(process.cwd(), w.file) || w.file}: the nightly soak of ${w.suite} (${w.targets} target${w.targets === 1 ? '' : 's'}) in ${jobs}, each night against the last one's baselines. Commit it; the first night saves the baselines the next checks against.\n`,
    );
    return EXIT.OK;
  }
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
    `wrote ${shown}: ${done.kind}; ${ran(done)}.\n` +
      `Add the calls your application makes as ops (its API is listed at the end of the file), then:\n` +
      `  npx wasm-soak run ${shown}\n`,
  );
  return EXIT.OK;
}
