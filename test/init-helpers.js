// Helpers of the init tests (test/e2e/long/init.test.js, test/e2e/long/init-emscripten.test.js):
// a scratch project, and init of an operand followed by a run of what it wrote.
import assert from 'node:assert/strict';
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fixture, readSummary, runCli, tempDir } from './helpers.js';

export const CALLS = 1000;

/** A scratch project that has this checkout's node_modules, as a user's project has its dependencies. */
export function project() {
  const dir = tempDir('wasm-soak-init-');
  symlinkSync(fixture('node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

/** init operand into dir, then run the scenario 1 000 times; returns { text, summary }. */
export async function initAndRun(operand, dir = project()) {
  const scenario = join(dir, 'scenario.mjs');
  const init = await runCli(['init', operand, '-o', scenario], { cwd: dir });
  assert.equal(init.code, 0, `init ${operand}: ${init.stderr}`);
  assert.match(init.stdout, /ran 200 calls here/);
  const out = join(dir, 'out');
  const r = await runCli(['run', scenario, '-n', String(CALLS), '--seed', '3', '-q', '--fail-on', 'none', '-o', out], {
    cwd: dir,
  });
  assert.equal(r.code, 0, `run of the scenario for ${operand}: ${r.stderr}`);
  const summary = readSummary(out);
  assert.equal(summary.iterations.completed, CALLS, `${operand}: every call completed`);
  return { text: readFileSync(scenario, 'utf8'), summary };
}
