// `wasm-soak init --ci`: the nightly workflow, read back as YAML (a small
// parser of the subset the emitter writes, below) and its commands run here
// as the runners would: each shard, a second night against the first's
// baselines, the merge and the step summary (docs/suites.md, "A nightly job").
// The runs through the CLI; the checks without a run are in
// test/unit/init/ci-workflow.test.js.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import { CLI, fixture, runCli, tempDir } from '../../helpers.js';
import { parseYaml, SHARD } from '../../yaml-subset.js';

/**
 * A suite of n cheap targets in dir (clean fixture, the default 20 000 calls;
 * stable or inconclusive accepted). Not fewer: a run of 2 000 calls (half a
 * millisecond) holds too few samples of the machine's control, so night two
 * compares the calls alone with night one's, and a load that lands on one
 * night made that +31 % slower, a time regression, in 1 of 8 tries.
 */
function suiteIn(dir, n) {
  mkdirSync(join(dir, 'soak'), { recursive: true });
  cpSync(fixture('soak', 'modules', 'clean.wasm'), join(dir, 'soak', 'clean.wasm'));
  const targets = Array.from({ length: n }, (_, k) => ({
    name: `clean-${k + 1}`,
    module: 'clean.wasm',
    call: 'step',
    iterations: 20000,
    expect: ['stable', 'inconclusive'],
  }));
  writeFileSync(join(dir, 'soak', 'suite.json'), JSON.stringify({ targets }));
}

/** Writes the workflow in dir for its suite and parses it. */
async function workflowIn(dir) {
  const r = await runCli(['init', '--ci', 'soak/suite.json'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  return parseYaml(readFileSync(join(dir, '.github', 'workflows', 'wasm-soak.yml'), 'utf8'));
}

/** Runs a step's script as the runner's bash would, npx wasm-soak being this checkout's CLI. */
function runStep(script, dir, { shard = null, summary }) {
  const text = shard === null ? script : script.replaceAll(SHARD, String(shard));
  assert.doesNotMatch(text, /\$\{\{/, 'every expression of a run step is known here');
  const prelude = `npx() { shift; node ${JSON.stringify(CLI)} "$@"; }\nset -e\n`;
  return execFileSync('bash', ['-c', prelude + text], {
    cwd: dir,
    env: { ...process.env, GITHUB_STEP_SUMMARY: summary },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

const stepRunning = (steps, pattern) => steps.find((s) => pattern.test(s.run ?? ''));

test('init --ci: a suite of several targets is a matrix of shards and a merge, and its commands run here', async () => {
  const dir = tempDir();
  suiteIn(dir, 3);
  const w = await workflowIn(dir);
  assert.deepEqual(Object.keys(w.on), ['schedule', 'workflow_dispatch']);
  assert.deepEqual(Object.keys(w.jobs), ['soak', 'merge']);
  const { soak, merge } = w.jobs;
  assert.deepEqual(soak.strategy.matrix.shard, [1, 2, 3]);
  assert.equal(soak.strategy['fail-fast'], false);
  assert.equal(merge.needs, 'soak');
  assert.equal(merge.if, 'always()');
  const run = stepRunning(soak.steps, /wasm-soak soak/);
  assert.match(run.run, /--expect --shard \$\{\{ matrix\.shard \}\}\/3 -o shard-\$\{\{ matrix\.shard \}\}/);
  assert.match(run.run, /--save-baseline nightly/);
  // The baselines come from the cache before the soak and go back after it, per shard.
  const uses = soak.steps.map((s) => s.uses ?? s.run);
  const at = (x) => uses.findIndex((u) => u?.startsWith(x));
  assert.ok(at('actions/cache/restore') < uses.indexOf(run.run) && uses.indexOf(run.run) < at('actions/cache/save'));
  assert.match(soak.steps[at('actions/cache/restore')].with.key, /matrix\.shard/);
  const upload = soak.steps[at('actions/upload-artifact')];
  assert.equal(upload.if, 'always()');
  assert.equal(upload.with.path, `shard-${SHARD}`);
  const mergeRun = stepRunning(merge.steps, /wasm-soak merge/);
  const summaryRun = stepRunning(merge.steps, /GITHUB_STEP_SUMMARY/);
  assert.equal(summaryRun.if, 'always()');
  assert.equal(merge.steps.find((s) => s.uses?.startsWith('actions/upload-artifact')).with.path, 'soak-results');

  // Each job runs on a runner of its own: a checkout of the repository (its baselines: the cache's).
  const runner = (name) => {
    const r = join(dir, name);
    cpSync(join(dir, 'soak'), join(r, 'soak'), { recursive: true });
    return r;
  };
  const summary = join(dir, 'step-summary.md');
  // Night one: no baselines yet; each shard saves its own.
  const shards = [1, 2, 3].map((k) => runner(`runner-${k}`));
  for (const [i, r] of shards.entries()) runStep(run.run, r, { shard: i + 1, summary });
  for (const [i, r] of shards.entries())
    assert.ok(existsSync(join(r, 'soak-results', 'baselines', 'nightly', `clean-${i + 1}`)));
  // Night two: shard 1 against night one's baseline (its runner has it from the cache).
  renameSync(join(shards[0], 'shard-1'), join(shards[0], 'night-1'));
  runStep(run.run, shards[0], { shard: 1, summary });
  const again = JSON.parse(readFileSync(join(shards[0], 'shard-1', 'clean-1', 'summary.json'), 'utf8'));
  assert.ok(again.baseline, 'the second night compares with the first');
  // The merge job downloads every shard-* artifact under shards/.
  const merger = runner('runner-merge');
  for (const [i, r] of shards.entries())
    cpSync(join(r, `shard-${i + 1}`), join(merger, 'shards', `shard-${i + 1}`), { recursive: true });
  runStep(mergeRun.run, merger, { summary });
  runStep(summaryRun.run, merger, { summary });
  assert.ok(existsSync(join(merger, 'soak-results', 'junit.xml')));
  const md = readFileSync(summary, 'utf8');
  for (const k of [1, 2, 3]) assert.match(md, new RegExp(`clean-${k}`));
});

test('init --ci: one target is one job; an existing workflow is kept unless --force', async () => {
  const dir = tempDir();
  suiteIn(dir, 1);
  const w = await workflowIn(dir);
  assert.deepEqual(Object.keys(w.jobs), ['soak']);
  assert.equal(w.jobs.soak.strategy, undefined);
  const run = stepRunning(w.jobs.soak.steps, /wasm-soak soak/);
  assert.doesNotMatch(run.run, /--shard/);
  assert.ok(stepRunning(w.jobs.soak.steps, /GITHUB_STEP_SUMMARY/));
  const again = await runCli(['init', '--ci', 'soak/suite.json'], { cwd: dir });
  assert.equal(again.code, 2);
  assert.match(again.stderr, /exists already/);
  assert.equal((await runCli(['init', '--ci', 'soak/suite.json', '--force'], { cwd: dir })).code, 0);
  const none = await runCli(['init', '--ci'], { cwd: dir });
  assert.equal(none.code, 2);
});
