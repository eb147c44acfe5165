// Prepares a raw module for the runner (worker side): checks its imports,
// provides WASI preview1 when asked for, honours the reactor convention and
// turns --call/--args into op descriptions for the C loop.
import { readFileSync } from 'node:fs';
import { WASI } from 'node:wasi';
import { addon } from '../../addon.js';
import { usageError } from '../../errors.js';
import { moduleKind, needsGlue } from '../../module-kind.js';
import { ARG_KIND, MAX_PARAMS, VALUE_TYPE } from '../../protocol.js';
import { chooseCalls } from './choose-calls.js';
import { buildTrampoline } from './trampoline.js';
import { inspectModule, WASMGC_FIX } from './wasm-info.js';

const WASI_MODULE = 'wasi_snapshot_preview1';
const ALLOCATORS = [
  ['malloc', 'free'],
  ['__wbindgen_malloc', '__wbindgen_free'],
];

/** Reads the module file (unless its bytes are given) and inspects it; exit-2 errors name the problem. */
function loadModule(path, given) {
  let bytes = given;
  try {
    bytes ??= readFileSync(path);
  } catch (err) {
    throw usageError(
      'WS_ENOENT',
      `Cannot read the module ${path}: ${err.code ?? err.message}.`,
      'Check the path; a raw target is a .wasm file, a scenario an .mjs/.js file.',
    );
  }
  // The engine's own validation first: a truncated or corrupted module is
  // named as such, not as whatever the partial sections suggest.
  if (!WebAssembly.validate(bytes)) {
    let why = 'the engine rejects it';
    try {
      new WebAssembly.Module(bytes);
    } catch (err) {
      why = err.message.replace(/^WebAssembly\.Module\(\): /, '');
    }
    const feature = unsupportedFeature(bytes);
    if (feature) {
      throw usageError(
        'WS_EFEATURE',
        `${path} uses ${feature.words}, which the engine of this Node ${process.version} does not run (${why}).`,
        feature.fix,
      );
    }
    throw usageError(
      'WS_EMODULE',
      `${path} is not a valid module: ${why}.`,
      'Pass a complete compiled .wasm binary (a truncated download or an interrupted build step leaves a partial one).',
    );
  }
  try {
    return { bytes, info: inspectModule(bytes) };
  } catch (err) {
    throw usageError(
      'WS_EMODULE',
      `${path} is not a valid WebAssembly module: ${err.message}.`,
      'Pass a compiled .wasm binary (check the build step that produced it).',
    );
  }
}

const WITHOUT_IT = 'Build the module without it (one 32-bit memory), or drive a build without it from a scenario.';
/**
 * The proposal an invalid module's sections show it needs, as { words, fix }
 * (words: "multiple memories (3: the multi-memory proposal)", "a 64-bit
 * memory (the memory64 proposal)", "WasmGC types (…)"; fix: what to do), or
 * null when they show none (or do not parse).
 */
function unsupportedFeature(bytes) {
  let info;
  try {
    info = inspectModule(bytes);
  } catch {
    return null;
  }
  const { memories, gc } = info;
  if (memories.some((m) => m.memory64)) return { words: 'a 64-bit memory (the memory64 proposal)', fix: WITHOUT_IT };
  if (memories.length > 1)
    return { words: `multiple memories (${memories.length}: the multi-memory proposal)`, fix: WITHOUT_IT };
  if (gc)
    return {
      words: `WasmGC types (${gc.structs} struct and ${gc.arrays} array types: the GC proposal, whose objects live in the engine's garbage-collected heap)`,
      fix: WASMGC_FIX,
    };
  return null;
}

function unresolvedImports(info) {
  return info.imports.filter((i) => i.module !== WASI_MODULE || i.kind !== 'function');
}

export const signatureOf = (e) => `(${e.params.join(', ')}) -> (${e.results.join(', ')})`;

/**
 * Fails when a per-op --args names an op that is not soaked: without --call
 * the op is chosen here, so only here can such a spec be caught.
 */
