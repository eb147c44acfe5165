// The library entry (package.json "exports" → src/index.js): soak() resolves
// the summary, writes no file without `out`, installs no signal handler and
// leaves V8's flags as they were on the host; readRun → analyze →
// writeReports re-analyse a result folder like `wasm-soak report`.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runInNewContext } from 'node:vm';
import { fixture, ROOT, tempDir, whenFileReaches } from './helpers.js';

const LIMIT = { timeout: 240000 };
const dir = tempDir('wasm-soak-lib-');
after(() => rmSync(dir, { recursive: true, force: true }));
const scratchDirs = () => readdirSync(tmpdir()).filter((f) => /^wasm-soak-[^-]+$/.test(f) && f.length === 16);

test('import("wasm-soak") resolves the library through package.json exports', async () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  assert.ok(existsSync(join(ROOT, pkg.main)), `main ${pkg.main} exists`);
  const lib = await import('wasm-soak');
  for (const name of ['soak', 'readRun', 'analyze', 'writeReports']) assert.equal(typeof lib[name], 'function', name);
  assert.equal(lib.version, pkg.version);
});

test("the README's node:test example is test/library-example.test.js, verbatim", () => {
  const example = readFileSync(join(ROOT, 'test', 'library-example.test.js'), 'utf8');
  assert.ok(readFileSync(join(ROOT, 'README.md'), 'utf8').includes(`\`\`\`js\n${example}\`\`\``));
});

test('soak(): the summary, no files, no signal handlers, no V8 flag on the host', LIMIT, async () => {
  const { soak } = await import('wasm-soak');
  const before = { sigint: process.listenerCount('SIGINT'), sigterm: process.listenerCount('SIGTERM') };
  const scratch = scratchDirs();
  const cwd = readdirSync(process.cwd());
  const summary = await soak({
    scenario: fixture('soak', 'scenarios', 'leak-stats.mjs'),
    iterations: 20000,
    seed: 7,
    name: 'glue',
  });
  assert.equal(summary.status, 'completed');
  assert.equal(summary.name, 'glue');
  assert.equal(summary.iterations.completed, 20000);
  assert.equal(summary.verdict, 'leak');
  assert.equal(summary.outputs, null);
  assert.deepEqual(
    { sigint: process.listenerCount('SIGINT'), sigterm: process.listenerCount('SIGTERM') },
    before,
    'no signal handler installed',
  );
  assert.equal(runInNewContext('typeof gc'), 'undefined', '--expose-gc is not left on for the host');
  assert.deepEqual(scratchDirs(), scratch, 'the temporary folder is gone');
  assert.deepEqual(readdirSync(process.cwd()), cwd, 'nothing written in the working folder');

  // The worker still takes its full GCs: the retained JS heap is measured.
  const out = join(dir, 'gc');
  await soak({ scenario: fixture('soak', 'scenarios', 'clean-stats.mjs'), iterations: 2000, out, format: [] });
  const retained = (await import('wasm-soak')).readRun(out).timed.metrics.jsHeapAfterGC.value;
  assert.ok(retained.length > 0 && retained.every((v) => v > 0), `retained heap samples: ${retained.length}`);
  assert.equal(runInNewContext('typeof gc'), 'undefined');
});

test(
  'soak(): bytes and out write a result folder that readRun, analyze and writeReports re-report',
  LIMIT,
  async () => {
    const { soak, readRun, analyze, writeReports } = await import('wasm-soak');
    const out = join(dir, 'bytes');
    const summary = await soak({
      bytes: readFileSync(fixture('soak', 'modules', 'leak.wasm')),
      call: 'step',
      iterations: 20000,
      seed: 3,
      out,
      format: ['md'],
    });
    assert.equal(summary.name, 'module');
    assert.ok(existsSync(join(out, 'summary.md')) && existsSync(join(out, 'samples.wslog')));
    const again = analyze(readRun(out));
    assert.equal(again.summary.verdict, summary.verdict);
    assert.deepEqual(
      again.summary.findings.map((f) => f.kind),
      summary.findings.map((f) => f.kind),
    );
    const re = join(dir, 're');
    const written = await writeReports(re, again, { formats: ['md', 'junit'] });
    assert.equal(written.verdict, summary.verdict);
    assert.deepEqual(readdirSync(re).sort(), ['junit.xml', 'summary.json', 'summary.md']);
  },
);

test('soak(): an AbortSignal stops the run after its current call; bad options are SoakErrors', LIMIT, async () => {
  const { soak, SoakError } = await import('wasm-soak');
  const out = join(dir, 'abort');
  const controller = new AbortController();
  const running = soak({
    module: fixture('soak', 'modules', 'clean.wasm'),
    call: 'step',
    iterations: 4000000000,
    out,
    format: [],
    signal: controller.signal,
  });
  await whenFileReaches(join(out, 'samples.wslog'), 64 * 1024);
  controller.abort();
  const summary = await running;
  assert.equal(summary.status, 'interrupted');
  assert.ok(summary.iterations.completed > 0 && summary.iterations.completed < 4000000000);

  await assert.rejects(
    soak({ module: fixture('soak', 'modules', 'clean.wasm'), duration: 'soon' }),
    (err) => err instanceof SoakError && err.code === 'WS_EOPTION' && /--duration must look like 90s/.test(err.message),
  );
  await assert.rejects(soak({ module: 'a.wasm', scenario: 'b.mjs' }), /exactly one of module, bytes and scenario/);
  await assert.rejects(soak({ module: 'a.wasm', iteratons: 5 }), /soak\(\) has no option "iteratons"/);
});
