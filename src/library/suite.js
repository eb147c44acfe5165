// `wasm-soak soak [suite.json]` (src/cli/commands/soak.js calls
// soakSuite): runs every target of a suite (or with --shard K/N its share)
// with the same options, prints one verdict line per target and writes the
// suite's reports at the root: junit.xml, index.html, summary.md and
// suite-result.json (suite-report.js). With --expect each target's verdict
// is checked against the suite's `expect` (exit 0 when all match, 1
// otherwise, 3 when a run failed); without it the exit code gates on
// findings like `run` does. Each target's exit code is the judge's
// (src/analysis/judge.js, via suite-result.js caseOutcome); the suite's is
// the worst of them.
import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { judge } from '../analysis/judge.js';
import { runCompare } from '../compare/run-compare.js';
import { COMPARE_KEYS, compareArgv, resolveCompareTarget, unmetExpectations } from '../compare/suite-target.js';
import { EXIT, SoakError, usageError } from '../errors.js';
import { describeRepeated, FOLDER_NAME_RULE, folderNameProblem, repeatedNames } from '../folder-names.js';
import { compareConfig, EXAMPLE_SUITE, optionsOf, RESULTS_ROOT, runConfig } from '../options/schema.js';
import { baselineLines } from '../report/baseline-words.js';
import { compareLines, expectationSentences } from '../report/compare-words.js';
import { terminalText } from '../report/escape.js';
import { writeSuiteReports } from '../report/suite-report.js';
import { createSuiteResult } from '../report/suite-result.js';
import { describeFailure } from '../report/words.js';
import { lockedBy } from '../run/folder-lock.js';
import { holdsSuite, prepareOutDir } from '../run/out-dir.js';
import { tellMovedAside } from '../run/run.js';
import { parseCommand } from './parse-command.js';
import { resolveBaseline, runWithBaseline } from './run-target.js';

const TARGET_KEYS = new Set([
  'name',
  'module',
  'scenario',
  'call',
  'args',
  'alloc',
  'iterations',
  'seed',
  'countAllocs',
  'expect',
  ...COMPARE_KEYS,
]);

