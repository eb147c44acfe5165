// The counting pass on builds without names: exported forwarders are
// followed to the allocator, and boundary wrappers to the allocator behind
// them (boundary wrappers alone are no evidence), and
// modules using post-MVP features instrument and load.
// The runs through the CLI; the checks without a run are in
// test/unit/worker/instrument.test.js.
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { instrumentAllocator, loadInstrumenter } from '../../../src/worker/allocator/instrument.js';
import { fixture, runCli, tempDir } from '../../helpers.js';

await loadInstrumenter();

const wasm = (name) => readFileSync(fixture('test', 'fixtures', `${name}.wasm`));

/** Runs a target with the counting pass; returns { code, stderr, summary }. */
async function countedRun(target, n, call = ['--call', 'step']) {
  const dir = tempDir('wasm-soak-instrument-');
  try {
    const args = ['run', target, ...call, '-n', String(n)];
    const r = await runCli([...args, '--count-allocs', '-o', dir, '-q', '--fail-on', 'leak,fragmentation,growth']);
    return { code: r.code, stderr: r.stderr, summary: JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('counting pass: behind boundary wrappers, a realloc that moves its block leaves nothing live, and a leak is counted', async () => {
  const clean = await countedRun(fixture('test', 'fixtures', 'behind-boundary.wasm'), 2000, [
    '--call',
    'step:1,move:1',
  ]);
  assert.equal(clean.code, 0, clean.stderr);
  assert.equal(clean.summary.sources.liveBytes, 'counting pass');
  assert.deepEqual(clean.summary.sources.countingPass.frees, {
    matched: clean.summary.allocations.allocs.total,
    unmatched: 0,
    unseen: 0,
  });
  assert.equal(clean.summary.allocations.live.end, 0);
  const leak = await countedRun(fixture('test', 'fixtures', 'behind-boundary.wasm'), 2000, ['--call', 'keep']);
  assert.equal(leak.code, 1, leak.stderr);
  assert.equal(leak.summary.verdict, 'leak');
  assert.equal(leak.summary.allocations.live.end, 2000 * 48);
});

test('counting pass: allocations and frees that reach the allocator without the wrappers (zeroed, an inlined dealloc) are counted, and a leak still is', async () => {
  const calls = ['--call', 'step:1,move:1,zeroed:1,inlined:1'];
  const clean = await countedRun(fixture('test', 'fixtures', 'behind-deeper.wasm'), 2000, calls);
  assert.equal(clean.code, 0, clean.stderr);
  const pass = clean.summary.sources.countingPass;
  assert.deepEqual(pass.frees, { matched: clean.summary.allocations.allocs.total, unmatched: 0, unseen: 0 });
  assert.equal(pass.caveat, null, pass.note);
  assert.equal(clean.summary.sources.liveBytes, 'counting pass');
  assert.equal(clean.summary.allocations.live.end, 0);
  const leak = await countedRun(fixture('test', 'fixtures', 'behind-deeper.wasm'), 2000, ['--call', 'keep:1,zeroed:1']);
  assert.equal(leak.code, 1, leak.stderr);
  assert.equal(leak.summary.verdict, 'leak');
});

test('counting pass: frees missed by an allocator found by name are not trusted either, and a block handed out again leaves the live count', async () => {
  const { code, stderr, summary } = await countedRun(fixture('test', 'fixtures', 'named-missed-free.wasm'), 2000, [
    '--call',
    'step:1,inlined:1',
  ]);
  assert.equal(code, 0, stderr);
  const pass = summary.sources.countingPass;
  assert.ok(pass.frees.unseen > 500, `missed frees: ${JSON.stringify(pass.frees)}`);
  assert.equal(pass.caveat, 'unmatched-frees');
  assert.match(pass.note, /handed out [\d,]+ again that it held live/);
  assert.notEqual(summary.sources.liveBytes, 'counting pass');
  // Every cell is reused: what the pass still counts live is at most the one block freed unseen last.
  assert.ok(summary.allocations.live.end <= 48, `live at the end: ${summary.allocations.live.end} B`);
});

test('counting pass: an allocator behind boundary wrappers that frees blocks it was never seen allocating is not trusted', async () => {
  const { code, stderr, summary } = await countedRun(fixture('test', 'fixtures', 'behind-boundary.wasm'), 2000, [
    '--call',
    'stray',
  ]);
  assert.equal(code, 0, stderr);
  const pass = summary.sources.countingPass;
  assert.deepEqual(pass.frees, { matched: 0, unmatched: 2000, unseen: 0 });
  assert.equal(pass.complete, false);
  assert.equal(pass.caveat, 'unmatched-frees');
  assert.match(pass.note, /freed 2,000 blocks the pass never saw allocated/);
  assert.notEqual(summary.sources.liveBytes, 'counting pass');
  assert.equal(summary.allocations.complete, false);
});

test('counting pass: an allocator behind boundary wrappers without a realloc found is not complete, and the summary says so', async () => {
  const r = instrumentAllocator(wasm('behind-no-realloc'));
  assert.deepEqual(r.entryPoints, ['__wbindgen_malloc', '__wbindgen_free']);
  assert.deepEqual([r.complete, r.noRealloc], [false, true]);
  const { summary } = await countedRun(fixture('test', 'fixtures', 'behind-no-realloc.wasm'), 2000, [
    '--call',
    'step:1,move:1',
  ]);
  const pass = summary.sources.countingPass;
  assert.equal(pass.complete, false);
  assert.equal(pass.caveat, 'no-realloc');
  assert.match(pass.note, /found \(its allocation and its free\) but not its realloc/);
  assert.notEqual(summary.sources.liveBytes, 'counting pass');
});

test('counting pass: wasm-bindgen boundary wrappers exported under numbered names are found through the glue, and the allocator behind them counted', async () => {
  const { code, stderr, summary } = await countedRun(fixture('test', 'scenarios', 'bindgen-renamed.mjs'), 2000, []);
  assert.equal(code, 1, stderr);
  const pass = summary.sources.countingPass;
  assert.equal(pass.complete, true);
  assert.deepEqual(
    pass.entryPoints.map((e) => e.how),
    [
      'export "__wbindgen_export_1", bound to __wbindgen_realloc by the JS glue',
      '"__wbindgen_malloc" (export "__wbindgen_export_0", bound to __wbindgen_malloc by the JS glue), calling function 0 with its size',
      '"__wbindgen_free" (export "__wbindgen_export_2", bound to __wbindgen_free by the JS glue), calling function 1 with its pointer',
      'a realloc: function 2 allocates its argument 2 with function 0, copies from its argument 0 and frees it with function 1, the allocator behind the wrappers',
    ],
  );
  assert.equal(pass.frees.unmatched + pass.frees.unseen, 0);
  assert.equal(summary.sources.liveBytes, 'counting pass');
  assert.equal(summary.verdict, 'leak');
});

test('counting pass: the internal allocations behind a forwarder are counted', async () => {
  const { code, stderr, summary } = await countedRun(fixture('test', 'fixtures', 'forwarder-alloc.wasm'), 2000);
  assert.equal(code, 1, stderr);
  assert.equal(summary.allocations.allocs.total, 2000);
  assert.equal(summary.sources.liveBytes, 'counting pass');
  assert.equal(summary.verdict, 'leak');
});

test('counting pass: boundary wrappers only: live bytes not used, and the summary says why', async () => {
  const { stderr, summary } = await countedRun(fixture('test', 'fixtures', 'boundary-alloc.wasm'), 2000);
  assert.notEqual(summary.sources.liveBytes, 'counting pass', stderr);
  assert.equal(summary.sources.countingPass.complete, false);
  assert.match(summary.sources.countingPass.note, /only boundary wrappers were found/);
  assert.notEqual(summary.verdict, 'leak');
});

test('counting pass: a minified Emscripten release build (sql.js) is counted through the names its glue binds', async () => {
  const { stderr, summary } = await countedRun(fixture('soak', 'dev', 'sqljs.mjs'), 300, []);
  const cp = summary.sources.countingPass;
  assert.deepEqual(cp.instrumented, [['malloc', 'free']], stderr);
  assert.match(cp.entryPoints[0].how, /^export "\w+", bound to _malloc by the JS glue$/);
  assert.equal(cp.complete, true);
  assert.ok(summary.allocations.allocs.total > 300);
  assert.equal(summary.sources.liveBytes, 'counting pass');
});