export function checkArgOps(specs, calls, path) {
  const names = calls.map((c) => c.name);
  for (const { op } of specs) {
    if (op !== null && !names.includes(op)) {
      throw usageError(
        'WS_EOPTION',
        `--args ${op}=… names the op "${op}", but the op soaked in ${path} is ${names.join(', ')}.`,
        `Name ${names.join(', ')} before the "=", or soak "${op}" with --call ${op}.`,
      );
    }
  }
}

/** Maps an op's parameters to argument sources for the C loop (also a native arm's, native.js). */
export function argSources(exp, specs) {
  const spec = specs.find((s) => s.op === exp.name) ?? specs.find((s) => s.op === null);
  const params = exp.params;
  const sig = `${exp.name}(${params.join(', ')})`;
  for (const p of params) {
    if (!(p in VALUE_TYPE)) {
      throw usageError(
        'WS_ESIGNATURE',
        `${sig} takes a ${p} parameter, which a raw target cannot supply.`,
        'Write a scenario (an .mjs file with setup and iteration) that calls it.',
      );
    }
  }
  const sources = spec ? spec.sources : params.map(() => ({ kind: 'iter' }));
  const allRandom = spec && spec.sources.length === 1 && spec.sources[0].kind === 'random' && params.length > 1;
  const expanded = allRandom ? params.map(() => spec.sources[0]) : sources;
  const out = [];
  let p = 0;
  for (const s of expanded) {
    if (s.kind === 'buf') {
      if (params[p] !== 'i32' || params[p + 1] !== 'i32') {
        throw usageError(
          'WS_ESIGNATURE',
          `buf:${s.lo}..${s.hi} needs two i32 parameters (pointer, length) but ${sig} has ${params.slice(p).join(', ') || 'none'} left.`,
          'Match --args to the signature, e.g. --args buf:16..4096 for parse(i32, i32).',
        );
      }
      out.push({ kind: ARG_KIND.buf, type: VALUE_TYPE.i32, lo: s.lo, hi: s.hi });
      p += 2;
    } else {
      if (p >= params.length) break;
      out.push({ kind: ARG_KIND[s.kind], type: VALUE_TYPE[params[p]], lo: s.lo ?? 0, hi: s.hi ?? 0 });
      p++;
    }
  }
  if (out.length > MAX_PARAMS) {
    throw usageError(
      'WS_ESIGNATURE',
      `${sig} takes ${out.length} argument sources; a raw target passes at most ${MAX_PARAMS} (WS_MAX_PARAMS in addon/include/ws_loop.h).`,
      'Write a scenario (an .mjs file with setup and iteration) that calls the export with its arguments.',
    );
  }
  if (p !== params.length || out.length !== expanded.length) {
    throw usageError(
      'WS_ESIGNATURE',
      `--args gives ${expanded.length} parameter source(s) but ${sig} takes ${params.length} parameter(s).`,
      'Give one source per parameter (buf:MIN..MAX covers a pointer and a length).',
    );
  }
  return out;
}

function findAllocator(exports, info, alloc) {
  const pairs = alloc ? [[alloc.malloc, alloc.free]] : ALLOCATORS;
  for (const [m, f] of pairs) {
    if (typeof exports[m] === 'function' && typeof exports[f] === 'function') {
      const malloc = { fn: exports[m], ...info.exports.find((e) => e.name === m) };
      const free = { fn: exports[f], ...info.exports.find((e) => e.name === f) };
      // The trampoline passes (length[, align 1]) and (pointer[, length[, align 1]]).
      if (
        !malloc.params.every((p) => p === 'i32') ||
        malloc.results[0] !== 'i32' ||
        !free.params.every((p) => p === 'i32')
      ) {
        throw usageError(
          'WS_EALLOC',
          `The allocator ${m}${signatureOf(malloc)} / ${f}${signatureOf(free)} does not take and return 32-bit pointers and lengths.`,
          'Name a malloc(len) -> ptr and free(ptr) pair with --alloc ALLOC,FREE, or drive the module from a scenario.',
        );
      }
      return { malloc, free };
    }
  }
  const wanted = alloc ? `${alloc.malloc}/${alloc.free}` : 'malloc/free or __wbindgen_malloc/__wbindgen_free';
  throw usageError(
    'WS_EALLOC',
    `Buffer arguments need the module's allocator, but it exports no ${wanted}.`,
    'Export the allocator (e.g. -Wl,--export=malloc -Wl,--export=free) or name it with --alloc ALLOC,FREE.',
  );
}

