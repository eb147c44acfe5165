// The library entry (package.json "exports" → src/index.js): soak() resolves
// the summary, writes no file anywhere without `out` (its logs stay in
// memory), installs no signal handler and leaves V8's flags as they were on
// the host; readRun → analyze → writeReports re-analyse a result folder like
// `wasm-soak report`.
// The runs through the CLI; the checks without a run are in
// test/unit/library/library.test.js.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { runInNewContext } from 'node:vm';
import { MEMORY_LOG_BYTES } from '../../src/options/schema.js';
import { workerExecArgv } from '../../src/run/worker-start.js';
import { fixture, ROOT, runCli, tempDir, whenFileReaches } from '../helpers.js';

const LIMIT = { timeout: 240000 };
const dir = tempDir('wasm-soak-lib-');
after(() => rmSync(dir, { recursive: true, force: true }));

/** Every event of the process that has listeners, and how many. */
const listeners = () => Object.fromEntries(process.eventNames().map((e) => [String(e), process.listenerCount(e)]));

/** Two new empty folders under dir: one for TMPDIR, one for the working folder. */
function emptyFolders(name) {
  const tmp = join(dir, name, 'tmp');
  const cwd = join(dir, name, 'cwd');
  for (const d of [tmp, cwd]) mkdirSync(d, { recursive: true });
  return { tmp, cwd };
}

test(
  'soak() without out: the summary, no file anywhere (TMPDIR, the working folder), no signal handler, no V8 flag on the host',
  LIMIT,
  async () => {
    const { soak } = await import('wasm-soak');
    const { tmp, cwd } = emptyFolders('nofiles');
    const was = { tmpdir: process.env.TMPDIR, cwd: process.cwd() };
    process.env.TMPDIR = tmp;
    process.chdir(cwd);
    try {
      assert.equal(tmpdir(), tmp);
      const before = listeners();
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
      assert.equal(summary.samples.capBytes, MEMORY_LOG_BYTES, 'the in-memory log has its own cap');
      assert.equal(summary.samples.thinning, null, '20 000 calls are kept whole in memory');

      // A module's bytes with a counting pass: both logs in memory, analysed there.
      const counted = await soak({
        bytes: readFileSync(fixture('soak', 'modules', 'leak.wasm')),
        call: 'step',
        iterations: 3000,
        seed: 3,
        countAllocs: true,
      });
      assert.equal(counted.status, 'completed');
      assert.equal(counted.verdict, 'leak');
      assert.equal(counted.outputs, null);
      assert.equal(counted.allocations?.calls, 3000, 'the counting pass, read from memory');
      assert.ok(counted.allocations.allocs.total >= 3000, JSON.stringify(counted.allocations.allocs));

      assert.deepEqual(listeners(), before, 'no listener (signal handlers included) left on the process');
      assert.equal(runInNewContext('typeof gc'), 'undefined', '--expose-gc is not left on for the host');
      assert.deepEqual(readdirSync(tmp), [], 'nothing written in the temporary folder');
      assert.deepEqual(readdirSync(cwd), [], 'nothing written in the working folder');
    } finally {
      process.chdir(was.cwd);
      if (was.tmpdir === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = was.tmpdir;
    }

    // The worker still takes its full GCs: the retained JS heap is measured.
    const out = join(dir, 'gc');
    await soak({ scenario: fixture('soak', 'scenarios', 'clean-stats.mjs'), iterations: 2000, out, format: [] });
    const retained = (await import('wasm-soak')).readRun(out).timed.metrics.jsHeapAfterGC.value;
    assert.ok(retained.length > 0 && retained.every((v) => v > 0), `retained heap samples: ${retained.length}`);
    assert.equal(runInNewContext('typeof gc'), 'undefined');
  },
);

test(
  "soak() without out: a WASI module's stdout and stderr are the host's, and no file is written",
  LIMIT,
  async () => {
    const { tmp, cwd } = emptyFolders('wasi');
    const r = await runCli([], { cli: fixture('test', 'probes', 'library-wasi.mjs'), cwd, env: { TMPDIR: tmp } });
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.deepEqual(JSON.parse(lines.at(-1)), { status: 'completed', outputs: null });
    assert.ok(lines.includes('wasi-print: to stdout'), r.stdout);
    assert.ok(r.stderr.includes('wasi-print: to stderr'), r.stderr);
    assert.deepEqual(readdirSync(tmp), [], 'no module-stdout.txt, module-stderr.txt or anything else in TMPDIR');
    assert.deepEqual(readdirSync(cwd), [], 'nor in the working folder');
  },
);

test(
  'soak() hosted by `node --input-type=module -e` runs (the worker does not inherit --input-type)',
  LIMIT,
  async () => {
    const { tmp, cwd } = emptyFolders('eval');
    const code = `const { soak } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'src', 'index.js')).href)});
    const s = await soak({ module: ${JSON.stringify(fixture('soak', 'modules', 'clean.wasm'))}, call: 'step', iterations: 2000 });
    console.log(s.status);`;
    const r = await runCli(['-e', code], { cli: '--input-type=module', cwd, env: { TMPDIR: tmp } });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'completed');
    const flags = ['--input-type', 'module', '--max-old-space-size=512', '--input-type=commonjs'];
    assert.deepEqual(workerExecArgv(flags), ['--max-old-space-size=512'], 'the other flags are kept');
  },
);

