#!/usr/bin/env node
// Builds the soak fixture modules and the test-only modules.
//
//   node soak/build.js          soak/fixtures/<name>.c -> soak/modules/<name>.wasm
//                               soak/fixtures/<name>.ts -> soak/modules/<name>.wasm (asc)
//                               test/fixtures/<name>.wat -> test/fixtures/<name>.wasm,
//                               test/fixtures/bindgen-bundler/adder.wat -> adder_bg.wasm
//                               test/fixtures/dylink-{main,side}.c -> dylink-main.{cjs,wasm},
//                               dylink-side.wasm (Emscripten dynamic linking)
//                               test/fixtures/emscripten-global.c -> .cjs, .wasm
//                               test/fixtures/webidl-counter.{idl,cpp} -> .cjs, .wasm
//                               (Emscripten WebIDL bindings)
//                               test/fixtures/wasmgc/<name>.wat -> <name>.wasm (WasmGC,
//                               binaryen's text format: wat2wasm has no GC)
//                               soak/fixtures/<name>.c -> soak/native/<name>.so for
//                               the fixtures in NATIVE (not committed: see below)
//   node soak/build.js --check  builds into a temporary folder and compares every
//                               committed output byte for byte with the committed
//                               file; exits 1 naming each file that differs.
//   node soak/build.js --native builds only the native libraries (what tests need).
//
// The native libraries (compare's native arm, docs/compare.md) are built for
// the host at test time, not committed: a .so runs only on the machine type
// and C library it was built for.
//
// Outputs must be byte-identical across rebuilds and machines: the compiler
// runs from the repository root on relative paths, with no debug info
// (wasi-libc's own DWARF is stripped at link time), so no path is embedded.
// Needs Debian's clang, lld, wasi-libc and wabt (wat2wasm), and Debian's
// emscripten (with python3-ply, which its webidl_binder needs) for the
// fixtures built with emcc.

import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = 'soak/fixtures';
const MODULES = 'soak/modules';
const TEST_FIXTURES = 'test/fixtures';
// wat2wasm flags of the test fixtures that need more than the defaults:
// panic-trap keeps its function names (a name section), as a Rust build does;
// hostile-names its hostile ones.
const WAT_FLAGS = { 'panic-trap': ['--debug-names'], 'hostile-names': ['--debug-names'] };
const ASC_BIN = join(ROOT, 'node_modules/assemblyscript/bin/asc.js');

// Flags for every fixture. -O2 keeps the workloads realistic; --strip-debug
// drops the DWARF that wasi-libc's libc.a carries (it holds build paths).
const COMMON = [
  '--target=wasm32-wasi',
  '-mexec-model=reactor',
  '-O2',
  '-Wall',
  '-Wextra',
  '-Werror',
  '-Wl,--strip-debug',
];

// Extra flags per fixture (a fixture not listed needs none).
const EXTRA = {
  // The host allocates parse()'s input buffer in the module.
  parse: ['-Wl,--export=malloc', '-Wl,--export=free'],
  // Its own allocator, exported like a host-facing malloc (mallinfo is
  // exported from the source).
  fragment: ['-Wl,--export=malloc', '-Wl,--export=free'],
  // Exporting the mutable __stack_pointer global needs the mutable-globals
  // feature; a 4 MiB stack placed first holds 200 000 calls of 16 B drift and
  // makes an overflow trap instead of overwriting static data.
  drift: ['-mmutable-globals', '-Wl,--export=__stack_pointer', '-Wl,--stack-first', '-Wl,-z,stack-size=4194304'],
  // The allocator comparison: the same workload on dlmalloc and on a small
  // first-fit allocator, both exported like a host-facing malloc.
  'alloc-dlmalloc': ['-Wl,--export=malloc', '-Wl,--export=free'],
  'alloc-firstfit': ['-Wl,--export=malloc', '-Wl,--export=free'],
  // The native yardstick: scan's buffer comes from the module's allocator.
  yardstick: ['-Wl,--export=malloc', '-Wl,--export=free'],
  // Allocation sites: malloc and free exported, so that a copy stripped of
  // its name section (test/e2e/sites.test.js) still has an allocator to wrap.
  sites: ['-Wl,--export=malloc', '-Wl,--export=free'],
  // A release build: the allocator exported for the host, no name section.
  'leak-stripped': ['-Wl,--export=malloc', '-Wl,--export=free', '-Wl,--strip-all'],
};

// Fixtures also built as native shared libraries for the host, with the
// same clang and optimisation level as their wasm builds, into NATIVE_OUT.
const NATIVE = ['yardstick'];
const NATIVE_FLAGS = ['-shared', '-fPIC', '-O2', '-Wall', '-Wextra', '-Werror'];
const NATIVE_OUT = 'soak/native';

