// The one judge (src/analysis/judge.js over C's ws_judge): every kind of C's
// list has words and an outcome, and every source of findings gets its
// verdict and exit code from it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { judge, runStatus, summaryStatus } from '../../../src/analysis/judge.js';
import { EXIT } from '../../../src/errors.js';
import { EXIT_CODE, FINDING_GATE, FINDING_KINDS, RUN_STATUS } from '../../../src/protocol.js';
import { KIND_WORDS } from '../../../src/report/sentences.js';
import { caseOutcome } from '../../../src/report/suite-result.js';

const ALL = Object.keys(FINDING_GATE);

test("the command line's exit codes are C's", () => {
  assert.deepEqual({ ...EXIT }, { ...EXIT_CODE });
});

test('every kind of C list has words and a judge outcome by its gate', () => {
  assert.deepEqual(ALL.slice(0, FINDING_KINDS.length), FINDING_KINDS, 'the verdict kinds lead, in severity order');
  for (const kind of ALL) {
    assert.equal(typeof KIND_WORDS[kind], 'string', `${kind} has words`);
    const gate = FINDING_GATE[kind];
    const quiet = judge({ findings: [{ kind }], failOn: [] });
    const listed = judge({ findings: [{ kind }], failOn: FINDING_KINDS });
    const expected = {
      'fail-on': [kind, EXIT.OK, kind, EXIT.FINDING],
      always: [kind, EXIT.FINDING, kind, EXIT.FINDING],
      against: ['stable', EXIT.FINDING, 'stable', EXIT.FINDING],
      'fails-run': ['error', EXIT.FAILED, 'error', EXIT.FAILED],
    }[gate];
    assert.ok(expected, `${kind}: a known gate (${gate})`);
    assert.deepEqual([quiet.verdict, quiet.exitCode, listed.verdict, listed.exitCode], expected, kind);
  }
  for (const verdict of ['stable', 'inconclusive', 'error']) assert.equal(typeof KIND_WORDS[verdict], 'string');
});

test('what became of the run decides first', () => {
  const leak = [{ kind: 'leak' }];
  const of = (status) => judge({ status, findings: leak, failOn: FINDING_KINDS });
  assert.deepEqual(Object.keys(RUN_STATUS), ['completed', 'interrupted', 'failed', 'module-exhausted', 'incomplete']);
  assert.deepEqual(of('completed'), { verdict: 'leak', exitCode: EXIT.FINDING });
  assert.deepEqual(of('module-exhausted'), { verdict: 'leak', exitCode: EXIT.FINDING });
  assert.deepEqual(of('interrupted'), { verdict: 'leak', exitCode: EXIT.INTERRUPTED });
  assert.deepEqual(of('failed'), { verdict: 'error', exitCode: EXIT.FAILED });
  assert.deepEqual(of('incomplete'), { verdict: 'leak', exitCode: EXIT.FAILED });
  // Inconclusive gates only when --fail-on lists it.
  const open = [{ reason: 'few-calls' }];
  assert.deepEqual(judge({ inconclusive: open, failOn: FINDING_KINDS }), { verdict: 'inconclusive', exitCode: 0 });
  assert.deepEqual(judge({ inconclusive: open, failOn: ['inconclusive'] }), { verdict: 'inconclusive', exitCode: 1 });
  // A regression gates without naming the verdict.
  assert.deepEqual(judge({ findings: [{ kind: 'slowdown' }, { kind: 'regression' }] }), {
    verdict: 'slowdown',
    exitCode: EXIT.FINDING,
  });
  assert.throws(() => judge({ findings: [{ kind: 'nope' }] }), { code: 'WS_EINVAL' });
  assert.throws(() => judge({ status: 'nope' }), { code: 'WS_EINVAL' });
  assert.throws(() => judge({ failOn: ['nope'] }), { code: 'WS_EINVAL' });
});