test(
  'soak() without out: the in-memory log is capped at MEMORY_LOG_BYTES, or at maxLogBytes when given, and thinned past half of it',
  LIMIT,
  async () => {
    const { soak } = await import('wasm-soak');
    // 1 MiB holds about 16 000 calls whole (32 bytes each, thinning from half the cap).
    const summary = await soak({
      module: fixture('soak', 'modules', 'empty.wasm'),
      call: 'noop',
      iterations: 200000,
      seed: 9,
      maxLogBytes: '1M',
    });
    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    assert.equal(summary.iterations.completed, 200000, 'every call counted');
    const thin = summary.samples.thinning;
    assert.ok(thin, 'the log was thinned');
    assert.equal(thin.capBytes, 1024 ** 2);
    assert.equal(summary.samples.capBytes, 1024 ** 2);
    assert.ok(thin.stride > 1 && thin.fullIterations < 20000, JSON.stringify(thin));
  },
);

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
    assert.equal(summary.samples.capBytes, 2 * 1024 ** 3, 'a log on disk keeps the 2 GiB default');
    assert.ok(MEMORY_LOG_BYTES < summary.samples.capBytes, 'the in-memory log gets less');
    assert.ok(existsSync(join(out, 'summary.md')) && existsSync(join(out, 'samples.wslog')));
    const logs = readRun(out);
    // What src/index.d.ts says readRun and analyze return.
    assert.ok(logs.timed.elapsed instanceof Float32Array && logs.timed.op instanceof Uint16Array);
    assert.ok(logs.timed.flags instanceof Uint8Array && logs.timed.memory.bytes instanceof Float64Array);
    assert.equal(logs.counted, null);
    assert.equal(logs.replica, null);
    assert.deepEqual(summary.tool, { name: 'wasm-soak', version: (await import('wasm-soak')).version });
    const again = analyze(logs);
    assert.deepEqual(Object.keys(again).sort(), ['figureData', 'summary']);
    assert.deepEqual(again.summary.outputs, {
      log: 'samples.wslog',
      countLog: null,
      replicaLog: null,
      sites: null,
      blocks: 'blocks.json', // what leaked blocks hold: on by default for soak()
      objects: null, // a raw module has no glue objects
      summary: 'summary.json',
    });
    assert.equal(again.summary.verdict, summary.verdict);
    assert.deepEqual(
      again.summary.findings.map((f) => f.kind),
      summary.findings.map((f) => f.kind),
    );
    assert.deepEqual(
      again.summary.findings.map((f) => f.blocks),
      summary.findings.map((f) => f.blocks),
      'readRun reads blocks.json again',
    );
    const re = join(dir, 're');
    const written = await writeReports(re, again, { formats: ['md', 'junit'] });
    assert.equal(written.verdict, summary.verdict);
    assert.deepEqual(readdirSync(re).sort(), ['.wasm-soak.result', 'junit.xml', 'summary.json', 'summary.md']);
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
  await assert.rejects(
    soak({ bytes: 'a.wasm' }),
    (err) => err.exitCode === 2 && /bytes as a Uint8Array/.test(err.message),
  );
  await assert.rejects(
    soak({ bytes: new Uint8Array([0, 0x61, 0x73]), call: 'step' }),
    (err) => err.exitCode === 2 && /^module \(bytes\) is not a valid module/.test(err.message),
  );
  await assert.rejects(soak({ module: 'a.wasm', iteratons: 5 }), /soak\(\) has no option "iteratons"/);
  await assert.rejects(
    soak({ module: fixture('soak', 'modules', 'clean.wasm'), call: 'step', saveBaseline: 'x' }),
    (err) => err.exitCode === 2 && /saveBaseline needs out/.test(err.message),
  );
});

