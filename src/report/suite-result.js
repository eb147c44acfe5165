// A suite's result: one case per target (its outcome for CI, wall time and
// result folder), saved as suite-result.json at the root of the suite's
// result folders so that `wasm-soak merge` can combine the roots of several
// shards. The reports of a suite (junit.xml, index.html, summary.md) are
// rendered from it (suite-report.js).
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { judge, summaryStatus } from '../analysis/judge.js';
import { EXIT, usageError } from '../errors.js';
import { writeResultFile } from '../result-file.js';
import { formatCount } from './format.js';

const SUITE_RESULT = 'suite-result.json';

// Why time alone could not be judged (the machine drifted with the module,
// the rise held in one half of the run only, or its interval spans the
// threshold), or a finding did not recur in a second run (a slowdown in the
// same calls again, memory with another seed: docs/verdicts.md, "A finding
// must recur").
const TIME_UNDECIDED = new Set(['machine-noise', 'unsustained', 'not-replicated', 'spans-threshold']);

// A case's outcome by the exit code the judge gave it: a run a signal cut
// short is an error too, never a pass (its verdict judged only part of it).
const OUTCOME = { [EXIT.FAILED]: 'error', [EXIT.FINDING]: 'failed', [EXIT.INTERRUPTED]: 'error' };

/** What cut summary's run short, in words ("SIGTERM during the run, after 1,200 of 20,000 calls"). */
function interruptedWords(summary) {
  const i = summary.interrupted ?? {};
  const done = summary.iterations?.completed;
  const of = summary.iterations?.requested;
  const calls = Number.isFinite(done)
    ? `, after ${formatCount(done)}${Number.isFinite(of) ? ` of ${formatCount(of)}` : ''} calls`
    : '';
  const during = {
    run: 'the run',
    'counting pass': 'the counting pass',
    analysis: 'the analysis',
    reports: 'the reports',
  };
  return `interrupted (${i.signal ?? 'a signal'} during ${during[i.during] ?? i.during ?? 'the run'}${calls}): not judged whole`;
}

/**
 * The CI outcome of one target. summary: its summary (null when it could not
 * run, then error is the SoakError); expect: the verdicts the suite allows
 * (null: none given); expectMode: `soak --expect`. Returns { outcome:
 * 'passed' | 'failed' | 'error', message, exitCode }. The exit code is the
 * judge's (src/analysis/judge.js): the run's own without --expect; with it,
 * a verdict the expectation does not allow (a finding of kind expectation)
 * and a regression against a baseline gate, the run's other findings do
 * not. A run inconclusive on time alone (machine-noise, unsustained,
 * spans-threshold) or on a finding that did not recur (not-replicated,
 * time or memory) breaks no expectation of stable or slowdown (it passes,
 * its message says why). Exit 3 is an
 * error, exit 1 a failure. A run a signal cut short (exit 130) is an
 * error, whatever its verdict; a target the suite never ran (notRun: why)
 * is 'skipped', named.
 */
export function caseOutcome({ summary, expect = null, expectMode = false, error = null, notRun = null }) {
  if (notRun) return { outcome: 'skipped', message: `not run: ${notRun}`, exitCode: EXIT.INTERRUPTED };
  if (summary?.interrupted && summary.exitCode === EXIT.INTERRUPTED)
    return { outcome: 'error', message: interruptedWords(summary), exitCode: EXIT.INTERRUPTED };
  if (!summary) {
    const message = `could not run: ${error?.message ?? 'unknown error'}`;
    return { outcome: 'error', message, exitCode: error?.exitCode ?? EXIT.FAILED };
  }
  // A run the machine left undecided on time alone (docs/verdicts.md, "Time
  // against the machine") neither meets nor breaks an expectation that is
  // about time or its absence: it says so, and does not fail.
  const machineNoise =
    summary.verdict === 'inconclusive' &&
    (summary.inconclusive ?? []).length > 0 &&
    summary.inconclusive.every((u) => TIME_UNDECIDED.has(u.reason));
  const undecided = Boolean(
    expectMode && expect && machineNoise && expect.every((v) => v === 'stable' || v === 'slowdown'),
  );
  const unexpected = expectMode && expect && !undecided && !expect.includes(summary.verdict);
  const regressions = summary.baseline?.regressions ?? [];
  const status = summaryStatus(summary);
  // Without --expect the run's own exit code (the judge's), unless an older
  // or hand-made summary of a failed run says otherwise.
  const findings = expectMode ? [...(unexpected ? [{ kind: 'expectation' }] : []), ...regressions] : null;
  const exitCode =
    findings || status === 'failed' ? judge({ status, findings: findings ?? [] }).exitCode : summary.exitCode;
  const outcome = OUTCOME[exitCode] ?? 'passed';
  let message = `verdict ${summary.verdict ?? 'none'}${expectMode && expect ? ', as expected' : ''}`;
  if (undecided)
    message = `verdict inconclusive (${summary.inconclusive.map((u) => u.reason).join(', ')}), expected ${expect.join(' or ')}: time could not be judged in this run; not counted against the expectation`;
  if (outcome === 'error')
    message = summary.error?.message ?? summary.sources?.countingPass?.error?.message ?? 'the run failed';
  else if (outcome === 'failed' && unexpected) message = `verdict ${summary.verdict}, expected ${expect.join(' or ')}`;
  else if (outcome === 'failed' && expectMode) message = `against its baseline: ${regressions[0]?.sentence}`;
  else if (outcome === 'failed')
    message = summary.findings?.[0]?.sentence ?? regressions[0]?.sentence ?? `verdict ${summary.verdict}`;
  return { outcome, message, exitCode };
}

