// The one judge (docs/verdicts.md, "The judge"): every source of findings —
// the trend tests, failed grows, the allocator's NULL, budgets, hung calls,
// a baseline's or a comparison's regressions, a suite target's expectation —
// comes here as findings ({ kind }) with what became of the run, and C's
// ws_judge (addon/core/stats/ws_judge.c) turns them into the verdict and the
// exit code by each kind's gate (ws_protocol.h, WS_FINDING_KINDS). This is
// its only caller; nothing else decides a verdict or an exit code from
// findings.
import { addon } from '../addon.js';
import { EXIT_CODE, FINDING_KINDS } from '../protocol.js';

/**
 * The verdict and exit code of { status, findings, inconclusive, failOn }:
 * status a RUN_STATUS name ('completed', 'interrupted', 'failed',
 * 'module-exhausted', 'incomplete'); findings [{ kind }] of FINDING_KINDS;
 * inconclusive the open questions (a list) or a boolean; failOn the kinds
 * --fail-on lists, 'inconclusive' among them. Returns { verdict, exitCode }.
 */
export function judge({ status = 'completed', findings = [], inconclusive = [], failOn = [] } = {}) {
  const open = Array.isArray(inconclusive) ? inconclusive.length > 0 : Boolean(inconclusive);
  return addon.judge(
    status,
    findings.map((f) => f.kind),
    failOn,
    open,
  );
}

/**
 * What became of a run, as the judge takes it: run the timed pass's outcome
 * ({ status, error }), count the counting pass's or null. The module's
 * allocator returning no block (WS_EALLOC) stopped the run but is the
 * module's finding; a counting pass that was asked for and failed loses
 * requested data.
 */
export function runStatus(run, count = null) {
  if (run.status === 'failed') return run.error?.code === 'WS_EALLOC' ? 'module-exhausted' : 'failed';
  if (run.status === 'interrupted') return 'interrupted';
  return count?.status === 'failed' ? 'incomplete' : 'completed';
}

/**
 * What became of the run a written summary describes, as the judge takes
 * it: a failed run is a failure unless its verdict names a finding (the
 * module's allocator ran dry), an interrupted run stays one, and an exit
 * code 3 without the verdict error is something asked for that failed.
 */
export function summaryStatus(summary) {
  if (summary.verdict === 'error' || (summary.status === 'failed' && !FINDING_KINDS.includes(summary.verdict)))
    return 'failed';
  if (summary.status === 'interrupted') return 'interrupted';
  return summary.exitCode === EXIT_CODE.FAILED ? 'incomplete' : 'completed';
}
