// Memory that JS objects own (docs/verdicts.md, "Memory that JS objects
// own"), end to end at the defaults users get: glue that frees through a
// FinalizationRegistry (wasm-bindgen's style, soak/scenarios/glue-objects*)
// and embind with no finalizer (yoga-layout, a real release build): a
// forgotten free() is `unfreed-objects` naming the class and the op, the
// clean twins have no finding, and a leak of objects the application keeps
// (harfbuzzjs fonts in a cache) stays a leak that names them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { assertClean, fixture, readSummary, runCli, tempDir } from '../helpers.js';

/** Runs scenario (a path under the repository) at the defaults; returns { code, stderr, summary, out }. */
async function soakAtDefaults(...path) {
  return soakWithEnv({}, ...path);
}

/** soakAtDefaults with env added to the run's environment (CI set: progress as plain lines, not -q). */
async function soakWithEnv(env, ...path) {
  const out = tempDir();
  const r = await runCli(['run', fixture(...path), '-o', out, ...(env.CI ? [] : ['-q'])], { env });
  return { code: r.code, stderr: r.stderr, summary: readSummary(out), out };
}

test('a wasm-bindgen-style glue: every Doc freed by the application is stable; its objects are counted', async () => {
  const { code, stderr, summary } = await soakAtDefaults('soak', 'scenarios', 'glue-objects.mjs');
  assert.equal(code, 0, stderr);
  assertClean(summary);
  const doc = summary.objects.classes.find((c) => c.name === 'Doc');
  assert.equal(doc.registry, true);
  assert.equal(doc.freeable, true);
  assert.equal(doc.created, 20_000);
  assert.equal(doc.freed, 20_000);
  assert.equal(doc.reclaimed, 0);
  assert.ok(
    summary.sources.liveBytes.startsWith('heap census after a full GC'),
    `live bytes judged: ${summary.sources.liveBytes}`,
  );
});

test('a forgotten free() of a FinalizationRegistry glue is unfreed-objects naming the class and the op', async () => {
  const { code, stderr, summary, out } = await soakWithEnv(
    { CI: 'true' },
    'soak',
    'scenarios',
    'glue-objects-unfreed.mjs',
  );
  assert.equal(summary.verdict, 'unfreed-objects');
  // The progress line named the class while the run went on, and its last line says it.
  assert.match(
    stderr,
    /preliminary verdict: unfreed-objects \(so far\) · never freed: [\d,]+ Doc \(left to the GC\)\n/,
  );
  assert.equal(code, 1);
  const [f] = summary.findings;
  assert.equal(f.kind, 'unfreed-objects');
  assert.equal(f.lost, false);
  assert.equal(f.classes[0].name, 'Doc');
  assert.equal(f.classes[0].op, 'iteration');
  assert.equal(f.classes[0].freed, 0);
  assert.ok(f.classes[0].reclaimed > 0);
  assert.match(
    f.sentence,
    /`Doc` objects made in op `iteration`, the application freed 0 and left [\d,]+ to the garbage collector/,
  );
  assert.ok(!summary.notes.some((n) => n.kind === 'startup-growth'), 'the garbage is not called start-up growth');
  assert.ok(summary.objects.garbage.peakBytes > 1 << 20, 'the garbage the census saw');
  // The class's row in both reports.
  const md = readFileSync(join(out, 'summary.md'), 'utf8');
  assert.match(md, /\| Doc \| [\d,]+ \| 0 \| [\d,]+ \| 0 \| \d+ \| iteration \| free\(\) or a finalizer \|/);
  const html = readFileSync(join(out, 'report.html'), 'utf8');
  assert.match(html, /<section id="objects"><h2>Objects by class<\/h2>/);
  assert.match(html, /<tr><td>Doc<\/td><td>[\d,]+<\/td><td>0<\/td>/);
  assert.match(html, /garbage awaiting the collector: see the finding/);
});

test('embind objects dropped without free() (yoga-layout) are unfreed-objects, lost: Node named', async () => {
  const { code, summary } = await soakAtDefaults('soak', 'real', 'yoga-leak.mjs');
  assert.equal(summary.verdict, 'unfreed-objects');
  assert.equal(code, 1);
  const f = summary.findings.find((x) => x.kind === 'unfreed-objects');
  assert.equal(f.lost, true);
  assert.equal(f.classes[0].name, 'Node');
  assert.equal(f.classes[0].freed, 0);
  assert.match(
    f.sentence,
    /`Node` objects made in op `iteration`, the application freed 0 and [\d,]+ were collected with no free/,
  );
});

test('embind objects freed by the application (yoga-layout) are clean, though some handles are collected', async () => {
  const { code, stderr, summary } = await soakAtDefaults('soak', 'real', 'yoga.mjs');
  assert.equal(code, 0, stderr);
  assertClean(summary);
  const node = summary.objects.classes.find((c) => c.name === 'Node');
  assert.ok(node.freed > 0, 'freeRecursive() frees every node it made');
});

test('objects the application keeps (harfbuzzjs fonts in a cache) are a leak that names them', async () => {
  const { summary } = await soakAtDefaults('soak', 'real', 'harfbuzz-leak.mjs');
  assert.equal(summary.verdict, 'leak');
  const leak = summary.findings.find((f) => f.kind === 'leak');
  assert.equal(leak.series, 'live-bytes');
  assert.equal(leak.objects[0].name, 'Font');
  assert.match(leak.sentence, /still held at the end \(neither freed nor collected\): [\d,]+ `Font`/);
});

test('WebIDL glue (no finalizer, a cache until Module.destroy()): its objects counted; a kept Counter is a leak naming it', async () => {
  const clean = await soakAtDefaults('test', 'scenarios', 'webidl-counters.mjs');
  assert.equal(clean.code, 0, clean.stderr);
  assertClean(clean.summary);
  const counter = clean.summary.objects.classes.find((c) => c.name === 'Counter');
  assert.equal(counter.created, 20_000);
  assert.equal(counter.freed, 20_000);
  assert.equal(counter.held, 0);
  const kept = await soakWithEnv({ WS_TEST_WEBIDL_KEEP: '1' }, 'test', 'scenarios', 'webidl-counters.mjs');
  assert.equal(kept.summary.verdict, 'leak');
  const leak = kept.summary.findings.find((f) => f.kind === 'leak');
  assert.equal(leak.objects[0].name, 'Counter');
  assert.equal(leak.objects[0].freed, 0);
  assert.match(
    leak.sentence,
    /still held at the end \(neither freed nor collected\): [\d,]+ `Counter` \(made in op `iteration`\)/,
  );
});
