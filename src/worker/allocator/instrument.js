// The counting pass's rewriter: wraps a module's allocator entry points with
// binaryen so that every allocation and free is reported to the host. Found
// by export name or by the name section; an entry point whose body only
// calls another function with its own arguments (wasi-libc's exported
// `malloc` forwarding to dlmalloc in a stripped build) is followed to that
// callee, so the module's internal callers are counted too. Boundary
// wrappers (wasm-bindgen's `__wbindgen_*`) give way to the allocator they
// call (behind-boundary.js) when it is found; else they are wrapped but do
// not make the pass complete: memory they hand out is freed inside the
// module through the allocator itself. Each wrapped function keeps its name
// and index (its body moves to a new function it now calls), so internal
// callers, exports and tables all go through the wrapper; a depth guard
// reports only the outermost call (dlmalloc's realloc calling malloc counts
// once). Every memory.grow instruction is counted too (countGrows): one that
// returns -1 is reported with the pages it asked for.
import { loadBinaryen } from '../../binaryen.js';
import { ALLOC_EVENT as EVENT, SITE_FRAMES } from '../../protocol.js';
import { behindBoundary } from './behind-boundary.js';
import { addFrames, frameValues } from './frames.js';

// binaryen loads when a counting pass starts (loadInstrumenter), never before.
let binaryen = null;

/** Loads binaryen; instrumentAllocator needs it. Throws its SoakError when it is not installed. */
export async function loadInstrumenter() {
  binaryen ??= await loadBinaryen();
}

export const HOOK_MODULE = 'wasm_soak';

// Argument positions of each entry point: size = bytes requested (n * size
// for calloc), ptr = block freed or reallocated, out = where posix_memalign
// stores the new pointer.
const ENTRY_POINTS = {
  malloc: { kind: 'alloc', size: 0 },
  dlmalloc: { kind: 'alloc', size: 0 },
  calloc: { kind: 'calloc', n: 0, size: 1 },
  dlcalloc: { kind: 'calloc', n: 0, size: 1 },
  realloc: { kind: 'realloc', ptr: 0, size: 1 },
  dlrealloc: { kind: 'realloc', ptr: 0, size: 1 },
  free: { kind: 'free', ptr: 0 },
  dlfree: { kind: 'free', ptr: 0 },
  aligned_alloc: { kind: 'alloc', size: 1 },
  memalign: { kind: 'alloc', size: 1 },
  dlmemalign: { kind: 'alloc', size: 1 },
  posix_memalign: { kind: 'memalign', out: 0, size: 2 },
  dlposix_memalign: { kind: 'memalign', out: 0, size: 2 },
  __rust_alloc: { kind: 'alloc', size: 0 },
  __rust_alloc_zeroed: { kind: 'alloc', size: 0 },
  __rust_dealloc: { kind: 'free', ptr: 0 },
  __rust_realloc: { kind: 'realloc', ptr: 0, size: 3 },
  __wbindgen_malloc: { kind: 'alloc', size: 0, boundary: true },
  __wbindgen_free: { kind: 'free', ptr: 0, boundary: true },
  __wbindgen_realloc: { kind: 'realloc', ptr: 0, size: 2, boundary: true },
};

// How many forwarders deep an entry point is followed.
const MAX_FORWARDS = 4;

// The post-MVP features Node 20's V8 runs without flags: the rewriter may
// read, validate and write them, and writes nothing newer (binaryen's
// Features.All would also allow encodings V8 cannot load, e.g. compact
// imports).
const ENGINE_FEATURES = [
  'Atomics',
  'MutableGlobals',
  'NontrappingFPToInt',
  'SIMD128',
  'BulkMemory',
  'BulkMemoryOpt',
  'CallIndirectOverlong',
  'SignExt',
  'ExceptionHandling',
  'TailCall',
  'ReferenceTypes',
  'Multivalue',
  'ExtendedConst',
];

/** ENGINE_FEATURES as binaryen's feature mask (binaryen loaded). */
export const engineFeatures = () =>
  ENGINE_FEATURES.reduce((all, name) => all | binaryen.Features[name], binaryen.Features.MVP);

/** Internal function names of exports, so `_malloc` exported as "malloc" is found. */
function exportedFunctions(module) {
  const out = new Map();
  for (let i = 0; i < module.getNumExports(); i++) {
    const e = binaryen.getExportInfo(module.getExportByIndex(i));
    if (e.kind === binaryen.ExternalFunction) out.set(e.name, e.value);
  }
  return out;
}