test('soak(): saveBaseline stores a baseline that a later soak() without out is compared with', LIMIT, async () => {
  const { soak } = await import('wasm-soak');
  const module = fixture('soak', 'modules', 'clean.wasm');
  const store = join(dir, 'baselines', 'clean');
  const common = { module, call: 'step', iterations: 3000, format: [] };
  const first = await soak({ ...common, seed: 5, out: join(dir, 'baseline-run'), saveBaseline: store });
  assert.equal(first.status, 'completed');
  assert.ok(existsSync(store), 'the baseline was saved');
  const again = await soak({ ...common, baseline: store });
  assert.equal(again.seed, 5, "the baseline's seed replays the same calls");
  assert.ok(again.baseline, 'the summary holds the comparison');
  assert.equal(again.outputs, null, 'and no file was written');
});

/** Runs the ES module source as a host program (its own process, its own stderr); resolves runCli's result. */
function host(source, opts = {}) {
  const script = join(tempDir(), 'host.mjs');
  writeFileSync(script, source);
  return runCli([], { cli: script, ...opts });
}

const INDEX = JSON.stringify(pathToFileURL(join(ROOT, 'src', 'index.js')).href);
const CLEAN = JSON.stringify(fixture('soak', 'modules', 'clean.wasm'));

test(
  'more than 10 concurrent soak() calls, with result folders and one AbortSignal: no MaxListenersExceededWarning',
  LIMIT,
  async () => {
    const r = await host(`
    import { mkdtempSync } from 'node:fs';
    import { tmpdir } from 'node:os';
    import { join } from 'node:path';
    import { soak } from ${INDEX};
    const { signal } = new AbortController();
    const runs = Array.from({ length: 12 }, () =>
      soak({ module: ${CLEAN}, call: 'step', iterations: 200, failOn: 'none', signal, out: mkdtempSync(join(tmpdir(), 'ws-12-')) }),
    );
    const done = await Promise.all(runs);
    console.log(done.map((s) => s.status).join(' '));
  `);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), Array(12).fill('completed').join(' '));
    assert.doesNotMatch(r.stderr, /MaxListenersExceededWarning/);
  },
);

test(
  'soak() aborted during a hung call prints nothing on the host\'s stderr (no "press Ctrl-C again": the host has no second stop)',
  LIMIT,
  async () => {
    const entered = join(tempDir(), 'entered');
    const r = await host(
      `
    import { existsSync } from 'node:fs';
    import { soak } from ${INDEX};
    const controller = new AbortController();
    // Aborted once the worker is inside the call that never returns; --call-timeout then ends it.
    const poll = setInterval(() => existsSync(process.env.WASM_SOAK_TEST_ENTERED) && (clearInterval(poll), controller.abort()), 20);
    const s = await soak({
      scenario: ${JSON.stringify(fixture('test', 'scenarios', 'spin-hangs.mjs'))},
      iterations: 100000,
      callTimeout: '6s',
      signal: controller.signal,
    });
    console.log(s.status, s.error?.code, s.interrupted?.signal);
  `,
      { env: { WASM_SOAK_TEST_ENTERED: entered } },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'failed WS_EHUNG abort');
    assert.doesNotMatch(r.stderr, /Ctrl-C/);
  },
);

test('soak(null), a signal that is no AbortSignal, an out that is no path: exit 2 naming the field, never an internal error', async () => {
  const { soak } = await import('../../src/index.js');
  const module = fixture('soak', 'modules', 'clean.wasm');
  for (const [options, field] of [
    [null, 'options'],
    [[], 'options'],
    [{ module, call: 'step', signal: 'x' }, 'signal'],
    [{ module, call: 'step', out: 5 }, 'out'],
    [{ module: 5, call: 'step' }, 'module'],
    [{ module, call: 'step', name: 7 }, 'name'],
  ]) {
    await assert.rejects(soak(options), (err) => {
      assert.equal(err.code, 'WS_EUSAGE', `${field}: ${err.message}`);
      assert.equal(err.exitCode, 2);
      assert.match(err.message, new RegExp(`^soak\\(\\)'s ${field} must be `));
      return true;
    });
  }
});
