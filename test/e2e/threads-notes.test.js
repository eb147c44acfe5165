// The worker threads a scenario starts, through a real run: one that exits
// with an error during setup and a pool that gains a thread every 500 calls
// are the notes thread-failed and thread-pool-growing (the pool's threads'
// heaps summed climb with it: js-heap-growth naming the pool), with the counts the
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
  assert.equal(r.code, 1, r.stderr);
  const s = readSummary(out);
  // Each thread the pool adds brings a JS heap of its own: their sum climbs, and the words name the pool.
  assert.equal(s.verdict, 'js-heap-growth');
  assert.deepEqual(
    s.findings.map((f) => [f.kind, f.series, f.poolGrowing]),
    [['js-heap-growth', 'threads-js-heap', { aliveFrom: 1, aliveTo: 6 }]],
  );
  assert.match(
    s.findings[0].sentence,
    /: the pool kept starting threads, from 1 alive at warm-up's end to 6 at the end, each with a heap of its own \(see the note\)/,
  );
  const timeline = [[0, 2, 1], ...[1, 2, 3, 4, 5].map((k) => [k * 500, 2 + k, 1])];
  assert.deepEqual(s.sources.threads, {
    started: 7,
    exited: 1,
    maxAlive: 6,
    failed: 1,
    firstFailure: { iteration: 0, code: 2 },
    cpuMs: null, // the failed thread's CPU time left with it
    cpuPerCall: null,
    heaps: s.sources.threads.heaps,
    wasiThreads: false,
    afterWarmup: { started: 5, aliveFrom: 1, aliveTo: 6 },
    timeline,
  });
  // The pool's threads sit in their event loops: every checkpoint with threads alive read their heaps.
  assert.equal(s.sources.threads.heaps.missed, 0);
  assert.ok(s.sources.threads.heaps.taken > 0);
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
