// The heap census end to end: runs through the CLI and reads the census
// series (docs/log-format.md, metric ids 11-22 and the size classes) back
// from the log. Raw mode with no flag beyond --call: the stripped leaking
// wasi-libc fixture's census live bytes grow, the clean fixture's stay
// flat, modules with no allocator the census knows are never recognised; and on
// fixtures with their own live-bytes counter (wasi-libc dlmalloc, Emscripten
// dlmalloc and emmalloc) census live bytes track the counter within the
// allocator's per-chunk padding. The C walker itself is tested in
// test/c/test_census.c.
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { decodeLog } from '../../src/analysis/log-reader.js';
import { CENSUS_KIND, METRIC, METRIC_CENSUS_CLASS_BASE } from '../../src/protocol.js';
import { fixture, runCli, tempDir } from '../helpers.js';

// Payload bytes a chunk may hold beyond the request: alignment padding (16 B
// chunks in wasi-libc, 8 B in Emscripten's dlmalloc, 4 B regions in emmalloc).
const PADDING = 16;

/**
 * Runs target with args, returns the decoded log (the folder is removed).
 * The subject is the census series, not the verdict: no finding gates.
 */
async function censusRun(target, args = []) {
  const dir = tempDir('wasm-soak-census-');
  try {
    const r = await runCli(['run', fixture(target), ...args, '--fail-on', 'none', '-o', dir, '--format', 'md']);
    assert.equal(r.code, 0, r.stderr);
    return await decodeLog(join(dir, 'samples.wslog'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const values = (series) => Array.from(series?.value ?? []);

/** In-use chunks per census sample: the sum of the size classes. */
function inUseChunks(run) {
  const names = Object.entries(METRIC)
    .filter(([, id]) => id >= METRIC_CENSUS_CLASS_BASE && id < METRIC_CENSUS_CLASS_BASE + 32)
    .map(([name]) => name);
  const n = run.metrics.censusLive.value.length;
  return Array.from({ length: n }, (_, i) => names.reduce((sum, name) => sum + (run.metrics[name]?.value[i] ?? 0), 0));
}

test('census: the stripped leaking fixture (exported malloc, no names) grows in raw mode', async () => {
  const bytes = readFileSync(fixture('soak/modules/leak-stripped.wasm'));
  assert.equal(WebAssembly.Module.customSections(new WebAssembly.Module(bytes), 'name').length, 0);
  const run = await censusRun('soak/modules/leak-stripped.wasm', ['--call', 'step', '-n', '100000']);
  const m = run.metrics;
  assert.ok(run.header.sources.census, 'the header says what the census found at the start');
  assert.ok(values(m.censusKind).every((k) => k === CENSUS_KIND.dlmalloc));
  const live = values(m.censusLive);
  const iter = Array.from(m.censusLive.iter);
  assert.ok(live.length >= 2, `${live.length} census samples`);
  assert.ok(iter.at(-1) >= 50000, `last census at iteration ${iter.at(-1)}`);
  // About 36 B leak per call; the working set (about 300 KiB) only churns.
  const perCall = (live.at(-1) - live[0]) / (iter.at(-1) - iter[0]);
  assert.ok(perCall > 20 && perCall < 60, `census live bytes grow ${perCall.toFixed(1)} B per call`);
  assert.equal(values(m.censusState).length, live.length);
  assert.ok(values(m.censusChunks).at(-1) > 50000, 'every leaked block is a chunk');
  assert.ok(values(m.censusClass32).at(-1) > 30000, 'the leak is in the 32-63 B class');
});

test('census: the clean fixture stays flat in raw mode', async () => {
  const run = await censusRun('soak/modules/clean.wasm', ['--call', 'step', '-n', '100000']);
  const live = values(run.metrics.censusLive);
  const iter = Array.from(run.metrics.censusLive.iter);
  assert.ok(live.length >= 2 && iter.at(-1) >= 50000, `${live.length} samples, last at ${iter.at(-1)}`);
  assert.ok(values(run.metrics.censusKind).every((k) => k === CENSUS_KIND.dlmalloc));
  for (const v of live) assert.ok(v > 100 * 1024 && v < 512 * 1024, `census live ${v} B`);
  const perCall = (live.at(-1) - live[0]) / (iter.at(-1) - iter[0]);
  assert.ok(Math.abs(perCall) < 4, `census live bytes move ${perCall.toFixed(2)} B per call`);
});

for (const [name, kind] of [
  ['leak', CENSUS_KIND.dlmalloc],
  ['leak-emscripten', CENSUS_KIND.dlmalloc],
  ['leak-emmalloc', CENSUS_KIND.emmalloc],
]) {
  test(`census: live bytes track the ${name} fixture's own counter within per-chunk padding`, async () => {
    const run = await censusRun(`test/scenarios/census-${name}.mjs`);
    const m = run.metrics;
    assert.ok(
      values(m.censusKind).every((k) => k === kind),
      `kinds ${values(m.censusKind)}`,
    );
    const census = values(m.censusLive);
    const chunks = inUseChunks(run);
    const counted = new Map(Array.from(m.liveBytes.iter, (it, i) => [it, m.liveBytes.value[i]]));
    assert.ok(census.length >= 1);
    m.censusLive.iter.forEach((it, i) => {
      const own = counted.get(it);
      assert.ok(own !== undefined, `stats() sampled at iteration ${it}`);
      const extra = census[i] - own;
      assert.ok(
        extra >= 0 && extra <= PADDING * chunks[i],
        `iteration ${it}: census ${census[i]} B, counter ${own} B, ${chunks[i]} chunks`,
      );
    });
    assert.ok(census.at(-1) > census[0], 'the leak shows');
  });
}

test('census: modules without a known allocator are never recognised', async () => {
  // fragment and alloc-firstfit: first-fit allocators whose free-list head lies
  // beside their heap top (a top that only rises, but a heap that frees).
  for (const name of ['fragment', 'alloc-firstfit', 'empty']) {
    const run = await censusRun(`soak/modules/${name}.wasm`, ['--call', 'step']);
    assert.ok(
      values(run.metrics.censusKind).every((k) => k === CENSUS_KIND.none),
      name,
    );
    assert.equal(run.metrics.censusLive, undefined, `${name}: no census live bytes`);
    assert.equal(run.header.sources.census.source, null);
    // fragment's harness-made allocation gives it a heap top before the first call:
    // a candidate, never proven (its free-list head moves).
    assert.match(
      run.header.sources.census.enable,
      /no allocator state was found|a later census that sees it risen \(and never fallen\) proves/,
    );
    // What it tried, to quote when reporting an allocator it does not know.
    assert.deepEqual(
      run.header.sources.census.tried.map((t) => t.family),
      ['dlmalloc', 'emmalloc', 'AssemblyScript TLSF', 'wee_alloc', 'bump (never frees)'],
    );
    assert.match(run.header.sources.census.enable, /tried dlmalloc \(\d+ candidates\), emmalloc/);
  }
});

/** Runs target (a soak module) with args in raw mode; returns { code, summary }. */
async function verdictRun(name, args = []) {
  const dir = tempDir('wasm-soak-census-');
  try {
    const r = await runCli([
      'run',
      fixture('soak', 'modules', `${name}.wasm`),
      '--call',
      'step',
      ...args,
      '-o',
      dir,
      '-q',
    ]);
    return { code: r.code, stderr: r.stderr, summary: JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('census verdicts: the stripped leaking fixture is a leak in raw mode with no flags, naming the sizes that accumulate', async () => {
  const { code, stderr, summary } = await verdictRun('leak-stripped', ['--fail-on', 'leak,fragmentation,growth']);
  assert.equal(code, 1, stderr);
  assert.equal(summary.verdict, 'leak');
  assert.equal(summary.sources.liveBytes, 'heap census');
  const leak = summary.findings.find((f) => f.kind === 'leak');
  assert.equal(leak.series, 'live-bytes');
  // The fixture leaks blocks of 24-48 B: mostly chunks of 32-64 B with the header.
  assert.equal(leak.sizeClasses[0].fromBytes, 32);
  assert.ok(leak.sizeClasses[0].change > 1000, JSON.stringify(leak.sizeClasses));
  assert.match(leak.sentence, /Sizes that accumulate: \+[\d,]+ chunks of 32 B–64 B/);
  assert.equal(summary.census.recognised, true);
  assert.match(summary.sources.census.source, /dlmalloc/);
});

test('census verdicts: the clean fixture is stable on census live bytes', async () => {
  const { code, stderr, summary } = await verdictRun('clean', ['--fail-on', 'leak,fragmentation,growth']);
  assert.equal(code, 0, stderr);
  assert.equal(summary.sources.liveBytes, 'heap census');
  const live = summary.series.find((s) => s.name === 'live-bytes');
  assert.equal(live.tested, true);
  assert.notEqual(live.pattern, 'sustained');
});

test('census verdicts: with --count-allocs the stripped fixture stays a leak (the exported malloc forwarder is followed)', async () => {
  const { code, stderr, summary } = await verdictRun('leak-stripped', [
    '--count-allocs',
    '--fail-on',
    'leak,fragmentation,growth',
  ]);
  assert.equal(code, 1, stderr);
  assert.equal(summary.verdict, 'leak');
  assert.equal(summary.sources.liveBytes, 'counting pass');
  assert.ok(summary.allocations.allocs.total > 10000, 'the pass sees the internal allocations');
  const how = summary.sources.countingPass.entryPoints.map((e) => e.how).join('; ');
  assert.match(how, /export, forwarding to function/);
});

// Two Emscripten modules, a memory each, both flat at 16 MiB; the second
// leaks. Each memory has its own census: the verdict is judged on the
// leaking memory's live bytes and the finding names that memory and its
// module. Before, the census read the first instance's memory only (the
// clean one), and the leak went unseen.
/** Runs a scenario at default settings; returns { code, stderr, summary }. */
// The run's exit code, stderr, stdout (quiet: none), summary and its reports.
async function scenarioVerdict(path, { quiet = true } = {}) {
  const dir = tempDir('wasm-soak-census-');
  const read = (name) => readFileSync(join(dir, name), 'utf8');
  try {
    const r = await runCli(['run', path, '-o', dir, ...(quiet ? ['-q'] : [])]);
    return {
      code: r.code,
      stderr: r.stderr,
      stdout: r.stdout,
      summary: JSON.parse(read('summary.json')),
      html: read('report.html'),
      md: read('summary.md'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('census verdicts: two modules, the second leaks: a leak naming the second memory, at default settings', async () => {
  const { code, stderr, stdout, summary, html, md } = await scenarioVerdict(
    fixture('test', 'scenarios', 'two-modules-leak-second.mjs'),
    { quiet: false },
  );
  assert.equal(code, 1, stderr);
  assert.equal(summary.verdict, 'leak');
  // Every report names the modules the scenario instantiated, not "module –".
  const modules =
    'module #1 (instantiated by soak/scenarios/_fixture-stats.mjs): memory "memory"; ' +
    'module #2 (instantiated by soak/scenarios/_fixture-stats.mjs): memory "memory#2"';
  assert.ok(stdout.includes(`  modules: ${modules}\n`), stdout);
  assert.ok(md.includes(`Modules: ${modules.replaceAll('_', '\\_')}.`), md); // Markdown-escaped
  assert.ok(html.includes(`<tr><th>modules</th><td>${modules.replaceAll('"', '&#34;')}</td></tr>`), 'report.html');
  assert.doesNotMatch(html, /<th>module<\/th><td>–/);
  const [first, second] = summary.memory.memories;
  assert.deepEqual([first.label, second.label], ['memory', 'memory#2']);
  assert.match(second.module, /^module #2 \(instantiated by soak\/scenarios\/_fixture-stats\.mjs\)$/);
  assert.deepEqual([first.census.kind, second.census.kind], ['dlmalloc', 'dlmalloc']);
  assert.equal(summary.census.memory.index, 1);
  const leak = summary.findings.find((f) => f.kind === 'leak');
  assert.deepEqual(leak.memory, { label: 'memory#2', module: second.module });
  assert.match(leak.sentence, /It is in memory "memory#2" of module #2/);
  assert.doesNotMatch(leak.sentence, /memory "memory"[^#]/);
  // It runs into its own memory's 16 MiB, not the 32 MiB of both.
  assert.equal(leak.projection.limitBytes, 16 * 1024 * 1024);
});

// AssemblyScript's TLSF (soak/modules/as-records.wasm, assemblyscript
// 0.28.20, incremental GC): records the host pins and never unpins leak.
// Before the TLSF family, the census recognised nothing and the leak was
// `growth` (linear memory only).
test('census verdicts: AssemblyScript TLSF, the pinned-records leak is a leak on census live bytes, at default settings', async () => {
  const { code, stderr, summary } = await scenarioVerdict(fixture('soak', 'real', 'assemblyscript-leak.mjs'));
  assert.equal(code, 1, stderr);
  assert.equal(summary.verdict, 'leak');
  // Its glue makes no object a finalizer frees: no held samples, the census's own live bytes.
  assert.equal(summary.sources.liveBytes, 'heap census');
  assert.equal(summary.census.kind, 'tlsf');
});
