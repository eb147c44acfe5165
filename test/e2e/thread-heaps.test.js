// The JS heaps of the worker threads a scenario's target starts (issue 30,
// item 2), through real runs at the defaults: a thread started through the
// Worker constructor from a file URL, as napi-rs's loaders start theirs,
// that keeps what each call's job brings is js-heap-growth of the series
// threads-js-heap (the soak worker's own heap judged apart, and flat); its
// twin that drops each job is stable. Each checkpoint's sum is in
// summary.json (sources.threads.heaps) and drawn in the memory figure.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fixture, readSummary, runCli, tempDir } from '../helpers.js';

/** Runs test/scenarios/thread-heap-<name>.mjs at the defaults: { r, s, out }. */
async function soak(name) {
  const out = tempDir('wasm-soak-thread-heaps-');
  const r = await runCli(['run', fixture('test', 'scenarios', `thread-heap-${name}.mjs`), '-o', out]);
  return { r, s: readSummary(out), out };
}

test("a thread that keeps each job: js-heap-growth of the threads' heap, the worker's apart", async () => {
  const { r, s, out } = await soak('keep');
  assert.equal(r.code, 1, r.stderr);
  assert.equal(s.verdict, 'js-heap-growth');
  assert.deepEqual(
    s.findings.map((f) => [f.kind, f.series]),
    [['js-heap-growth', 'threads-js-heap']],
  );
  const f = s.findings[0];
  // Each job keeps an object with a 24-element array and a string: well over 100 bytes a call.
  assert.ok(f.slope.perKiloIterations > 100_000, `${f.slope.perKiloIterations} bytes per 1,000 calls`);
  assert.match(f.sentence, /^The JS heap of the worker threads the target started \(summed over them\) grows by /);
  const { heaps } = s.sources.threads;
  assert.equal(heaps.missed, 0, 'the idle thread answered every checkpoint');
  assert.equal(heaps.samples.length, heaps.taken);
  assert.ok(heaps.taken >= 12, `${heaps.taken} checkpoints`);
  assert.ok(heaps.samples.at(-1)[1] > heaps.samples[0][1] + 2 * 2 ** 20, 'the sum grew by MiBs');
  assert.ok(s.series.find((x) => x.name === 'js-heap').tested, "the soak worker's own heap was judged too");
  const md = readFileSync(join(out, 'summary.md'), 'utf8');
  assert.ok(md.includes(f.sentence));
  assert.match(md, /judged apart as "threads-js-heap"/);
  // The memory figure (where gnuplot drew it) draws their sum beside the worker's heap.
  if (s.outputs.figures.includes('memory.svg'))
    assert.match(readFileSync(join(out, 'memory.svg'), 'utf8'), /worker threads JS heap after their GCs/);
  else assert.ok(s.outputs.plotsSkipped, 'no figure only when plots were skipped');
});

test('a thread that drops each job: stable, its heap read at every checkpoint', async () => {
  const { r, s } = await soak('drop');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(s.verdict, 'stable');
  const { heaps, cpuPerCall } = s.sources.threads;
  assert.equal(heaps.missed, 0);
  assert.ok(heaps.taken >= 12, `${heaps.taken} checkpoints`);
  assert.ok(s.series.find((x) => x.name === 'threads-js-heap').tested);
  if (process.platform === 'linux') {
    assert.equal(cpuPerCall.op, 'iteration');
    assert.equal(cpuPerCall.calls, 20000);
    assert.ok(cpuPerCall.ns > 0, `${cpuPerCall.ns} ns per call`);
  }
});