// Fixtures built with Debian's emcc instead of clang: standalone wasm
// (WASI imports only, none here), no JS glue, and a fixed 16 MiB memory so
// that no growth callback is imported; flags per fixture.
const EMCC_COMMON = ['-O2', '-sSTANDALONE_WASM', '--no-entry', '-Wall', '-Wextra', '-Werror'];
const EMCC = {
  'clean-emscripten': ['-sMALLOC=dlmalloc'],
  'leak-emscripten': ['-sMALLOC=dlmalloc'],
  'leak-emmalloc': ['-sMALLOC=emmalloc'],
};

// The Emscripten dynamic-linking test fixture: a side module, and a main
// module with its JS glue (CommonJS, hence .cjs) that loads the side module
// at run time from Module.dynamicLibraries, as plugin hosts do; the side
// module's symbols are undefined when the main module links.
const DYLINK_SIDE = ['-O1', '-sSIDE_MODULE=1', '-Wall', '-Wextra', '-Werror'];
const DYLINK_MAIN = [
  '-O1',
  '-sMAIN_MODULE=2',
  '-sERROR_ON_UNDEFINED_SYMBOLS=0',
  '-sWARN_ON_UNDEFINED_SYMBOLS=0',
  '-sEXPORTED_FUNCTIONS=_step,_malloc,_free,_memset',
  '-sMODULARIZE',
  '-sEXPORT_NAME=createDylink',
  '-sENVIRONMENT=node',
  '-Wall',
  '-Wextra',
  '-Werror',
];

// An Emscripten build without MODULARIZE, as older packages ship: its JS glue
// (CommonJS, hence .cjs) fills one Module object and instantiates the module
// beside it as it loads; wasm-soak init must recognise it.
const EMSCRIPTEN_GLOBAL = [
  '-O1',
  '-sENVIRONMENT=node',
  '-sEXPORTED_FUNCTIONS=_checksum,_malloc,_free',
  '-Wall',
  '-Wextra',
  '-Werror',
];

// An Emscripten build with WebIDL bindings: webidl_binder writes the C++ and
// JS glue of test/fixtures/webidl-counter.idl into a temporary folder, the
// C++ source includes the C++ half and the JS half is the --post-js of a
// MODULARIZE factory (CommonJS, hence .cjs); wasm-soak init must recognise it.
const WEBIDL = [
  '-O1',
  '-sMODULARIZE',
  '-sEXPORT_NAME=createCounterModule',
  '-sENVIRONMENT=node',
  '-Wall',
  '-Wextra',
  '-Werror',
];
// Debian's python, which has python3-ply, runs webidl_binder (emcc runs on
// whichever python3 comes first on PATH).
const WEBIDL_PYTHON = '/usr/bin/python3';

// AssemblyScript fixtures (soak/fixtures/<name>.ts), built with the
// assemblyscript compiler from npm (a devDependency): its TLSF allocator with
// the incremental GC, the runtime (__pin, __unpin, __collect) exported.
const ASC = ['--runtime', 'incremental', '--exportRuntime', '-O3', '--noAssert'];

// Test-only files that are committed as they are, not built.
const STATIC_TEST_FILES = new Set(['not-wasm.wasm']);

// clang runs wasm-opt on optimised wasm output whenever it finds one beside
// itself or on PATH, and npm puts the binaryen package's wasm-opt on PATH
// (node_modules/.bin), as does Debian's binaryen (/usr/bin, where clang is):
// the output would then depend on how the build was started and what the
// machine has. So the tools run with a PATH on which every folder holding a
// wasm-opt is replaced by a folder of links to everything in it but wasm-opt.
// Debian's emcc, which runs wasm-opt itself, gets the binaryen its own config
// names (BINARYEN_ROOT, read with em-config) first on its PATH.
function toolEnv() {
  const links = mkdtempSync(join(tmpdir(), 'soak-tools-'));
  process.on('exit', () => rmSync(links, { recursive: true, force: true }));
  const path = [];
  for (const dir of (process.env.PATH ?? '').split(':').filter(Boolean)) {
    if (!existsSync(join(dir, 'wasm-opt'))) {
      path.push(dir);
      continue;
    }
    for (const name of readdirSync(dir)) {
      if (name !== 'wasm-opt' && !existsSync(join(links, name))) symlinkSync(join(dir, name), join(links, name));
    }
    if (!path.includes(links)) path.push(links);
  }
  return { ...process.env, PATH: path.join(':') };
}
const TOOL_ENV = toolEnv();

