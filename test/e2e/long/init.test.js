// `wasm-soak init`: on every visible real module of soak/real/ and on sql.js
// (soak/dev/; their npm packages are devDependencies), the scenario it writes
// runs 1 000 calls unedited; the glue forms it recognises from a file
// (wasm-bindgen nodejs, web and bundler, Emscripten with or without
// MODULARIZE and with WebIDL bindings, AssemblyScript, a WASI reactor) load
// as their glue wants; a raw module with glue-shaped imports points to init.
// These tests are about mechanics, so the runs use --fail-on none.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { glueKind } from '../../../src/module-kind.js';
import { fixture, readSummary, runCli, tempDir } from '../../helpers.js';
import { CALLS, initAndRun, project } from '../../init-helpers.js';

/**
 * init operand into dir where no call works with random arguments: exit 0, the sentence that
 * says so, a scenario whose load() works and whose placeholder op fails the run at its first
 * call, saying it must be replaced. Returns the scenario's text.
 */
async function initPlaceholder(operand, dir = project()) {
  const name = basename(operand).replace(/\W+/g, '-');
  const scenario = join(dir, `${name}.soak.mjs`);
  const init = await runCli(['init', operand, '-o', scenario], { cwd: dir });
  assert.equal(init.code, 0, `init ${operand}: ${init.stderr}`);
  assert.match(
    init.stdout,
    /no call worked with random arguments, so its op replaceMe is a placeholder that fails the run until you replace it/,
  );
  const text = readFileSync(scenario, 'utf8');
  assert.match(
    text,
    /replaceMe: \{\n\s+run\(\{ api, raw \}, ctx\) \{\n(\s+\/\/.*\n)+\s+throw new Error\('replaceMe is the placeholder op/,
  );
  const out = join(dir, `out-${name}`);
  const r = await runCli(['run', scenario, '-n', '100', '--seed', '3', '-q', '-o', out], { cwd: dir });
  assert.equal(r.code, 3, `a run of the placeholder fails: ${r.stderr}`);
  assert.match(r.stderr, /at iteration 0 \(op replaceMe\): replaceMe is the placeholder op wasm-soak init wrote/);
  const { error } = readSummary(out);
  assert.equal(error.phase, 'iteration', `${operand}: setup (load()) worked; the placeholder failed`);
  return text;
}

// The npm packages the soak/real/ scenarios drive, and sql.js (soak/dev/sqljs.mjs); @jsquash/png,
// whose calls all need a real image, is among the placeholders below.
const PACKAGES = [
  'lz4-wasm-nodejs',
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
  // Its calls all want a real image: the placeholder's load() is what this checks.
  const text = await initPlaceholder(fixture('node_modules', '@jsquash', 'png', 'codec', 'pkg', 'squoosh_png.js'));
  assert.match(text, /api\.initSync\(readFileSync\(WASM\)\)/);
});

test('init on wasm-bindgen --target bundler: the module instantiated with the glue as its imports', async () => {
  const { text } = await initAndRun(fixture('test', 'fixtures', 'bindgen-bundler', 'adder_bg.wasm'));
  assert.match(text, /--target\s+(\/\/ )?bundler/);
  assert.match(text, /api\.__wbg_set_wasm\(raw\)/);
});

test('init on an Emscripten module: its MODULARIZE glue given wasmBinary', async () => {
  // Its Module's own calls take pointers, and random numbers go only to a raw module's exports.
  const text = await initPlaceholder(fixture('node_modules', 'harfbuzzjs', 'dist', 'harfbuzz.wasm'));
  assert.match(text, /factory\(\{ wasmBinary: readFileSync\(WASM\) \}\)/);
});

test('init on Emscripten glue built without MODULARIZE: run once with a Module that carries the bytes', async () => {
  // test/fixtures/emscripten-global.cjs: Debian's emcc, no -sMODULARIZE (soak/build.js).
  const glue = fixture('test', 'fixtures', 'emscripten-global.cjs');
  assert.equal(glueKind(readFileSync(glue, 'utf8'))?.kind, 'emscripten-global');
  assert.equal(glueKind(readFileSync(fixture('test', 'fixtures', 'dylink-main.cjs'), 'utf8'))?.kind, 'emscripten');
  for (const operand of [glue, fixture('test', 'fixtures', 'emscripten-global.wasm')]) {
    const text = await initPlaceholder(operand);
    assert.match(text, /Emscripten glue without MODULARIZE/);
    assert.match(text, /const Module = \{ wasmBinary: readFileSync\(WASM\)/);
    assert.match(text, /\/\/ {3}const ptr = raw\._malloc\(size\);/, "the module's own allocator, shown working");
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

test('init on a package that fails when loaded exits 3 and leaves no file; one whose calls refuse all gets a placeholder', async () => {
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
  const text = await initPlaceholder('refuses-all', dir);
  assert.match(text, /^\/\/ {3}api\.parse\(input\) {2}1 parameter, types not declared$/m, 'its parameter, by name');
});

// Real modules whose calls all need structured input, of three glues: wasm-bindgen --target web
// (@jsquash/png, as installed: decode wants a PNG, encode pixels that fit its size); Emscripten
// (@bokuweb/zstd-wasm's decompression behind a package that needs an async initWasm() and takes
// only frames); meshoptimizer's hand-written glue over its own module (its decoders behind a package
// that awaits the decoder's ready promise: they want encoded buffers).
test('init where no call works with random arguments: load() as written, the API with types, a placeholder that fails the run', async () => {
  const dir = project();
  const png = await initPlaceholder('@jsquash/png', dir);
  assert.match(png, /api\.initSync\(readFileSync\(WASM\)\)|glue\.initSync\(readFileSync\(WASM\)\)/);
  assert.match(png, /^\/\/ {3}api\.decode\(data: Uint8Array\): ImageData$/m, 'the types its .d.ts declares');
  assert.match(png, /\/\/ {3}const ptr = raw\.__wbindgen_malloc\(size, 1\);$/m, 'what works: its allocator');

  const scratch = tempDir('wasm-soak-init-');
  const modules = join(scratch, 'node_modules');
  mkdirSync(modules);
  for (const name of ['@bokuweb', 'meshoptimizer'])
    symlinkSync(fixture('node_modules', name), join(modules, name), 'dir');
  const pkg = (name, source, types = null) => {
    mkdirSync(join(modules, name));
    writeFileSync(join(modules, name, 'package.json'), JSON.stringify({ name, type: 'module', main: 'index.js' }));
    writeFileSync(join(modules, name, 'index.js'), source);
    if (types) writeFileSync(join(modules, name, 'index.d.ts'), types);
  };
  pkg(
    'zstd-frames',
    [
      "import zstd from '@bokuweb/zstd-wasm';",
      'export async function initWasm() {',
      '  await zstd.init();',
      '}',
      'export function decompressFrame(frame) {',
      "  if (!(frame instanceof Uint8Array)) throw new TypeError('frame must be a Uint8Array');",
      '  return zstd.decompress(frame);',
      '}',
      '',
    ].join('\n'),
    'export declare function initWasm(): Promise<void>;\nexport declare function decompressFrame(frame: Uint8Array): Uint8Array;\n',
  );
  pkg(
    'meshopt-decoder',
    [
      "import { MeshoptDecoder } from 'meshoptimizer';",
      'export const decoder = {',
      '  ready: MeshoptDecoder.ready,',
      '  decodeVertexBuffer: MeshoptDecoder.decodeVertexBuffer,',
      '  decodeIndexBuffer: MeshoptDecoder.decodeIndexBuffer,',
      '};',
      '',
    ].join('\n'),
  );
  const zstd = await initPlaceholder('zstd-frames', scratch);
  assert.match(zstd, /^ {2}await pkg\.initWasm\(\);$/m, 'its async init, called in load()');
  assert.match(zstd, /^\/\/ {3}api\.decompressFrame\(frame: Uint8Array\): Uint8Array$/m);
  const mesh = await initPlaceholder('meshopt-decoder', scratch);
  assert.match(mesh, /await Promise\.all\(\[pkg\.decoder\.ready\]\);/, 'its ready promise, awaited in load()');
  assert.match(mesh, /^\/\/ {3}api\.decoder\.decodeVertexBuffer\(\w+, \w+, \w+, \w+, \w+\) {2}5 parameters/m);
});

test('init chooses a call that enters the module and allocates over a constant and a pure-JS helper', async () => {
  // test/fixtures/reach-pkg: buildVersion() and checksumEquals(a, b) come first in its namespace and both work.
  const dir = tempDir('wasm-soak-init-');
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(fixture('test', 'fixtures', 'reach-pkg'), join(dir, 'node_modules', 'reach-pkg'), 'dir');
  const scenario = join(dir, 'reach.soak.mjs');
  const init = await runCli(['init', 'reach-pkg', '-o', scenario], { cwd: dir });
  assert.equal(init.code, 0, init.stderr);
  assert.match(
    init.stdout,
    /; op hash ran 200 calls here, each entering the module \(3 calls into its exports, allocating\)\.\n/,
  );
  const text = readFileSync(scenario, 'utf8');
  assert.match(text, /^ {4}hash: \{\n\s+run\(\{ api \}, ctx\) \{\n\s+api\.hash\(/m);
  assert.match(text, /^\/\/ {3}api\.buildVersion\(…\) {2}0 parameters {2}\[a constant\]$/m);
  assert.match(
    text,
    /^\/\/ {3}api\.checksumEquals\(a, b\) {2}2 parameters, types not declared {2}\[pure JS: never enters the module\]$/m,
  );
  assert.match(text, /^\/\/ {3}api\.hash\(data\) .* {2}\[enters the module, allocates\] {2}<- the op above$/m);
  // Its result folder, without -o, is soak-results/reach (the file's name without .soak.mjs), as the README says.
  const r = await runCli(['run', scenario, '-n', '200', '-q', '--fail-on', 'none', '--format', 'md'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(existsSync(join(dir, 'soak-results', 'reach', 'summary.json')), 'soak-results/reach/summary.json');
});

test('init on a module in a folder whose name holds a backslash, a newline or a #: the scenario loads it and runs', async () => {
  for (const folder of ['back\\slash', 'new\nline', 'hash#mark']) {
    const dir = project();
    mkdirSync(join(dir, folder));
    const wasm = join(dir, folder, 'clean.wasm');
    writeFileSync(wasm, readFileSync(fixture('soak', 'modules', 'clean.wasm')));
    const { text } = await initAndRun(join(folder, 'clean.wasm'), dir);
    assert.match(
      text,
      /^\/\/ A soak scenario for clean, written by `wasm-soak init .*clean\.wasm`/,
      JSON.stringify(folder),
    );
  }
});
