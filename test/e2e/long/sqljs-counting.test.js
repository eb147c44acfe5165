// The counting pass end to end on a real Emscripten glue module at the
// defaults (sql.js's debug build, soak/dev/): a leak of prepared statements
// and the clean workload. In test/e2e/ for its cost (about 30 s of two full
// runs with their counting passes); CI runs it (npm run test:e2e).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixture, memoryFindings, runToSummary } from '../../helpers.js';

const run = runToSummary;

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