/**
 * The function internal forwards to: the callee when its body is only a
 * call (in a block or a return, perhaps) passing its own parameters in order
 * to a defined function of the same signature; else null.
 */
export function forwardTarget(module, internal) {
  const info = binaryen.getFunctionInfo(module.getFunction(internal));
  let e = binaryen.getExpressionInfo(info.body);
  while ((e.id === binaryen.BlockId && e.children.length === 1) || (e.id === binaryen.ReturnId && e.value)) {
    e = binaryen.getExpressionInfo(e.id === binaryen.BlockId ? e.children[0] : e.value);
  }
  if (e.id !== binaryen.CallId) return null;
  const nparams = binaryen.expandType(info.params).length;
  if (e.operands.length !== nparams) return null;
  for (let i = 0; i < nparams; i++) {
    const op = binaryen.getExpressionInfo(e.operands[i]);
    if (op.id !== binaryen.LocalGetId || op.index !== i) return null;
  }
  const callee = binaryen.getFunctionInfo(module.getFunction(e.target));
  if (callee.module !== '' || callee.params !== info.params || callee.results !== info.results) return null;
  return e.target;
}

/**
 * The functions to wrap: [{ internal, entry, name, how }], by export name,
 * then by name section, then by the export the JS glue binds to the name
 * (glueNames: export name -> entry name), each followed through forwarders
 * to a function not found under a name of its own.
 */
export function findEntryPoints(module, glueNames) {
  const exported = exportedFunctions(module);
  const glued = new Map();
  for (const [exportName, name] of glueNames) if (exported.has(exportName)) glued.set(name, exportName);
  let named = [];
  for (const [name, entry] of Object.entries(ENTRY_POINTS)) {
    const byExport = exported.get(name);
    const byGlue = glued.has(name) ? exported.get(glued.get(name)) : undefined;
    const internal = byExport ?? (module.getFunction(name) ? name : null) ?? byGlue;
    if (!internal) continue;
    let how = 'name section';
    if (byExport) how = 'export';
    else if (internal === byGlue)
      how = `export "${glued.get(name)}", bound to ${name.startsWith('__') ? name : `_${name}`} by the JS glue`;
    named.push({ internal, entry, name, how });
  }
  // A boundary wrapper gives way to the allocator behind it, when that is found.
  const { behind, replaced } = behindBoundary(binaryen, module, named);
  named = [...named.filter((n) => !replaced.has(n.internal)), ...behind];
  const taken = new Set(named.map((n) => n.internal));
  const found = new Map();
  for (const candidate of named) {
    let { internal, how } = candidate;
    const chain = [internal];
    let hops = 0;
    for (let next = forwardTarget(module, internal); next && !taken.has(next) && hops < MAX_FORWARDS; hops++) {
      internal = next;
      chain.push(next);
      how = `${how}, forwarding to function ${next}`;
      next = forwardTarget(module, internal);
    }
    if (found.has(internal)) continue;
    const info = binaryen.getFunctionInfo(module.getFunction(internal));
    if (info.module !== '') continue; // an import: nothing to wrap
    const params = binaryen.expandType(info.params);
    const { entry } = candidate;
    const needed = Math.max(entry.size ?? 0, entry.ptr ?? 0, entry.n ?? 0, entry.out ?? 0);
    if (params.length <= needed || params.some((t) => t !== binaryen.i32)) continue;
    // A boundary wrapper that only forwards has led to the allocator itself.
    const boundary = Boolean(candidate.entry.boundary) && hops === 0;
    found.set(internal, { ...candidate, internal, how, boundary, info, params, chain });
  }
  return [...found.values()];
}

/**
 * Whether wrapped entry points cover the allocator's core: { complete,
 * noRealloc }. Complete: some allocation and some free path that is not a
 * boundary wrapper; and, for an allocator found behind boundary wrappers,
 * its realloc (behind-boundary.js: a block that an unseen realloc moves
 * would stay live in the counts). noRealloc: such an allocator's allocation
 * and free were found, its realloc not.
 */
export function coversCore(found) {
  const core = found.filter((f) => !f.boundary).map((f) => f.entry.kind);
  const allocates = core.some((k) => k !== 'free');
  const frees = core.some((k) => k === 'free' || k === 'realloc');
  const noRealloc = found.some((f) => f.behind) && !core.includes('realloc');
  return { complete: allocates && frees && !noRealloc, noRealloc: allocates && frees && noRealloc };
}

