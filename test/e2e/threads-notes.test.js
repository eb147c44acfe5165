// The worker threads a scenario starts, through a real run: one that exits
// with an error during setup and a pool that gains a thread every 500 calls
// are the notes thread-failed and thread-pool-growing, with the counts the
// worker kept (summary.sources.threads) and their sentences in summary.md;
// a re-report under another warm-up reads the same timeline again.

import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readSummary, runCli, tempDir } from '../helpers.js';

const SCENARIO = `import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
const kept = [];
export default {
  name: 'threads',
  async setup() {
    const failing = new Worker('process.exit(2)', { eval: true });
    await once(failing, 'exit');
    return {};
  },
  ops: {
    step: {
      run(_, ctx) {
        if (ctx.iteration % 500 !== 0) return;
        const thread = new Worker('setInterval(() => {}, 1 << 30)', { eval: true });
        thread.unref();
        kept.push(thread);
      },
    },
  },
};
`;

test('a thread that exits with an error and a pool still growing after warm-up: two notes with their numbers', async () => {
  const dir = tempDir('wasm-soak-threads-');
  const path = join(dir, 'threads.mjs');
  writeFileSync(path, SCENARIO);
  const out = join(dir, 'out');
  const r = await runCli(['run', path, '-n', '3000', '--warmup', '500', '--seed', '1', '-o', out, '--format', 'md']);
  assert.equal(r.code, 0, r.stderr);
  const s = readSummary(out);
  const timeline = [[0, 2, 1], ...[1, 2, 3, 4, 5].map((k) => [k * 500, 2 + k, 1])];
  assert.deepEqual(s.sources.threads, {
    started: 7,
    exited: 1,
    maxAlive: 6,
    failed: 1,
    firstFailure: { iteration: 0, code: 2 },
    cpuMs: null, // the failed thread's CPU time left with it
    wasiThreads: false,
    afterWarmup: { started: 5, aliveFrom: 1, aliveTo: 6 },
    timeline,
  });
  const notes = s.notes.filter((n) => n.kind.startsWith('thread-'));
  assert.deepEqual(
    notes.map(({ sentence, ...n }) => n),
    [
      { kind: 'thread-failed', series: null, failed: 1, started: 7, iteration: 0, code: 2 },
      { kind: 'thread-pool-growing', series: null, startedAfterWarmup: 5, aliveFrom: 1, aliveTo: 6, warmup: 500 },
    ],
  );
  const md = readFileSync(join(out, 'summary.md'), 'utf8');
  for (const n of notes) assert.ok(md.includes(n.sentence), n.sentence);
  assert.match(
    notes[1].sentence,
    /^The target's pool of worker threads kept growing after warm-up: 5 threads started after iteration 500, from 1 alive then to 6 at the end\./,
  );
  // Re-reported with warm-up at 1,200: the same timeline, read against the new warm-up.
  const again = await runCli(['report', out, '--warmup', '1200', '--format', 'md']);
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(readSummary(out).sources.threads.afterWarmup, { started: 3, aliveFrom: 3, aliveTo: 6 });
});
