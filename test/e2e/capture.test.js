// The capture hooks are invisible to glue code: they read no import field the
// module does not declare, return and throw what the unhooked functions do,
// and leave instances and exports as they are. Here real builds run through
// the CLI under them; the hooks installed in a test process with a
// transform, each result compared with the pristine API's, are in
// test/unit/worker/capture.test.js.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixture, readSummary, runCli, tempDir } from '../helpers.js';

// Emscripten MAIN_MODULE + SIDE_MODULE (test/fixtures/dylink-*): its glue
// links through Proxies whose getters create GOT entries. Reading fields it
// did not declare once made it fail with "bad export type for
// '__indirect_function_table': object" (exit 3).
for (const countAllocs of [false, true]) {
  test(`an Emscripten dynamic-linking build runs under the hooks${countAllocs ? ' and the counting pass' : ''}`, async () => {
    const out = tempDir();
    // --fail-on none: the exit code is about the run, not a verdict (a
    // slowdown under load would be exit 1). --setup-timeout 0: instrumenting
    // both modules for the counting pass took over the default 60 s at a load
    // average of 20 on two cores; the test is about the hooks, not the time.
    const args = [
      'run',
      fixture('test', 'scenarios', 'dylink.mjs'),
      '-n',
      '2000',
      '-o',
      out,
      '-q',
      '--fail-on',
      'none',
      '--setup-timeout',
      '0',
    ];
    const r = await runCli(countAllocs ? [...args, '--count-allocs'] : args);
    assert.equal(r.code, 0, r.stderr);
    const s = readSummary(out);
    assert.equal(s.iterations.completed, 2000);
    assert.deepEqual(
      s.memory.memories.map((m) => m.label),
      ['env.memory'],
    );
    if (countAllocs) {
      assert.deepEqual(s.allocations.instrumented, [['malloc', 'free']]);
      assert.equal(s.allocations.allocs.total, 2000, 'one allocation per call, through the side module');
      assert.equal(s.allocations.live.end, 0);
    }
  });
}

// One memory reached by every route (created, imported by two modules,
// exported again, tracked by hand, grown from JS and from wasm, read through
// new buffers) is listed once; two modules exporting memories under one
// name keep a series each; the HTTP parser Node instantiates for the
// scenario's fetch() (llhttp, 128 KiB) is not listed. Before, it was listed
// as "memory" and, sharing that label, took the other "memory"'s series.
test('each memory is listed once, with its own series; Node’s own modules are not the target’s', async () => {
  const out = tempDir();
  const args = ['run', fixture('test', 'scenarios', 'one-memory-many-routes.mjs'), '-n', '3000', '-o', out, '-q'];
  const r = await runCli([...args, '--fail-on', 'none']); // about the memories, not a verdict
  assert.equal(r.code, 0, r.stderr);
  const { memories } = readSummary(out).memory;
  assert.deepEqual(
    memories.map((m) => [m.label, m.end]),
    [
      ['env.memory', (1 + 1 + 3000 / 500 + 3000 / 1000) * 65536], // grown once from JS, then by both modules
      ['memory', 4 * 65536],
      ['memory#2', 65536],
    ],
  );
});