/**
 * The operands (kind, ptr, size, oldPtr) of the event an entry point's
 * wrapper reports after its call, as expressions of module m (binaryen
 * loaded); result() reads the call's result. binaryen expression
 * references are numbers too, so every operand is built explicitly.
 */
export function eventOperands(m, entry, result) {
  const arg = (i) => m.local.get(i, binaryen.i32);
  const zero = () => m.i32.const(0);
  if (entry.kind === 'alloc') return [m.i32.const(EVENT.alloc), result(), arg(entry.size), zero()];
  if (entry.kind === 'calloc')
    return [m.i32.const(EVENT.alloc), result(), m.i32.mul(arg(entry.n), arg(entry.size)), zero()];
  if (entry.kind === 'realloc') return [m.i32.const(EVENT.realloc), result(), arg(entry.size), arg(entry.ptr)];
  if (entry.kind === 'free') return [m.i32.const(EVENT.free), arg(entry.ptr), zero(), zero()];
  return [
    m.i32.const(EVENT.alloc),
    m.if(m.i32.eqz(result()), m.i32.load(0, 4, arg(entry.out)), zero()),
    arg(entry.size),
    zero(),
  ];
}

/**
 * Builds the wrapper body of one entry point; with sites, its event also
 * passes the frame globals (frames.js).
 */
function wrapperBody(m, { entry, info, params }, origName, sites) {
  const args = params.map((t, i) => m.local.get(i, t));
  const resultType = info.results;
  const hasResult = resultType !== binaryen.none;
  const r = params.length; // the wrapper's one extra local: the result
  const depth = (delta) =>
    m.global.set('ws$depth', m.i32.add(m.global.get('ws$depth', binaryen.i32), m.i32.const(delta)));
  const result = () => m.local.get(r, binaryen.i32);
  const event = eventOperands(m, entry, result);
  if (sites) event.push(...frameValues(binaryen, m));
  const call = m.call(origName, args, resultType);
  const body = [
    depth(1),
    hasResult ? m.local.set(r, call) : call,
    depth(-1),
    m.if(m.i32.eqz(m.global.get('ws$depth', binaryen.i32)), m.call('ws$event', event, binaryen.none)),
  ];
  if (hasResult) body.push(result());
  return m.block(null, body, resultType);
}

/**
 * Whether m imports anything (a function, global, memory or table; binaryen
 * lists no tags by index): a module that imports nothing may be
 * instantiated without an import object, so its rewrite's hooks are then
 * its whole import object.
 */
function importsAnything(m) {
  const imported = (n, byIndex, infoOf) => {
    for (let i = 0; i < n; i++) if (infoOf(byIndex(i)).module) return true;
    return false;
  };
  return (
    imported(m.getNumFunctions(), (i) => m.getFunctionByIndex(i), binaryen.getFunctionInfo) ||
    imported(m.getNumGlobals(), (i) => m.getGlobalByIndex(i), binaryen.getGlobalInfo) ||
    imported(m.getNumTables(), (i) => m.getTableByIndex(i), binaryen.getTableInfo) ||
    Boolean(m.hasMemory() && m.getMemoryInfo().module)
  );
}

/** The names of m's functions, imports included. */
function functionNames(m) {
  const names = [];
  for (let i = 0; i < m.getNumFunctions(); i++) names.push(binaryen.getFunctionInfo(m.getFunctionByIndex(i)).name);
  return names;
}

/**
 * Hooks every memory.grow of m: binaryen's instrument-memory pass, limited
 * by its pass argument to memory.grow (it would otherwise hook every load
 * and store), wraps each grow in calls to the imports memory_grow_pre(id,
 * delta) -> delta and memory_grow_post(id, result) -> result; those become
 * functions of the module whose bodies bodies.memory_grow_pre() and
 * bodies.memory_grow_post() build. The pass's other hook imports (loads,
 * stores) are left unused and removed.
 */
export function hookGrows(m, bodies) {
  const before = new Set(functionNames(m));
  binaryen.setPassArgument('instrument-memory', 'memory.grow');
  try {
    m.runPasses(['instrument-memory']);
  } finally {
    binaryen.setPassArgument('instrument-memory', null);
  }
  for (const name of functionNames(m)) {
    if (before.has(name)) continue;
    const info = binaryen.getFunctionInfo(m.getFunction(name));
    if (info.module === '' || info.module === HOOK_MODULE) continue;
    m.removeFunction(name);
    const body = bodies[info.base];
    if (body) m.addFunction(name, info.params, info.results, [], body());
  }
}

