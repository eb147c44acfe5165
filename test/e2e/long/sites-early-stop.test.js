// The early stop applies to a --sites run (docs/verdicts.md, "Early stop"):
// sql.js's leaking select (soak/dev/sqljs-leak.mjs) at the default
// thresholds ends once its leak is decided, the counting pass records the
// sites of the same calls, and the finding blames the leaking select's
// sqlite3_prepare_v2 as the full run does (measured: stopped at 6 817 of
// 20 000 calls at load 30, the same six top sites in the same order and
// shares as --full-run's). How many calls the decision takes depends on the
// machine's speed (the live analysis runs by time): a quiet machine decided
// at 18 510 of 20 000 calls, and at 44 054 of 100 000; the plan here is
// long enough that the stop comes before its end on any machine. In
// test/e2e/long/ for its cost (a run with its counting pass).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixture, runToSummary } from '../../helpers.js';

test('a --sites run of a decided leak ends early and blames the leaking op', async () => {
  const { summary: s } = await runToSummary(
    ['run', fixture('soak', 'dev', 'sqljs-leak.mjs'), '--sites', '--seed', '5', '-n', '200000'],
    1,
  );
  assert.equal(s.verdict, 'leak');
  assert.equal(s.stopReason, 'decided');
  assert.ok(s.iterations.completed < s.iterations.requested, JSON.stringify(s.iterations));
  assert.equal(s.allocations.calls, s.iterations.completed, 'the counting pass makes the calls the timed pass made');
  const leak = s.findings.find((f) => f.kind === 'leak');
  assert.ok(leak.sites.length > 0);
  for (const site of leak.sites) {
    assert.equal(site.op, 'select');
    assert.match(site.stack, /← sqlite3_prepare_v2$/);
  }
});
