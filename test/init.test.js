// `wasm-soak init`: on every visible real module of soak/real/ and on sql.js
// (soak/dev/; their npm packages are devDependencies), the scenario it writes
// runs 1 000 calls unedited; the glue forms it recognises from a file
// (wasm-bindgen nodejs, web and bundler, Emscripten with or without
// MODULARIZE and with WebIDL bindings, AssemblyScript, a WASI reactor) load
// as their glue wants; a raw module with glue-shaped imports points to init.
// These tests are about mechanics, so the runs use --fail-on none.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { glueKind } from '../src/module-kind.js';
import { fixture, readSummary, runCli, tempDir } from './helpers.js';

const CALLS = 1000;

/** A scratch project that has this checkout's node_modules, as a user's project has its dependencies. */
function project() {
  const dir = tempDir('wasm-soak-init-');
  symlinkSync(fixture('node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

/** init operand into dir, then run the scenario 1 000 times; returns { text, summary }. */
async function initAndRun(operand, dir = project()) {
  const scenario = join(dir, 'scenario.mjs');
  const init = await runCli(['init', operand, '-o', scenario], { cwd: dir });
  assert.equal(init.code, 0, `init ${operand}: ${init.stderr}`);
  assert.match(init.stdout, /ran 200 calls here/);
  const out = join(dir, 'out');
  const r = await runCli(['run', scenario, '-n', String(CALLS), '--seed', '3', '-q', '--fail-on', 'none', '-o', out], {
    cwd: dir,
  });
  assert.equal(r.code, 0, `run of the scenario for ${operand}: ${r.stderr}`);
  const summary = readSummary(out);
  assert.equal(summary.iterations.completed, CALLS, `${operand}: every call completed`);
  return { text: readFileSync(scenario, 'utf8'), summary };
}

// The npm packages the soak/real/ scenarios drive, and sql.js (soak/dev/sqljs.mjs).
const PACKAGES = [
  'lz4-wasm-nodejs',
  '@jsquash/png',
  '@bokuweb/zstd-wasm',
  'harfbuzzjs',
  'yoga-layout',
  '@wasm-fmt/zig_fmt',
  'md4w',
  'meshoptimizer',
  'xxhash-wasm',
  'sql.js',
];

for (const name of PACKAGES) {
  test(`init ${name}: the written scenario runs ${CALLS} calls unedited`, async () => {
    const { text } = await initAndRun(name);
    assert.match(text, /^export async function load\(\)/m);
    assert.match(text, /What the module's API offers/, 'the API is listed as commented calls');
  });
}

test('init on a module file finds its glue: wasm-bindgen --target nodejs (lz4 _bg.wasm)', async () => {
  const { text } = await initAndRun(fixture('node_modules', 'lz4-wasm-nodejs', 'lz4_wasm_nodejs_bg.wasm'));
  assert.match(text, /--target\s+(\/\/ )?nodejs/);
  assert.match(text, /require\('.*lz4_wasm_nodejs\.js'\)/);
});

test('init on wasm-bindgen --target web glue: initSync with the bytes', async () => {
  const { text } = await initAndRun(fixture('node_modules', '@jsquash', 'png', 'codec', 'pkg', 'squoosh_png.js'));
  assert.match(text, /api\.initSync\(readFileSync\(WASM\)\)/);
});

test('init on wasm-bindgen --target bundler: the module instantiated with the glue as its imports', async () => {
  const { text } = await initAndRun(fixture('test', 'fixtures', 'bindgen-bundler', 'adder_bg.wasm'));
  assert.match(text, /--target\s+(\/\/ )?bundler/);
  assert.match(text, /api\.__wbg_set_wasm\(raw\)/);
});

test('init on an Emscripten module: its MODULARIZE glue given wasmBinary', async () => {
  const { text } = await initAndRun(fixture('node_modules', 'harfbuzzjs', 'dist', 'harfbuzz.wasm'));
  assert.match(text, /factory\(\{ wasmBinary: readFileSync\(WASM\) \}\)/);
});

test('init on Emscripten glue built without MODULARIZE: run once with a Module that carries the bytes', async () => {
  // test/fixtures/emscripten-global.cjs: Debian's emcc, no -sMODULARIZE (soak/build.js).
  const glue = fixture('test', 'fixtures', 'emscripten-global.cjs');
  assert.equal(glueKind(readFileSync(glue, 'utf8'))?.kind, 'emscripten-global');
  assert.equal(glueKind(readFileSync(fixture('test', 'fixtures', 'dylink-main.cjs'), 'utf8'))?.kind, 'emscripten');
  for (const operand of [glue, fixture('test', 'fixtures', 'emscripten-global.wasm')]) {
    const { text, summary } = await initAndRun(operand);
    assert.match(text, /Emscripten glue without MODULARIZE/);
    assert.match(text, /const Module = \{ wasmBinary: readFileSync\(WASM\)/);
    assert.match(text, /raw\._malloc\(size\)/, "the module's own allocator, as no export takes random numbers");
    assert.equal(summary.memory.memories.length, 1, 'its one memory, instantiated once');
  }
});

test('init on Emscripten glue with WebIDL bindings: its classes listed, what it makes freed with Module.destroy', async () => {
  // test/fixtures/webidl-counter.cjs: Debian's emcc and webidl_binder, MODULARIZE (soak/build.js).
  const glue = fixture('test', 'fixtures', 'webidl-counter.cjs');
  assert.deepEqual(glueKind(readFileSync(glue, 'utf8')), { kind: 'emscripten', flavour: 'webidl' });
  for (const operand of [glue, fixture('test', 'fixtures', 'webidl-counter.wasm')]) {
    const { text } = await initAndRun(operand);
    const header = text.replace(/\n\/\/ /g, ' ');
    assert.match(header, /an Emscripten MODULARIZE factory \(given the module as wasmBinary\), with WebIDL bindings\./);
    assert.match(text, /^\/\/ {3}new api\.Counter\(…\) … api\.destroy\(made\) {2}1 parameter/m);
    assert.match(text, /^\/\/ {5}methods: add, get, checksum$/m);
    assert.doesNotMatch(
      text,
      /api\.(wrapPointer|getCache|WrapperObject|VoidPtr)\b/,
      "the binder's helpers are not the API",
    );
    assert.match(text, /const made = new api\.Counter\(.*\);\n\s+api\.destroy\(made\);/, 'the op frees what it makes');
  }
});

test('init on an AssemblyScript module: env.abort provided', async () => {
  const { text } = await initAndRun(fixture('soak', 'modules', 'as-records.wasm'));
  assert.match(text, /AssemblyScript/);
  assert.match(text, /abort\(message, file, line, column\)/);
});

test('init on a WASI reactor: node:wasi and _initialize', async () => {
  const { text } = await initAndRun(fixture('test', 'fixtures', 'wasi-print.wasm'));
  assert.match(text, /wasi\.initialize\(instance\)/);
});

test('init refuses to write over a file, names the fix, and leaves nothing when it cannot load', async () => {
  const dir = project();
  const scenario = join(dir, 'taken.mjs');
  writeFileSync(scenario, '// mine\n');
  const r = await runCli(['init', 'lz4-wasm-nodejs', '-o', scenario], { cwd: dir });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /exists already[\s\S]*--force/);
  assert.equal(readFileSync(scenario, 'utf8'), '// mine\n');
  const missing = await runCli(['init', 'no-such-package-here', '-o', join(dir, 'x.mjs')], { cwd: dir });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /Cannot find the package no-such-package-here[\s\S]*npm install no-such-package-here/);
  assert.equal(existsSync(join(dir, 'x.mjs')), false);
});

test('run on a raw module with glue-shaped imports points to init and counts the imports', async () => {
  const wasm = fixture('node_modules', '@jsquash', 'png', 'codec', 'pkg', 'squoosh_png_bg.wasm');
  const r = await runCli(['run', wasm, '-n', '10', '-o', join(tempDir(), 'out')]);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /this module needs its JS glue \(a wasm-bindgen module; 6 imports, 6 from wbg; --verbose lists them\)/,
  );
  assert.match(r.stderr, /`wasm-soak init .*squoosh_png_bg\.wasm` writes a scenario/);
  assert.doesNotMatch(r.stderr, /__wbg_/, 'the hashed import names only with --verbose');
  const verbose = await runCli(['run', wasm, '-n', '10', '--verbose', '-o', join(tempDir(), 'out')]);
  assert.equal(verbose.code, 2);
  assert.match(verbose.stderr, /wbg\.__wbindgen_throw \(function\)/);
});

test('init on a package that fails when loaded, or offers no call that works, exits 3 and leaves no file', async () => {
  const dir = tempDir('wasm-soak-init-');
  const pkg = (name, source) => {
    const at = join(dir, 'node_modules', name);
    mkdirSync(at, { recursive: true });
    writeFileSync(join(at, 'package.json'), JSON.stringify({ name, type: 'module', main: 'index.js' }));
    writeFileSync(join(at, 'index.js'), source);
  };
  pkg(
    'fails-to-init',
    "export async function init() { throw new Error('no module here'); }\nexport const f = () => 1;\n",
  );
  pkg('refuses-all', "export function parse(input) { throw new TypeError('cannot parse ' + typeof input); }\n");
  const broken = await runCli(['init', 'fails-to-init', '-o', join(dir, 'a.mjs')], { cwd: dir });
  assert.equal(broken.code, 3);
  assert.match(broken.stderr, /init could not load fails-to-init: its init\(\) failed: no module here/);
  assert.equal(existsSync(join(dir, 'a.mjs')), false);
  const refusing = await runCli(['init', 'refuses-all', '-o', join(dir, 'b.mjs')], { cwd: dir });
  assert.equal(refusing.code, 3);
  assert.match(refusing.stderr, /init could not find a working op for refuses-all: no exported call worked/);
  assert.equal(existsSync(join(dir, 'b.mjs')), false);
});