let emccEnv = null;
function emccEnvironment() {
  if (!emccEnv) {
    let root;
    try {
      root = execFileSync('em-config', ['BINARYEN_ROOT'], { env: TOOL_ENV }).toString().trim();
    } catch {
      fail("em-config not found or failing: install Debian's emscripten");
    }
    emccEnv = { ...TOOL_ENV, PATH: `${join(root, 'bin')}:${TOOL_ENV.PATH}` };
  }
  return emccEnv;
}

function run(cmd, args, env = TOOL_ENV) {
  try {
    execFileSync(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
  } catch (err) {
    if (err.code === 'ENOENT') {
      fail(`${cmd} not found: install Debian's clang, lld, wasi-libc, wabt and emscripten`);
    }
    fail(`${cmd} ${args.join(' ')} failed (exit ${err.status})`);
  }
}

function fail(message) {
  console.error(`build-fixtures: ${message}`);
  process.exit(1);
}

function names(dir, ext) {
  if (!existsSync(join(ROOT, dir))) return [];
  return readdirSync(join(ROOT, dir))
    .filter((f) => f.endsWith(ext))
    .map((f) => f.slice(0, -ext.length))
    .sort();
}

// Builds everything into outDir (relative to ROOT or absolute) and returns
// the list of { built, committed } paths, both relative to ROOT when inside it.
async function buildAll(soakOut, testOut) {
  const outputs = [];
  for (const name of names(FIXTURES, '.c')) {
    const src = `${FIXTURES}/${name}.c`;
    const out = join(soakOut, `${name}.wasm`);
    if (EMCC[name]) run('emcc', [...EMCC_COMMON, ...EMCC[name], src, '-o', out], emccEnvironment());
    else run('clang', [...COMMON, ...(EXTRA[name] || []), src, '-o', out]);
    outputs.push({ built: out, committed: `${MODULES}/${name}.wasm` });
  }
  for (const name of names(FIXTURES, '.ts')) {
    const out = join(soakOut, `${name}.wasm`);
    run(process.execPath, [ASC_BIN, ...ASC, `${FIXTURES}/${name}.ts`, '--outFile', out]);
    outputs.push({ built: out, committed: `${MODULES}/${name}.wasm` });
  }
  run(
    'emcc',
    [...DYLINK_SIDE, `${TEST_FIXTURES}/dylink-side.c`, '-o', join(testOut, 'dylink-side.wasm')],
    emccEnvironment(),
  );
  run(
    'emcc',
    [...DYLINK_MAIN, `${TEST_FIXTURES}/dylink-main.c`, '-o', join(testOut, 'dylink-main.cjs')],
    emccEnvironment(),
  );
  run(
    'emcc',
    [...EMSCRIPTEN_GLOBAL, `${TEST_FIXTURES}/emscripten-global.c`, '-o', join(testOut, 'emscripten-global.cjs')],
    emccEnvironment(),
  );
  buildWebidl(testOut);
  for (const file of [
    'dylink-side.wasm',
    'dylink-main.wasm',
    'dylink-main.cjs',
    'emscripten-global.wasm',
    'emscripten-global.cjs',
    'webidl-counter.wasm',
    'webidl-counter.cjs',
  ]) {
    outputs.push({ built: join(testOut, file), committed: `${TEST_FIXTURES}/${file}` });
  }
  for (const name of names(TEST_FIXTURES, '.wat')) {
    const src = `${TEST_FIXTURES}/${name}.wat`;
    const out = join(testOut, `${name}.wasm`);
    run('wat2wasm', [src, '-o', out, ...(WAT_FLAGS[name] ?? [])]);
    outputs.push({ built: out, committed: `${TEST_FIXTURES}/${name}.wasm` });
  }
  for (const out of await buildWasmGc(testOut)) outputs.push(out);
  // A wasm-bindgen --target bundler shaped package: its module is <name>_bg.wasm.
  mkdirSync(join(testOut, 'bindgen-bundler'), { recursive: true });
  const bundler = join(testOut, 'bindgen-bundler', 'adder_bg.wasm');
  run('wat2wasm', [`${TEST_FIXTURES}/bindgen-bundler/adder.wat`, '-o', bundler]);
  outputs.push({ built: bundler, committed: `${TEST_FIXTURES}/bindgen-bundler/adder_bg.wasm` });
  return outputs;
}

// WasmGC fixtures (struct and array types) are written in binaryen's text
// format, which knows the GC proposal's final encoding; wabt's wat2wasm
// (Debian's 1.0.32) does not. binaryen is an exact devDependency (132.0.0):
// its emitBinary output is the same on every machine.
const WASMGC = `${TEST_FIXTURES}/wasmgc`;
const WASMGC_FEATURES = ['MVP', 'GC', 'ReferenceTypes'];

/** Builds test/fixtures/wasmgc/<name>.wat into testOut/wasmgc; returns their { built, committed }. */
async function buildWasmGc(testOut) {
  const { default: binaryen } = await import('binaryen');
  mkdirSync(join(testOut, 'wasmgc'), { recursive: true });
  return names(WASMGC, '.wat').map((name) => {
    const module = binaryen.parseText(readFileSync(join(ROOT, WASMGC, `${name}.wat`), 'utf8'));
    try {
      module.setFeatures(WASMGC_FEATURES.reduce((all, f) => all | binaryen.Features[f], 0));
      if (!module.validate()) fail(`${WASMGC}/${name}.wat does not validate`);
      const out = join(testOut, 'wasmgc', `${name}.wasm`);
      writeFileSync(isAbsolute(out) ? out : join(ROOT, out), module.emitBinary());
      return { built: out, committed: `${WASMGC}/${name}.wasm` };
    } finally {
      module.dispose();
    }
  });
}

/** Builds test/fixtures/webidl-counter.{cjs,wasm} into testOut, its generated glue in a temporary folder. */
function buildWebidl(testOut) {
  const env = emccEnvironment();
  const glue = mkdtempSync(join(tmpdir(), 'soak-webidl-'));
  try {
    const root = execFileSync('em-config', ['EMSCRIPTEN_ROOT'], { env }).toString().trim();
    const stem = join(glue, 'webidl-counter.glue');
    run(WEBIDL_PYTHON, [join(root, 'tools', 'webidl_binder.py'), `${TEST_FIXTURES}/webidl-counter.idl`, stem], env);
    run(
      'emcc',
      [
        ...WEBIDL,
        '-I',
        glue,
        '--post-js',
        `${stem}.js`,
        `${TEST_FIXTURES}/webidl-counter.cpp`,
        '-o',
        join(testOut, 'webidl-counter.cjs'),
      ],
      env,
    );
  } finally {
    rmSync(glue, { recursive: true, force: true });
  }
}

/** Builds the native libraries into NATIVE_OUT; returns their paths relative to ROOT. */
function buildNative() {
  mkdirSync(join(ROOT, NATIVE_OUT), { recursive: true });
  return NATIVE.map((name) => {
    const out = `${NATIVE_OUT}/${name}.so`;
    run('clang', [...NATIVE_FLAGS, `${FIXTURES}/${name}.c`, '-o', out]);
    return out;
  });
}

async function check() {
  const tmp = mkdtempSync(join(tmpdir(), 'soak-fixtures-'));
  const soakOut = join(tmp, 'modules');
  const testOut = join(tmp, 'test');
  mkdirSync(soakOut);
  mkdirSync(testOut);
  const problems = [];
  try {
    const outputs = await buildAll(soakOut, testOut);
    for (const { built, committed } of outputs) {
      const path = join(ROOT, committed);
      if (!existsSync(path)) {
        problems.push(`${committed} is missing (not built and committed)`);
      } else if (!readFileSync(built).equals(readFileSync(path))) {
        problems.push(`${committed} differs from a fresh build of its source`);
      }
    }
    const expected = new Set(outputs.map((o) => o.committed));
    for (const name of names(MODULES, '.wasm')) {
      const committed = `${MODULES}/${name}.wasm`;
      if (!expected.has(committed)) problems.push(`${committed} has no source in ${FIXTURES}/`);
    }
    for (const name of names(TEST_FIXTURES, '.wasm')) {
      const committed = `${TEST_FIXTURES}/${name}.wasm`;
      if (!expected.has(committed) && !STATIC_TEST_FILES.has(`${name}.wasm`)) {
        problems.push(`${committed} has no source (.wat) in ${TEST_FIXTURES}/`);
      }
    }
    if (problems.length > 0) {
      for (const p of problems) console.error(`build-fixtures --check: ${p}`);
      console.error('build-fixtures --check: run `npm run build:fixtures` and commit the modules');
      process.exitCode = 1;
    } else {
      console.log(`build-fixtures --check: ${outputs.length} modules match their sources`);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2);
if (args.includes('--check')) {
  await check();
} else if (args.includes('--native')) {
  for (const out of buildNative()) console.log(`built ${out}`);
} else if (args.length > 0) {
  fail(`unknown argument ${args[0]} (usage: node soak/build.js [--check | --native])`);
} else {
  mkdirSync(join(ROOT, MODULES), { recursive: true });
  const outputs = await buildAll(MODULES, TEST_FIXTURES);
  // The linker marks its output executable; modules are data.
  for (const { committed } of outputs) chmodSync(join(ROOT, committed), 0o644);
  for (const { committed } of outputs) console.log(`built ${relative('.', join(ROOT, committed))}`);
  for (const out of buildNative()) console.log(`built ${out}`);
}