/**
 * Makes every memory.grow of m report a failure (-1) to the import
 * wasm_soak.grow_failed(deltaPages, pages), the result unchanged (hookGrows):
 * pre keeps the delta in a global, post calls the host only on -1, so a
 * grow that succeeds costs two direct calls and no host call.
 */
function countGrows(m) {
  const i32 = binaryen.i32;
  const pair = binaryen.createType([i32, i32]);
  m.addGlobal('ws$grow_delta', i32, true, m.i32.const(0));
  m.addFunctionImport('ws$grow_failed', HOOK_MODULE, 'grow_failed', pair, binaryen.none);
  hookGrows(m, {
    memory_grow_pre: () =>
      m.block(null, [m.global.set('ws$grow_delta', m.local.get(1, i32)), m.local.get(1, i32)], i32),
    memory_grow_post: () =>
      m.block(
        null,
        [
          m.if(
            m.i32.eq(m.local.get(1, i32), m.i32.const(-1)),
            m.call('ws$grow_failed', [m.global.get('ws$grow_delta', i32), m.memory.size()], binaryen.none),
          ),
          m.local.get(1, i32),
        ],
        i32,
      ),
  });
}

/**
 * Rewrites bytes (a wasm module) so that its allocator reports to the import
 * wasm_soak.event(kind, ptr, size, oldPtr); glueNames maps minified export
 * names to the entry points the module's JS glue binds them to
 * (glue-names.js), and every memory.grow to wasm_soak.grow_failed (countGrows).
 * Returns { bytes, entryPoints, found, complete, noRealloc, behind,
 * growMaximumPages, ownImports }: the names wrapped, how each was found ("export",
 * "name section", the forwarders followed, the allocator behind a boundary
 * wrapper), whether they cover the allocator's core and whether only a
 * realloc lacks (coversCore), whether any was found
 * behind a boundary wrapper (behind-boundary.js: inferred from the code, so
 * the counting pass checks its frees against it), the memory's
 * declared maximum in pages (0: none) and whether the module imported
 * anything before the rewrite (importsAnything); or
 * null when the module has neither an allocator entry point to wrap nor a
 * memory (or uses a 64-bit memory). With sites, every event also carries
 * the SITE_FRAMES innermost frames (frames.js) and the result says how many
 * functions keep them (framed). The features the engine runs are
 * enabled (ENGINE_FEATURES), so a module using exceptions, SIMD or bulk
 * memory validates; they exclude multi-memory, so a module has one memory
 * at most.
 */
export function instrumentAllocator(bytes, glueNames = new Map(), { sites = false } = {}) {
  const m = binaryen.readBinary(bytes);
  try {
    const indexOf = new Map(functionNames(m).map((name, i) => [name, i]));
    m.setFeatures(engineFeatures());
    const memory = m.hasMemory() ? m.getMemoryInfo() : null;
    if (memory?.is64) return null;
    const ownImports = importsAnything(m);
    const found = findEntryPoints(m, glueNames);
    if (found.length === 0 && !memory) return null;
    if (memory) countGrows(m);
    m.addGlobal('ws$depth', binaryen.i32, true, m.i32.const(0));
    const framed =
      sites && found.length > 0
        ? addFrames(binaryen, m, {
            targets: found.map((f) => f.internal),
            skip: new Set(found.flatMap((f) => f.chain)),
            indexOf,
          })
        : 0;
    const eventArgs = 4 + (sites ? SITE_FRAMES : 0);
    m.addFunctionImport(
      'ws$event',
      HOOK_MODULE,
      'event',
      binaryen.createType(Array(eventArgs).fill(binaryen.i32)),
      binaryen.none,
    );
    for (const f of found) {
      const origName = `${f.internal}$ws_orig`;
      m.addFunction(origName, f.info.params, f.info.results, f.info.vars, f.info.body);
      m.removeFunction(f.internal);
      const vars = f.info.results === binaryen.none ? [] : [binaryen.i32];
      m.addFunction(f.internal, f.info.params, f.info.results, vars, wrapperBody(m, f, origName, sites));
    }
    if (!m.validate()) throw new Error('binaryen rejected the instrumented module');
    return {
      bytes: m.emitBinary(),
      entryPoints: found.map((f) => f.name),
      found: found.map((f) => ({ name: f.name, how: f.how })),
      ...coversCore(found),
      behind: found.some((f) => f.behind),
      growMaximumPages: memory?.max ?? 0,
      framed,
      ownImports,
    };
  } finally {
    m.dispose();
  }
}
