// The part of the real-module suite (soak/real/) that CI runs: three real npm
// release builds, briefly, under the capture hooks. wasm-bindgen's Node glue
// (lz4-wasm-nodejs: new WebAssembly.Module + Instance with its own import
// object), wasm-bindgen's web glue (@jsquash/png: initSync), and Emscripten
// glue that adds functions to its table at run time (harfbuzzjs). Each must
// run as it runs without the tool; the assertions are on what the runs
// measured, never on their verdicts (the full suite, `npm run soak:real --
// --expect`, judges those; docs/real-modules.md has its accuracy table).

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { censusMetric } from '../../../src/analysis/census-metrics.js';
import { decodeLog } from '../../../src/analysis/log-reader.js';
import { CENSUS_KIND } from '../../../src/protocol.js';
import { fixture, readSummary, runCli, tempDir } from '../../helpers.js';

const REAL = fixture('soak', 'real');

// --full-run: every call is made (a leak decided early would end the run at
// a call that depends on the machine's speed; png-leak once stopped at 1,798).
async function run(scenario, iterations, ...extra) {
  const out = tempDir();
  const r = await runCli([
    'run',
    join(REAL, `${scenario}.mjs`),
    '-n',
    String(iterations),
    '--seed',
    '7',
    '--full-run',
    '-o',
    out,
    '-q',
    '--fail-on',
    'none',
    ...extra,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const s = readSummary(out);
  assert.equal(s.iterations.completed, iterations, `${scenario} completed its calls`);
  return s;
}

test('wasm-bindgen Node glue (lz4-wasm-nodejs) runs under the hooks', async () => {
  const s = await run('lz4', 2000);
  assert.deepEqual(
    s.memory.memories.map((m) => m.label),
    ['memory'],
  );
});

test('wasm-bindgen web glue (@jsquash/png): objects never freed grow the heap, freed ones do not', async () => {
  const clean = await run('png', 2000);
  const leak = await run('png-leak', 2000);
  // 2000 calls leave about 400 16-bit images unfreed, tens of MiB.
  assert.ok(
    leak.memory.end >= 4 * clean.memory.end,
    `memory at the end: ${leak.memory.end} B leaking, ${clean.memory.end} B clean`,
  );
});

test('Emscripten glue (harfbuzzjs) runs under the hooks and the counting pass', async () => {
  const s = await run('harfbuzz', 1000, '--count-allocs');
  assert.deepEqual(s.allocations.instrumented, [['malloc', 'free']]);
  assert.ok(s.allocations.allocs.total >= 1000, 'every call allocates a buffer');
});

/** The allocator kinds the heap census of memory k recognised in a run (none left out). */
async function censusKinds(scenario, k = 0) {
  const out = tempDir();
  const r = await runCli([
    'run',
    join(REAL, `${scenario}.mjs`),
    '-n',
    '1000',
    '--seed',
    '7',
    '--fail-on',
    'none',
    '-o',
    out,
    '-q',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const run = await decodeLog(join(out, 'samples.wslog'));
  const kinds = run.metrics[censusMetric('censusKind', k)]?.value ?? [];
  return new Set(Array.from(kinds).filter((kind) => kind !== CENSUS_KIND.none));
}

// One binary, one allocator kind, in every scenario that drives it (the
// census's state layout is the binary's, not the scenario's): a Rust
// wasm-bindgen module once read as dlmallocRust in one scenario and
// dlmallocOther in another, when a copy of its state's fields on the
// stack met the scan first.
for (const [clean, leak, kind] of [
  ['png', 'png-leak', 'dlmallocRust'],
  ['yoga', 'yoga-leak', 'emmalloc'],
  ['zstd', 'zstd-leak', 'dlmalloc'],
  ['assemblyscript', 'assemblyscript-leak', 'tlsf'],
]) {
  test(`the heap census gives ${clean} and ${leak} (one binary) the same allocator kind: ${kind}`, async () => {
    for (const scenario of [clean, leak]) {
      assert.deepEqual([...(await censusKinds(scenario))], [CENSUS_KIND[kind]], scenario);
    }
  });
}

// wee_alloc (brotli-wasm 1.3.0): the census walks its runs; the buffers the
// glue frees leave no live bytes while the free bytes its lists lost grow.
test('the heap census walks wee_alloc (brotli-wasm 1.3.0): no live bytes, free bytes grow', async () => {
  const out = tempDir();
  const r = await runCli([
    'run',
    join(REAL, 'brotli-wee.mjs'),
    '-n',
    '1000',
    '--seed',
    '7',
    '--fail-on',
    'none',
    '-o',
    out,
    '-q',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const run = await decodeLog(join(out, 'samples.wslog'));
  const kinds = Array.from(run.metrics.censusKind.value);
  assert.ok(kinds.length > 2 && kinds.every((k) => k === CENSUS_KIND.weeAlloc), `${kinds}`);
  assert.ok(Array.from(run.metrics.censusLive.value).every((v) => v === 0));
  const free = run.metrics.censusFree.value;
  assert.ok(free.at(-1) > free[0], `free bytes ${free[0]} → ${free.at(-1)}`);
});