/**
 * The exit code of a WASI proc_exit when thrown is what it throws, else
 * null: with returnOnExit, node:wasi ends the wasm call by throwing its
 * kExitCode symbol, and keeps the code on the WASI object under it.
 */
function procExitCode(wasi, thrown) {
  if (wasi === null || typeof thrown !== 'symbol' || thrown.description !== 'kExitCode') return null;
  return Object.getOwnPropertySymbols(wasi).includes(thrown) ? wasi[thrown] : null;
}

/**
 * Instantiates module (with WASI when wasi is given) and runs its
 * initialization: the start function, then WASI's or its own _initialize.
 * A trap or proc_exit there is the module's: an exit-3 error naming which
 * function did it, with no scenario to blame.
 */
async function initialized(module, wasi, { info, exitCodeOf }) {
  let step = 'start';
  try {
    const instance = await WebAssembly.instantiate(module, wasi ? wasi.getImportObject() : {});
    step = '_initialize';
    if (wasi) wasi.initialize(instance);
    else if (typeof instance.exports._initialize === 'function') instance.exports._initialize();
    return instance;
  } catch (err) {
    const exported = info.exports.find((e) => e.kind === 'function' && e.index === info.start);
    const which =
      step === 'start'
        ? `its start function (function ${info.start}${exported ? `, exported as "${exported.name}"` : ''})`
        : 'its _initialize export';
    if (step === 'start' && info.start === null) throw err; // not the module's code: the engine's own error
    const code = exitCodeOf(err);
    const what = code === null ? `trapped: ${err?.message ?? String(err)}` : `called proc_exit(${code})`;
    throw Object.assign(new Error(`${which} ${what}, before any call`), {
      code: 'WS_EINIT',
      fix: 'The module fails on its own before wasm-soak calls it: run it alone (e.g. with node:wasi) to see why, and fix its initialization.',
      stack: err?.stack,
    });
  }
}

/**
 * The exit-2 error for a raw module with imports a raw target cannot
 * provide: glue-shaped ones (wasm-bindgen's, Emscripten's, AssemblyScript's)
 * point to `wasm-soak init`; the imports are counted by module, and listed
 * one by one when verbose or when there are few.
 */
const LISTED_IMPORTS = 4;

function importsError(path, info, unresolved, verbose) {
  const { kind } = moduleKind(info);
  const byModule = new Map();
  for (const i of unresolved) byModule.set(i.module, (byModule.get(i.module) ?? 0) + 1);
  const counted = [...byModule].map(([module, n]) => `${n} from ${module}`).join(', ');
  const listed =
    verbose || unresolved.length <= LISTED_IMPORTS
      ? `${counted}: ${unresolved.map((i) => `${i.module}.${i.name} (${i.kind})`).join(', ')}`
      : `${counted}; --verbose lists them`;
  if (needsGlue(kind) || kind === 'assemblyscript') {
    return usageError(
      'WS_EIMPORT',
      `${path}: this module needs its JS glue (${GLUE_WORDS[kind]}; ${unresolved.length} imports, ${listed}).`,
      `\`wasm-soak init ${path}\` writes a scenario that loads it the way its glue wants (or give init the npm package); run that scenario instead.`,
    );
  }
  return usageError(
    'WS_EIMPORT',
    `${path} needs ${unresolved.length} imports that a raw target cannot provide (${listed}).`,
    'Raw targets get WASI preview1 only. Write a scenario (an .mjs file whose setup(ctx) instantiates the module with its imports) and run that instead.',
  );
}

const GLUE_WORDS = {
  'wasm-bindgen': 'a wasm-bindgen module',
  emscripten: 'an Emscripten module',
  assemblyscript: 'an AssemblyScript module',
};

/** The checked outputs' ring: room for one block's calls (a power of two), or 0. */
export const outputCapacity = (check, blockCalls) => (check ? 2 ** Math.ceil(Math.log2(Math.max(1, blockCalls))) : 0);

