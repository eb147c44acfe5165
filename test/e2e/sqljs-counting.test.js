// The counting pass end to end on a real Emscripten glue module at the
// defaults (sql.js's debug build, soak/dev/): a leak of prepared statements
// and the clean workload. In test/e2e/ for its cost (about 30 s of two full
// runs with their counting passes); CI runs it (npm run test:e2e).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixture, readSummary, runCli, tempDir } from '../helpers.js';

// Memory verdicts come from deterministic counts; time is left out of these
// assertions because a loaded CI machine can make any run's timing drift.
const MEMORY_KINDS = ['stack-drift', 'leak', 'unfreed-objects', 'fragmentation', 'growth', 'js-heap-growth'];
const memoryFindings = (summary) => summary.findings.filter((f) => MEMORY_KINDS.includes(f.kind)).map((f) => f.kind);

async function run(args, expectedCode = 0) {
  const out = tempDir();
  const r = await runCli([...args, '-o', out, '-q']);
  assert.equal(r.code, expectedCode, r.stderr);
  return { out, summary: readSummary(out) };
}

test('glue module: sql.js debug build, leaking prepared statements is a leak, freeing them is stable', async () => {
  const leak = await run(['run', fixture('soak', 'dev', 'sqljs-debug-leak.mjs'), '--count-allocs', '--seed', '5'], 1);
  assert.equal(leak.summary.verdict, 'leak');
  assert.deepEqual(leak.summary.allocations.instrumented, [['malloc', 'free']]);
  const select = leak.summary.allocations.ops.find((o) => o.name === 'select');
  assert.ok(select.liveLeftBehind > 1e6, 'the select op leaves the statements behind');
  const clean = await run([
    'run',
    fixture('soak', 'dev', 'sqljs-debug.mjs'),
    '--count-allocs',
    '--seed',
    '5',
    '--fail-on',
    'leak,fragmentation,growth',
  ]);
  assert.deepEqual(memoryFindings(clean.summary), []);
});
