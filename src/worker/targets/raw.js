// Prepares a raw module for the runner (worker side): checks its imports,
// provides WASI preview1 when asked for, honours the reactor convention and
// turns --call/--args into op descriptions for the C loop.
import { readFileSync } from 'node:fs';
import { WASI } from 'node:wasi';
import { usageError } from '../../cli/exit-codes.js';
import { inspectModule } from './wasm-info.js';

const WASI_MODULE = 'wasi_snapshot_preview1';
const INTERNAL = new Set([
  '_initialize',
  '_start',
  'malloc',
  'free',
  'calloc',
  'realloc',
  'sbrk',
  '__wbindgen_malloc',
  '__wbindgen_free',
  '__wbindgen_realloc',
]);
const ALLOCATORS = [
  ['malloc', 'free'],
  ['__wbindgen_malloc', '__wbindgen_free'],
];
const ARG = { iter: 0, random: 1, buf: 2, const: 3 };
const VAL = { i32: 0, i64: 1, f32: 2, f64: 3 };

/** Reads and inspects the module file; exit-2 errors name the problem. */
export function loadModuleFile(path) {
  let bytes;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw usageError(
      'WS_ENOENT',
      `Cannot read the module ${path}: ${err.code ?? err.message}.`,
      'Check the path; a raw target is a .wasm file, a scenario an .mjs/.js file.',
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

function unresolvedImports(info) {
  return info.imports.filter((i) => i.module !== WASI_MODULE || i.kind !== 'function');
}

function functionExports(info) {
  return info.exports.filter((e) => e.kind === 'function');
}

/** Chooses the ops: --call, or the module's only non-internal function. */
function chooseCalls(info, calls, path) {
  const fns = functionExports(info);
  const list = fns.map((e) => `${e.name}(${e.params.join(', ')})`).join(', ') || 'none';
  if (!calls) {
    const candidates = fns.filter((e) => !INTERNAL.has(e.name));
    if (candidates.length !== 1) {
      throw usageError(
        'WS_ECALL',
        `${path} exports ${candidates.length} candidate functions; which one to soak is ambiguous.`,
        `Name it with --call NAME (or a weighted mix --call a:5,b:1). Function exports: ${list}.`,
      );
    }
    return [{ name: candidates[0].name, weight: 1 }];
  }
  for (const c of calls) {
    if (!fns.some((e) => e.name === c.name)) {
      throw usageError('WS_EEXPORT', `${path} has no exported function "${c.name}".`, `Function exports: ${list}.`);
    }
  }
  return calls;
}

/**
 * Fails when a per-op --args names an op that is not soaked: without --call
 * the op is chosen here, so only here can such a spec be caught.
 */
function checkArgOps(specs, calls, path) {
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

/** Maps an op's parameters to argument sources for the C loop. */
function argSources(exp, specs) {
  const spec = specs.find((s) => s.op === exp.name) ?? specs.find((s) => s.op === null);
  const params = exp.params;
  const sig = `${exp.name}(${params.join(', ')})`;
  for (const p of params) {
    if (!(p in VAL)) {
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
      out.push({ kind: ARG.buf, type: VAL.i32, lo: s.lo, hi: s.hi });
      p += 2;
    } else {
      if (p >= params.length) break;
      out.push({ kind: ARG[s.kind], type: VAL[params[p]], lo: s.lo ?? 0, hi: s.hi ?? 0 });
      p++;
    }
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
      const mInfo = info.exports.find((e) => e.name === m);
      const malloc = mInfo && mInfo.params.length >= 2 ? (n) => exports[m](n, 1) : exports[m];
      const fInfo = info.exports.find((e) => e.name === f);
      const free = fInfo && fInfo.params.length >= 3 ? (p, n) => exports[f](p, n, 1) : exports[f];
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
 * Instantiates the module at path for a run. Returns { ops, memories, module,
 * malloc, free, bufferMemory }. stdio: { stdout, stderr } file descriptors for
 * WASI output. Throws exit-2 SoakErrors for input problems.
 */
export async function prepareRawTarget(path, config, stdio) {
  const { bytes, info } = loadModuleFile(path);
  const unresolved = unresolvedImports(info);
  if (unresolved.length > 0) {
    const names = unresolved.map((i) => `${i.module}.${i.name} (${i.kind})`).join(', ');
    throw usageError(
      'WS_EIMPORT',
      `${path} needs imports that a raw target cannot provide: ${names}.`,
      'Raw targets get WASI preview1 only. Write a scenario (an .mjs file whose setup(ctx) instantiates the module with its imports) and run that instead.',
    );
  }
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
        stdout: stdio.stdout,
        stderr: stdio.stderr,
      })
    : null;
  const module = await WebAssembly.compile(bytes);
  const instance = await WebAssembly.instantiate(module, wasi ? wasi.getImportObject() : {});
  if (wasi) wasi.initialize(instance);
  else if (typeof instance.exports._initialize === 'function') instance.exports._initialize();

  const ops = calls.map((c) => {
    const exp = info.exports.find((e) => e.name === c.name);
    return {
      name: c.name,
      weight: c.weight,
      fn: instance.exports[c.name],
      args: argSources(exp, config.args),
      signature: `(${exp.params.join(', ')}) -> (${exp.results.join(', ')})`,
    };
  });
  const needsBuffers = ops.some((op) => op.args.some((a) => a.kind === ARG.buf));
  const allocator = needsBuffers ? findAllocator(instance.exports, info, config.alloc) : {};
  const memoryNames = info.exports.filter((e) => e.kind === 'memory').map((e) => e.name);
  const bufferMemory = Math.max(0, memoryNames.indexOf('memory'));
  if (needsBuffers && memoryNames.length === 0) {
    throw usageError(
      'WS_EMEMORY',
      `${path} exports no memory, so buffer arguments cannot be written.`,
      "Export the module's memory, or drive it from a scenario.",
    );
  }
  return { ops, instance, info, ...allocator, bufferMemory, memoryNames };
}