/**
 * Instantiates a module for a run: target { path, bytes } (bytes null: read
 * the file at path; else path only names it). Returns { ops, instance, info,
 * alloc, free, drive, sized, slots, bufferMemory, memoryNames, exitCodeOf }: exitCodeOf(thrown)
 * is the code of a WASI proc_exit that thrown ends a call with (else null); ops call the export through
 * the argument trampoline (trampoline.js), and drive runs a batch of them
 * (the addon's loopNext picks each; sized: the memories whose sizes it
 * stores in the slots), built with pristine (the unhooked
 * WebAssembly constructors). stdio: { stdin, stdout, stderr } file descriptors
 * for WASI (stdin: the null device). Throws exit-2 SoakErrors for input
 * problems, exit-3 ones for a start function or _initialize that traps or
 * exits.
 */
export async function prepareRawTarget({ path, bytes: given = null }, config, stdio, pristine) {
  const { bytes, info } = loadModule(path, given);
  const unresolved = unresolvedImports(info);
  if (unresolved.length > 0) throw importsError(path, info, unresolved, config.verbose);
  if (info.exports.some((e) => e.name === '_start')) {
    throw usageError(
      'WS_ECOMMAND',
      `${path} is a WASI command module (it exports _start), so its exports cannot be called repeatedly.`,
      'Build it as a reactor (clang -mexec-model=reactor) or drive it from a scenario.',
    );
  }
  const calls = chooseCalls(info, config.calls, path);
  checkArgOps(config.args, calls, path);
  const needsWasi = info.imports.length > 0;
  const wasi = needsWasi
    ? new WASI({
        version: 'preview1',
        args: [path],
        env: {},
        returnOnExit: true,
        stdin: stdio.stdin, // the null device: a module never reads wasm-soak's stdin
        stdout: stdio.stdout,
        stderr: stdio.stderr,
      })
    : null;
  const module = await WebAssembly.compile(bytes);
  const exitCodeOf = (thrown) => procExitCode(wasi, thrown);
  const instance = await initialized(module, wasi, { info, exitCodeOf });

  const exported = calls.map((c) => {
    const exp = info.exports.find((e) => e.name === c.name);
    return { ...c, exp, args: argSources(exp, config.args), signature: signatureOf(exp) };
  });
  const needsBuffers = exported.some((op) => op.args.some((a) => a.kind === ARG_KIND.buf));
  const allocator = needsBuffers ? findAllocator(instance.exports, info, config.alloc) : null;
  const memoryNames = info.exports.filter((e) => e.kind === 'memory').map((e) => e.name);
  const bufferMemory = Math.max(0, memoryNames.indexOf('memory'));
  if (needsBuffers && memoryNames.length === 0) {
    throw usageError(
      'WS_EMEMORY',
      `${path} exports no memory, so buffer arguments cannot be written.`,
      "Export the module's memory, or drive it from a scenario.",
    );
  }
  let trampoline;
  try {
    const targets = exported.map((op) => ({ fn: instance.exports[op.name], ...op.exp }));
    const outputs = outputCapacity(config.checkOutputs, config.blockCalls);
    // Through a JS function: V8 calls a Node-API function from JS by its
    // fast path, but from wasm by its generic one (about 12 ns more a call).
    const { loopNext } = addon;
    const unshared = memoryNames
      .map((n) => instance.exports[n])
      .filter((m) => !(m.buffer instanceof SharedArrayBuffer));
    trampoline = buildTrampoline(
      targets,
      allocator,
      pristine,
      outputs,
      () => {
        loopNext();
      },
      unshared,
    );
  } catch (err) {
    throw usageError(
      'WS_ESIGNATURE',
      `${path}: ${err.message}.`,
      'Write a scenario (an .mjs file with setup and iteration) that calls the export.',
    );
  }
  const ops = exported.map((op, k) => ({
    name: op.name,
    weight: op.weight,
    fn: trampoline.calls[k],
    args: op.args,
    signature: op.signature,
  }));
  const { alloc, free, drive, sized, slots } = trampoline;
  return { ops, instance, info, alloc, free, drive, sized, slots, bufferMemory, memoryNames, exitCodeOf };
}
