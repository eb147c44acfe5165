// WasmGC modules (issue 30, item 5): struct and array types recognised from
// the type section (src/worker/targets/wasm-info.js), their objects judged
// by the JS heap after full GCs. The fixtures (test/fixtures/wasmgc/*.wat,
// built by soak/build.js with binaryen) use the GC proposal's standard
// encoding: an engine that runs it (Node >= 22) soaks them at the defaults;
// Node 20's V8 11.3 knows only a pre-standard draft and refuses them, with
// or without --experimental-wasm-gc, so there the run must say why. Where
// the Node running these tests refuses them, the soaks run the CLI with the
// Node 22 that test/node22/ installs (`npm ci --prefix test/node22`; the
// addon is Node-API, so the same build loads): on Linux x64, where that
// package exists, its absence fails the soaks rather than skipping them.
// The runs through the CLI; the checks without a run are in
// test/unit/worker/wasm-info.test.js.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fixture, readSummary, runCli, tempDir } from '../helpers.js';

const scenario = fixture('test', 'scenarios', 'wasmgc-keep.mjs');

const gcModule = (name) => fixture('test', 'fixtures', 'wasmgc', `${name}.wasm`);
const KEEP = readFileSync(gcModule('keep'));
const runsWasmGc = WebAssembly.validate(KEEP);
const NODE22 = fixture('test', 'node22', 'node_modules', `node-${process.platform}-${process.arch}`, 'bin', 'node');
// The package test/node22/ installs exists for Linux x64 only.
const NODE22_PLATFORM = process.platform === 'linux' && process.arch === 'x64';
/** The Node that soaks the WasmGC fixtures: this one when it runs them, else test/node22's. */
const gcNode = runsWasmGc ? process.execPath : NODE22;
const node22Version = JSON.parse(readFileSync(fixture('test', 'node22', 'package.json'), 'utf8')).optionalDependencies[
  `node-${process.platform}-${process.arch}`
];
const gcNodeVersion = runsWasmGc ? process.version : `v${node22Version}`;
const NO_WASMGC =
  runsWasmGc || NODE22_PLATFORM ? false : `Node ${process.version}'s engine does not run standard WasmGC`;
const HAS_WASMGC = runsWasmGc ? `Node ${process.version}'s engine runs WasmGC: nothing to refuse` : false;

/** Runs args through the CLI on the Node that runs WasmGC (gcNode), which must exist. */
function runGc(args) {
  assert.ok(existsSync(gcNode), `${gcNode} is missing: install it with \`npm ci --prefix test/node22\``);
  return runCli(args, { node: gcNode });
}

/** Runs the fixture name at the defaults on gcNode; { r, s } (s: summary.json). */
async function soak(name) {
  const out = tempDir();
  const r = await runGc(['run', gcModule(name), '-o', out, '--format', 'md']);
  return { r, s: r.code === 2 ? null : readSummary(out) };
}

/** Runs the fixture name at the defaults on this Node (one that refuses WasmGC): { r }. */
async function refused(name) {
  return { r: await runCli(['run', gcModule(name), '-o', tempDir(), '--format', 'md']) };
}

test('WasmGC module that drops its objects: stable, its objects said to live in the JS heap', {
  skip: NO_WASMGC,
}, async () => {
  const { r, s } = await soak('drop');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(s.env.node, gcNodeVersion, 'run by the Node that runs WasmGC');
  assert.equal(s.verdict, 'stable');
  assert.match(s.sources.gc.source, /objects live in the engine's garbage-collected heap, judged by the JS heap/);
  assert.ok(s.series.find((x) => x.name === 'js-heap')?.tested, 'the JS heap after full GCs was judged');
});

test('WasmGC module that keeps its objects in a growing global array: js-heap-growth naming the module', {
  skip: NO_WASMGC,
}, async () => {
  const { r, s } = await soak('keep');
  assert.equal(r.code, 1, r.stderr);
  assert.equal(s.verdict, 'js-heap-growth');
  const f = s.findings.find((x) => x.kind === 'js-heap-growth');
  assert.deepEqual(f.wasmGc, { structs: 1, arrays: 2 });
  // Each call keeps a record of 256 payload bytes: the heap grows by more than that per call.
  assert.ok(f.slope.perKiloIterations > 256_000, `${f.slope.perKiloIterations} bytes per 1,000 calls`);
  assert.match(r.stdout, /WasmGC module .* live in the engine's garbage-collected heap, not in linear memory/);
});

test('WasmGC module on an engine without the standard: refused, exit 2, saying why and what runs it', {
  skip: HAS_WASMGC,
}, async () => {
  const { r } = await refused('keep');
  assert.equal(r.code, 2, r.stderr);
  assert.match(
    r.stderr,
    /uses WasmGC types \(1 struct and 2 array types: the GC proposal, whose objects live in the engine's garbage-collected heap\), which the engine of this Node/,
  );
  assert.match(r.stderr, /Run wasm-soak with Node 22 or later/);
  assert.doesNotMatch(r.stderr, /truncated download|not a valid/);
});

test('a scenario that instantiates a WasmGC module keeping its objects: js-heap-growth naming the module', {
  skip: NO_WASMGC,
}, async () => {
  const out = tempDir();
  const r = await runGc(['run', scenario, '-o', out, '--format', 'md']);
  assert.equal(r.code, 1, r.stderr);
  const s = readSummary(out);
  assert.equal(s.verdict, 'js-heap-growth');
  assert.deepEqual(s.sources.gc.structs, 1);
  assert.deepEqual(s.findings.find((x) => x.kind === 'js-heap-growth').wasmGc, { structs: 1, arrays: 2 });
});

test('a scenario loading a WasmGC module on an engine without the standard: setup fails, exit 3, with the fix', {
  skip: HAS_WASMGC,
}, async () => {
  const r = await runCli(['run', scenario, '-o', tempDir(), '--format', 'md']);
  assert.equal(r.code, 3, r.stderr);
  assert.match(r.stderr, /setup failed: .*enable with --experimental-wasm-gc/);
  assert.match(r.stderr, /Run wasm-soak with Node 22 or later[^\n]*the flag does not help/);
});