/**
 * The one-case result of a single run (its junit.xml). startedAt:
 * performance.now() when the run started (its wall time runs until now);
 * without it, the loop's time.
 */
export function runResult(summary, startedAt) {
  const wallMs = Number.isFinite(startedAt) ? performance.now() - startedAt : summary.durationMs;
  return {
    name: summary.name,
    cases: [{ name: summary.name, ...caseOutcome({ summary }), expect: null, wallMs, summary }],
  };
}

/**
 * A new suite result: name (the suite's), the suite file, the shard ({ k, n }
 * or null), whether verdicts were checked against expectations. Cases are
 * added with addCase; finish() stamps the wall time.
 */
export function createSuiteResult({ name, suite, shard = null, expectMode = false }) {
  const startedAt = Date.now();
  const result = {
    schema: 'wasm-soak-suite-result',
    version: 1,
    name,
    suite,
    shard,
    expectMode,
    startedAt: new Date(startedAt).toISOString(),
    hosts: [hostname()],
    wallMs: null,
    cases: [],
  };
  return {
    result,
    /** Adds the case of target t (index: its place in the suite); returns its exit code (caseOutcome). */
    addCase({ index, name: caseName, dir, expect, wallMs, summary = null, error = null, notRun = null }) {
      const { outcome, message, exitCode } = caseOutcome({ summary, expect, expectMode, error, notRun });
      result.cases.push({ index, name: caseName, dir, expect, wallMs, outcome, message, exitCode, summary });
      return exitCode;
    },
    finish() {
      result.wallMs = Date.now() - startedAt;
      return result;
    },
  };
}

/** Writes result at root/suite-result.json, case folders relative to root (without the summaries). */
export async function writeSuiteResult(root, result) {
  const cases = result.cases.map(({ summary, ...c }) => ({ ...c, dir: relative(root, c.dir) }));
  writeResultFile(join(root, SUITE_RESULT), `${JSON.stringify({ ...result, cases }, null, 2)}\n`);
}

/**
 * Reads root/suite-result.json and each case's summary.json (null when
 * missing: the case could not run). Case folders come back absolute. Throws
 * a usage error (exit 2) naming root when it holds no suite result.
 */
export function readSuiteResult(root) {
  const path = join(root, SUITE_RESULT);
  let result;
  try {
    result = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw usageError(
      'WS_EMERGE',
      `${root} holds no readable ${SUITE_RESULT} (${err.code === 'ENOENT' ? 'no such file' : err.message}).`,
      'Give the --out folders of `wasm-soak soak` runs (one per shard).',
    );
  }
  if (result.schema !== 'wasm-soak-suite-result') {
    throw usageError(
      'WS_EMERGE',
      `${path} is not a wasm-soak suite result.`,
      'Give folders written by wasm-soak soak.',
    );
  }
  const cases = result.cases.map((c) => {
    const dir = resolve(root, c.dir);
    const file = join(dir, 'summary.json');
    return { ...c, dir, summary: existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null };
  });
  return { ...result, cases };
}
