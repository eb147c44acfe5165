// The worker threads a target starts are counted (src/worker/threads.js),
// through require and import alike, and said in words with what the run does
// not measure of them (src/report/words.js threadsText).

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { threadsText } from '../../../src/report/tables.js';
import { installThreadCounter } from '../../../src/worker/threads.js';

test('threads started through require and import are counted, with the exits and failures', async () => {
  const counter = installThreadCounter();
  const { Worker: Imported } = await import('node:worker_threads');
  const Required = createRequire(import.meta.url)('node:worker_threads').Worker;
  assert.equal(Imported, Required);
  const ok = new Required('setTimeout(() => {}, 0)', { eval: true });
  assert.ok(ok instanceof Imported);
  const failing = new Imported('process.exit(3)', { eval: true });
  assert.deepEqual(counter.result(), { started: 2, exited: 0, maxAlive: 2, failed: 0 });
  await Promise.all([once(ok, 'exit'), once(failing, 'exit')]);
  assert.deepEqual(counter.result(), { started: 2, exited: 2, maxAlive: 2, failed: 1 });
});

test('threadsText: how many threads, and that their JS heaps and CPU are not measured', () => {
  const text = threadsText({ started: 4, maxAlive: 4, failed: 0, wasiThreads: true });
  assert.match(
    text,
    /^the module is built for wasi-threads; its loader started 4 worker threads \(at most 4 at once\)/,
  );
  assert.match(
    text,
    /their JS heaps and CPU time are not measured, and an op that returns a promise is timed to its settlement/,
  );
  assert.equal(
    threadsText({ started: 0, maxAlive: 0, failed: 0, wasiThreads: true }),
    'the module is built for wasi-threads; it started no worker thread in this run',
  );
  assert.match(
    threadsText({ started: 2, maxAlive: 1, failed: 1, wasiThreads: false }),
    /1 thread exited with an error/,
  );
});