test("a run's outcome and a written summary map onto the judge's statuses", () => {
  assert.equal(runStatus({ status: 'completed' }), 'completed');
  assert.equal(runStatus({ status: 'completed' }, { status: 'failed' }), 'incomplete');
  assert.equal(runStatus({ status: 'failed', error: { code: 'WS_EALLOC' } }), 'module-exhausted');
  assert.equal(runStatus({ status: 'failed', error: { code: 'WS_EHUNG' } }), 'failed');
  assert.equal(runStatus({ status: 'interrupted' }, { status: 'failed' }), 'interrupted');
  assert.equal(summaryStatus({ status: 'failed', verdict: 'error', exitCode: 3 }), 'failed');
  assert.equal(summaryStatus({ status: 'failed', verdict: 'memory-exhausted', exitCode: 1 }), 'completed');
  assert.equal(summaryStatus({ status: 'failed', verdict: null, exitCode: 2 }), 'failed', 'an older summary');
  assert.equal(summaryStatus({ status: 'completed', verdict: 'stable', exitCode: 3 }), 'incomplete');
  assert.equal(summaryStatus({ status: 'interrupted', verdict: 'leak', exitCode: 130 }), 'interrupted');
});

test("a suite target's outcome is the judge's: its own without --expect, its expectation's with it", () => {
  const summary = (more) => ({
    status: 'completed',
    verdict: 'leak',
    exitCode: 1,
    findings: [{ kind: 'leak', sentence: 'It leaks.' }],
    ...more,
  });
  assert.deepEqual(caseOutcome({ summary: summary() }), { outcome: 'failed', message: 'It leaks.', exitCode: 1 });
  const expect = (allowed, more) => caseOutcome({ summary: summary(more), expect: allowed, expectMode: true });
  assert.equal(expect(['leak']).outcome, 'passed');
  assert.deepEqual(expect(['stable']), { outcome: 'failed', message: 'verdict leak, expected stable', exitCode: 1 });
  const regressed = expect(['leak'], { baseline: { regressions: [{ kind: 'regression', sentence: 'slower' }] } });
  assert.deepEqual(regressed, { outcome: 'failed', message: 'against its baseline: slower', exitCode: 1 });
  // A run that failed is an error, whatever was expected.
  const failed = expect(['stable'], { status: 'failed', verdict: 'error', exitCode: 3, error: { message: 'trap' } });
  assert.deepEqual(failed, { outcome: 'error', message: 'trap', exitCode: 3 });
  // The module's allocator running dry is its finding, not an error.
  const dry = {
    status: 'failed',
    verdict: 'memory-exhausted',
    exitCode: 1,
    findings: [{ kind: 'memory-exhausted', sentence: 'dry' }],
  };
  assert.equal(caseOutcome({ summary: summary(dry) }).outcome, 'failed');
  assert.equal(expect(['memory-exhausted'], dry).outcome, 'passed');
  const notRun = caseOutcome({ summary: null, error: { message: 'no such file', exitCode: 2 } });
  assert.deepEqual(notRun, { outcome: 'error', message: 'could not run: no such file', exitCode: 2 });
  // Machine noise alone breaks no expectation about time or its absence;
  // it does break one about memory, and any other open question counts.
  const noisy = {
    verdict: 'inconclusive',
    exitCode: 0,
    findings: [],
    inconclusive: [{ reason: 'machine-noise', series: 'time' }],
  };
  for (const allowed of [['stable'], ['slowdown']]) {
    const r = expect(allowed, noisy);
    assert.equal(r.outcome, 'passed');
    assert.match(r.message, /^verdict inconclusive \(machine-noise\), expected .*not counted against the expectation$/);
    assert.equal(
      expect(allowed, { ...noisy, inconclusive: [{ reason: 'unsustained', series: 'time' }] }).outcome,
      'passed',
    );
  }
  assert.equal(expect(['leak'], noisy).outcome, 'failed');
  // So does a memory finding that did not recur with another seed: it passes
  // stable, and fails leak.
  const wander = { ...noisy, inconclusive: [{ reason: 'not-replicated', series: 'live-bytes' }] };
  assert.equal(expect(['stable'], wander).outcome, 'passed');
  assert.equal(expect(['leak'], wander).outcome, 'failed');
  const open = { ...noisy, inconclusive: [...noisy.inconclusive, { reason: 'late-step', series: 'memory' }] };
  assert.equal(expect(['stable'], open).outcome, 'failed');
});