// What each key of a run target holds: its check and, for the message, what it may be.
const isText = (v) => typeof v === 'string';
const isScalar = (v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
const TARGET_TYPES = {
  module: [isText, 'a path (a string)'],
  scenario: [isText, 'a path (a string)'],
  call: [isText, 'a string (ops separated by commas)'],
  args: [(v) => Array.isArray(v) && v.every(isScalar), 'a list of --args specs (strings)'],
  alloc: [isText, 'a string'],
  iterations: [isScalar, 'a number'],
  seed: [isScalar, 'a number'],
  countAllocs: [(v) => typeof v === 'boolean', 'true or false'],
  expect: [
    (v) => isText(v) || (Array.isArray(v) && v.length > 0 && v.every(isText)),
    'a verdict or a list of verdicts',
  ],
};

/** What value is, in a few words (never walking into it: a suite may nest arrays thousands deep). */
function kindOf(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length ? 'a list that holds other things' : 'an empty list';
  return typeof value === 'object'
    ? 'an object'
    : `${typeof value === 'number' ? 'the number' : 'the'} ${typeof value} ${String(value).slice(0, 40)}`;
}

/** Throws exit 2 naming the first key of run target t (at where) whose value has the wrong type. */
function checkTargetTypes(t, where) {
  for (const [key, [ok, may]] of Object.entries(TARGET_TYPES))
    if (t[key] !== undefined && !ok(t[key]))
      throw usageError(
        'WS_ESUITE',
        `${where}: its "${key}" must be ${may}, got ${kindOf(t[key])}.`,
        `Example: ${EXAMPLE_TARGET}`,
      );
}

const EXAMPLE_TARGET =
  '{ "name": "x", "module": "x.wasm", "call": "step", "args": ["iter"], "expect": ["stable", "inconclusive"] }';

/**
 * Reads and validates a suite file; exit-2 errors name the entry at fault.
 * Returns { name, targets } (name: the suite's "name", else the file's).
 */
function readSuite(path) {
  let suite;
  try {
    // A UTF-8 byte order mark (some Windows editors write one) is no part of the JSON.
    suite = JSON.parse(readFileSync(path, 'utf8').replace(/^\uFEFF/, ''));
  } catch (err) {
    throw usageError(
      'WS_ESUITE',
      `Cannot read the suite ${path}: ${err.message}.`,
      'A suite is JSON: { "targets": [ { "name", "module" | "scenario", ... } ] }.',
    );
  }
  if (!Array.isArray(suite.targets) || suite.targets.length === 0) {
    throw usageError(
      'WS_ESUITE',
      `The suite ${path} has no "targets" array.`,
      'List the targets: { "targets": [ { "name": "x", "module": "x.wasm", "call": "step" } ] }.',
    );
  }
  const base = dirname(resolve(path));
  const name = typeof suite.name === 'string' ? suite.name : basename(path, '.json');
  const targets = suite.targets.map((t, i) => {
    const where = `target ${i + 1}${t.name ? ` ("${t.name}")` : ''} of ${path}`;
    const unknown = Object.keys(t).filter((k) => !TARGET_KEYS.has(k));
    if (unknown.length)
      throw usageError(
        'WS_ESUITE',
        `${where} has unknown keys: ${unknown.join(', ')}.`,
        `Allowed keys: ${[...TARGET_KEYS].join(', ')}.`,
      );
    const problem = t.name === undefined ? 'is missing' : folderNameProblem(t.name);
    if (problem)
      throw usageError(
        'WS_ESUITE',
        `${where}: its "name" ${problem}.`,
        `Give it a "name" that is ${FOLDER_NAME_RULE}, such as "parser": it becomes its result folder's name.`,
      );
    if (t.arms !== undefined) return { ...resolveCompareTarget(t, base, where), index: i };
    checkTargetTypes(t, where);
    if (Boolean(t.module) === Boolean(t.scenario))
      throw usageError(
        'WS_ESUITE',
        `${where} must have exactly one of "module" and "scenario".`,
        'Paths are relative to the suite file.',
      );
    const expect = t.expect === undefined ? null : [t.expect].flat();
    return { ...t, index: i, path: resolve(base, t.module ?? t.scenario), expect };
  });
  const repeated = repeatedNames(targets.map((t) => t.name));
  if (repeated.length)
    throw usageError(
      'WS_ESUITE',
      `The suite ${path} gives more than one target the same name: ${describeRepeated(repeated, 'targets')}.`,
      "Give each target a name of its own: it is its result folder's name.",
    );
  return { name, targets };
}

/** The targets of shard { k, n } (every nth target from the kth), or all of them. */
export const shardOf = (targets, shard) => (shard ? targets.filter((_, i) => i % shard.n === shard.k - 1) : targets);

/** The run argv for one suite target under the suite-wide options. */
function targetArgv(t, shared) {
  const argv = [t.path];
  if (t.call) argv.push('--call', t.call);
  // --flag=VALUE: a value such as -5 reaches the option's check, not read as an option.
  for (const a of t.args ?? []) argv.push(`--args=${a}`);
  if (t.alloc) argv.push('--alloc', t.alloc);
  if (t.iterations !== undefined) argv.push(`--iterations=${t.iterations}`);
  if (t.seed !== undefined) argv.push(`--seed=${t.seed}`);
  if (t.countAllocs) argv.push('--count-allocs');
  return [...argv, ...shared];
}

// Options that `soak` uses itself; every other one goes to each target.
const SOAK_OWN = new Set(['out', 'expect', 'shard']);

/**
 * Each target's run argv and configuration, all resolved before the first
 * run, so that a bad suite entry or option stops the suite before any work.
 */
function planTargets(targets, given, outRoot, suitePath) {
  const takes = (command) => (g) => !SOAK_OWN.has(g.name) && optionsOf(command).some((o) => o.name === g.name);
  const shared = given.filter(takes('run')).flatMap((g) => g.argv);
  // A suite's result folders travel as CI artifacts: no module memory in them unless asked.
  if (!given.some((g) => g.name === 'block-contents' || g.name === 'no-block-contents'))
    shared.push('--no-block-contents');
  const sharedCompare = given.filter(takes('compare')).flatMap((g) => g.argv);
  return targets.map((t) => {
    const argv = t.compare ? compareArgv(t, sharedCompare) : targetArgv(t, shared);
    try {
      if (t.compare)
        return { t, argv, cfg: { ...compareConfig(parseCommand('compare', argv).values), out: join(outRoot, t.name) } };
      const run = resolveBaseline(runConfig(parseCommand('run', argv).values), argv, { file: t.path, target: t.name });
      const cfg = { ...run, name: t.name, out: join(outRoot, t.name) };
      return { t, argv, cfg };
    } catch (err) {
      if (!(err instanceof SoakError)) throw err;
      throw new SoakError(err.code, `target "${t.name}" of ${suitePath}: ${err.message}`, {
        fix: err.fix,
        exitCode: err.exitCode,
      });
    }
  });
}

/**
 * Runs the suite of parseCommand('soak', argv) ({ values, positionals,
 * given }); its lines go to io.stdout and io.stderr (streams), and
 * io.onFolder(dir) is told of each target's result folder once it is
 * written. Resolves the exit code.
 */
export async function soakSuite({ values, positionals, given }, io) {
  const { stdout, stderr } = io;
  const suitePath = positionals[0] ?? EXAMPLE_SUITE;
  if (positionals[0] === undefined && !values.quiet)
    stdout.write(`the examples shipped with wasm-soak: ${suitePath}\n`);
  const outRoot = values.out ?? RESULTS_ROOT;
  const suite = readSuite(suitePath);
  const plan = planTargets(shardOf(suite.targets, values.shard), given, outRoot, suitePath);
  const root = prepareOutDir(outRoot, { force: values.force, holds: holdsSuite });
  try {
    // A target's folder that a live run writes in stops the suite before any run.
    const busy = plan.map((p) => lockedBy(p.cfg.out)).find(Boolean);
    if (busy) {
      root.discard();
      throw busy;
    }
    tellMovedAside(outRoot, root);
    const code = await runSuite(plan, suite, { values, suitePath, outRoot }, io);
    // An input error (exit 2) leaves nothing on disk: the root as it was, a previous result back in place.
    if (code === EXIT.USAGE) {
      root.discard();
      stderr.write(
        `wasm-soak: ${outRoot}: nothing was kept, as after any input error (exit 2)${root.movedTo ? '; the previous result is back in place' : ''}.\n`,
      );
    }
    return code;
  } finally {
    root.release();
  }
}

/**
 * Runs the targets of plan into outRoot (prepared and locked) and writes the
 * suite's reports; resolves the exit code. Long: the targets in turn, then
 * the suite's reports, each step commented; io as soakSuite's.
 */
async function runSuite(plan, suite, { values, suitePath, outRoot }, { stdout, stderr, onFolder }) {
  const suiteResult = createSuiteResult({
    name: suite.name,
    suite: resolve(suitePath),
    shard: values.shard ?? null,
    expectMode: Boolean(values.expect),
  });
  const mismatches = [];
  // -q silences the per-target lines and the results line, never a failure
  // or a mismatch (those go to stderr instead).
  const say = values.quiet ? () => {} : (text) => stdout.write(terminalText(text));
  // The suite's exit code: the worst of its targets' (each the judge's, with
  // --expect their expectations'), interrupted > failed > usage > finding.
  let worst = EXIT.OK;
  // The targets after the one a signal stopped are named as not run, never left out.
  let stopped = null;
  for (const [k, { t, argv, cfg }] of plan.entries()) {
    let result;
    const started = performance.now();
    const addCase = (outcome) =>
      suiteResult.addCase({
        index: t.index,
        name: t.name,
        dir: cfg.out,
        expect: t.expect,
        wallMs: performance.now() - started,
        ...outcome,
      });
    try {
      // A comparison (a target with arms): compare's outputs in its folder;
      // the suite's reports list only its runs.
      if (t.compare) {
        const { exitCode, result: c } = await runCompare(t.compare.paths, cfg, ['compare', ...argv]);
        const missed = expectationSentences(t, unmetExpectations(t, c));
        mismatches.push(...missed);
        const mark = values.expect && t.expect ? (missed.length ? 'NOT AS EXPECTED' : 'as expected') : '';
        say(`${t.name.padEnd(16)} compared   ${c.arms.length} arms ${mark}  (seed ${cfg.seed})\n`);
        for (const l of compareLines(c)) say(`${''.padEnd(17)}${l}\n`);
        const expected = judge({ findings: missed.map(() => ({ kind: 'expectation' })) }).exitCode;
        worst = Math.max(worst, values.expect ? expected : exitCode);
        continue;
      }
      result = await runWithBaseline(t.path, cfg, argv, { file: t.path, target: t.name });
    } catch (err) {
      if (!(err instanceof SoakError)) throw err;
      worst = Math.max(worst, addCase({ error: err }));
      stderr.write(`wasm-soak: ${terminalText(`${t.name}: ${err.paragraph()}`)}\n`);
      if (err.exitCode === EXIT.INTERRUPTED) {
        stopped = k;
        break;
      }
      mismatches.push(`${t.name}: could not run (${err.message})`);
      continue;
    }
    const { summary } = result;
    onFolder(result.outDir);
    worst = Math.max(worst, addCase({ summary }));
    const matches = !t.expect || t.expect.includes(summary.verdict);
    if (!matches) mismatches.push(`${t.name}: verdict ${summary.verdict}, expected ${t.expect.join(' or ')}`);
    for (const g of summary.baseline?.regressions ?? [])
      mismatches.push(`${t.name}: against its baseline: ${g.sentence}`);
    const mark = values.expect && t.expect ? (matches ? 'as expected' : `EXPECTED ${t.expect.join('|')}`) : '';
    say(
      `${t.name.padEnd(16)} ${summary.status.padEnd(11)} verdict ${summary.verdict.padEnd(15)} ${mark}  (seed ${summary.seed})\n`,
    );
    for (const f of summary.findings ?? []) say(`${''.padEnd(17)}${f.kind}: ${f.sentence}\n`);
    if (summary.status === 'failed' && values.quiet)
      stderr.write(
        `wasm-soak: ${terminalText(`${t.name}: failed, verdict error ${describeFailure(summary.error)}`)}\n`,
      );
    else if (summary.status === 'failed') say(`${''.padEnd(17)}error ${describeFailure(summary.error)}\n`);
    if (summary.baseline) for (const l of baselineLines(summary.baseline)) say(`${''.padEnd(17)}${l}\n`);
    // A signal stops the suite, also when the target it stopped failed (exit 3).
    if (summary.interrupted) {
      stopped = k;
      break;
    }
  }
  for (const { t, cfg } of stopped === null ? [] : plan.slice(stopped + 1)) {
    const notRun = `the suite was interrupted before it (during ${plan[stopped].t.name})`;
    worst = Math.max(
      worst,
      suiteResult.addCase({ index: t.index, name: t.name, dir: cfg.out, expect: t.expect, wallMs: 0, notRun }),
    );
  }
  // A suite whose worst is a target's input error is undone (soakSuite): no reports.
  if (worst === EXIT.USAGE) return worst;
  await writeSuiteReports(outRoot, suiteResult.finish());
  const part = values.shard
    ? `shard ${values.shard.k}/${values.shard.n} of the suite; \`wasm-soak merge\` combines the shards`
    : 'the whole suite';
  say(`results: ${outRoot}/ (index.html, summary.md and junit.xml for ${part})\n`);
  if (values.expect) {
    if (mismatches.length)
      (values.quiet ? stderr : stdout).write(
        `verdicts (or baselines) that did not match the suite's expectations:\n  ${mismatches.join('\n  ')}\n`,
      );
    else say("every verdict matched the suite's expectations\n");
  }
  return worst;
}
