// The time-split pass's rewriter (--time-split, docs/allocator.md, "Where a
// call's time goes"): stamps the entry and exit of the allocator's entry
// points (found as the counting pass finds them, instrument.js), of every
// memory.grow and of every exported function, each through a pair of
// imports the host answers with a clock read. Depth guards report only the
// outermost allocator call (dlmalloc's realloc calling malloc is one
// stamp); nested exports (an import that calls back into the module) are
// left to the host. Also builds the calibration module: the same three
// wrappers around empty functions, and loops that call them, so that the
// stamps' own cost is measured in the run that pays it.
import {
  engineFeatures,
  eventOperands,
  findEntryPoints,
  HOOK_MODULE,
  hookGrows,
  loadInstrumenter,
} from './instrument.js';

let binaryen = null;

/** Loads binaryen (the rewriter needs it). */
export async function loadTimingRewriter() {
  await loadInstrumenter();
  binaryen ??= await import('../../binaryen.js').then((b) => b.loadBinaryen());
}

// The hooks a rewritten module imports from HOOK_MODULE: [name, params].
const HOOKS = {
  allocEnter: ['t_alloc_enter', []],
  allocExit: ['t_alloc_exit', ['i32', 'i32', 'i32', 'i32']],
  growEnter: ['t_grow_enter', []],
  growExit: ['t_grow_exit', ['i32']],
  exportEnter: ['t_export_enter', []],
  exportExit: ['t_export_exit', []],
};

/** Adds the hook imports to m, as functions named ws$<hook>. */
function addHooks(m) {
  for (const [name, params] of Object.values(HOOKS)) {
    const type = binaryen.createType(params.map((t) => binaryen[t]));
    m.addFunctionImport(`ws$${name}`, HOOK_MODULE, name, type, binaryen.none);
  }
}

/** A call of hook (HOOKS' key) with operands. */
const hook = (m, key, operands = []) => m.call(`ws$${HOOKS[key][0]}`, operands, binaryen.none);

/**
 * The allocator wrapper's body (an entry point f of findEntryPoints): the
 * enter stamp, the original call, the exit stamp with what the counting
 * pass's event passes (kind, ptr, size, oldPtr), outermost calls only.
 */
function allocWrapper(m, { entry, info, params }, origName) {
  const i32 = binaryen.i32;
  const hasResult = info.results !== binaryen.none;
  const r = params.length;
  const depth = () => m.global.get('ws$tdepth', i32);
  const step = (d) => m.global.set('ws$tdepth', m.i32.add(depth(), m.i32.const(d)));
  const result = () => (hasResult ? m.local.get(r, i32) : m.i32.const(0));
  const exit = eventOperands(m, entry, result);
  const call = m.call(
    origName,
    params.map((t, i) => m.local.get(i, t)),
    info.results,
  );
  const body = [
    m.if(m.i32.eqz(depth()), hook(m, 'allocEnter')),
    step(1),
    hasResult ? m.local.set(r, call) : call,
    step(-1),
    m.if(m.i32.eqz(depth()), hook(m, 'allocExit', exit)),
  ];
  if (hasResult) body.push(result());
  return m.block(null, body, info.results);
}

/** Moves function name's body to name$ws_orig and returns its info. */
function moveBody(m, name) {
  const info = binaryen.getFunctionInfo(m.getFunction(name));
  m.addFunction(`${name}$ws_orig`, info.params, info.results, info.vars, info.body);
  m.removeFunction(name);
  return info;
}

/**
 * Wraps each found allocator entry point (findEntryPoints) in place: its
 * name and index stay, so every caller goes through the stamps.
 */
function stampAllocator(m, found) {
  m.addGlobal('ws$tdepth', binaryen.i32, true, m.i32.const(0));
  for (const f of found) {
    moveBody(m, f.internal);
    const vars = f.info.results === binaryen.none ? [] : [binaryen.i32];
    m.addFunction(f.internal, f.info.params, f.info.results, vars, allocWrapper(m, f, `${f.internal}$ws_orig`));
  }
}

/** Stamps every memory.grow (hookGrows): the grow hooks before and after it. */
function stampGrows(m) {
  const i32 = binaryen.i32;
  hookGrows(m, {
    memory_grow_pre: () => m.block(null, [hook(m, 'growEnter'), m.local.get(1, i32)], i32),
    memory_grow_post: () => m.block(null, [hook(m, 'growExit', [m.local.get(1, i32)]), m.local.get(1, i32)], i32),
  });
}

/** A wrapper of function internal (info: its function info) between the export stamps. */
function exportWrapper(m, internal, info) {
  const params = binaryen.expandType(info.params);
  const hasResult = info.results !== binaryen.none;
  const call = m.call(
    internal,
    params.map((t, i) => m.local.get(i, t)),
    info.results,
  );
  const r = params.length;
  const body = [
    hook(m, 'exportEnter'),
    hasResult ? m.local.set(r, call) : call,
    hook(m, 'exportExit'),
    ...(hasResult ? [m.local.get(r, info.results)] : []),
  ];
  return m.block(null, body, info.results);
}

/**
 * Points every function export of m at a wrapper that stamps its entry
 * and exit (one wrapper per function, whatever its export names); the
 * module's own calls keep calling the function itself.
 */
function stampExports(m) {
  const exports = [];
  for (let i = 0; i < m.getNumExports(); i++) {
    const e = binaryen.getExportInfo(m.getExportByIndex(i));
    if (e.kind === binaryen.ExternalFunction) exports.push(e);
  }
  const wrappers = new Map();
  for (const e of exports) {
    if (!wrappers.has(e.value)) {
      const info = binaryen.getFunctionInfo(m.getFunction(e.value));
      const name = `${e.value}$ws_export`;
      const vars = info.results === binaryen.none ? [] : [info.results];
      m.addFunction(name, info.params, info.results, vars, exportWrapper(m, e.value, info));
      wrappers.set(e.value, name);
    }
    m.removeExport(e.name);
    m.addFunctionExport(wrappers.get(e.value), e.name);
  }
  return wrappers.size;
}

/**
 * Rewrites bytes (a wasm module) for the time-split pass: the allocator's
 * entry points (glueNames as instrumentAllocator takes them), every
 * memory.grow and every exported function stamped through the imports
 * HOOK_MODULE.t_* (HOOKS). Returns { bytes, entryPoints, exports } (the
 * entry points' names, the exported functions wrapped), or null for a
 * module with a 64-bit memory or neither memory nor exported function.
 */
export function stampModule(bytes, glueNames = new Map()) {
  const m = binaryen.readBinary(bytes);
  try {
    m.setFeatures(engineFeatures());
    const memory = m.hasMemory() ? m.getMemoryInfo() : null;
    if (memory?.is64) return null;
    const found = findEntryPoints(m, glueNames);
    addHooks(m);
    stampAllocator(m, found);
    if (memory) stampGrows(m);
    const exports = stampExports(m);
    if (!memory && exports === 0) return null;
    if (!m.validate()) throw new Error('binaryen rejected the stamped module');
    return { bytes: m.emitBinary(), entryPoints: found.map((f) => f.name), exports };
  } finally {
    m.dispose();
  }
}

/**
 * The calibration module: functions a (an allocator wrapper around an empty
 * `malloc`), g (an empty function between the grow stamps) and x (an
 * exported empty function between the export stamps), and loops
 * run_plain(n), run_a(n), run_g(n), run_x(n) that call an unstamped empty
 * function, or a, g, x, n times. Returns its bytes.
 */
export function calibrationModule() {
  const m = new binaryen.Module();
  try {
    m.setFeatures(engineFeatures());
    const i32 = binaryen.i32;
    addHooks(m);
    m.addGlobal('ws$tdepth', i32, true, m.i32.const(0));
    m.addFunction('empty', binaryen.none, binaryen.none, [], m.nop());
    // An empty allocator: returns 0 for any size, wrapped as the pass wraps malloc.
    m.addFunction('malloc$ws_orig', i32, i32, [], m.local.get(0, i32));
    const f = { entry: { kind: 'alloc', size: 0 }, info: { params: i32, results: i32 }, params: [i32] };
    m.addFunction('a', i32, i32, [i32], allocWrapper(m, f, 'malloc$ws_orig'));
    m.addFunction(
      'g',
      binaryen.none,
      binaryen.none,
      [],
      m.block(null, [hook(m, 'growEnter'), hook(m, 'growExit', [m.i32.const(0)])]),
    );
    m.addFunction(
      'x',
      binaryen.none,
      binaryen.none,
      [],
      exportWrapper(m, 'empty', { params: binaryen.none, results: binaryen.none }),
    );
    const loop = (name, callee) => {
      const n = () => m.local.get(0, i32);
      const body = m.loop(
        'l',
        m.if(n(), m.block(null, [callee, m.local.set(0, m.i32.sub(n(), m.i32.const(1))), m.br('l')])),
      );
      m.addFunction(name, i32, binaryen.none, [], body);
      m.addFunctionExport(name, name);
    };
    loop('run_plain', m.call('empty', [], binaryen.none));
    loop('run_a', m.drop(m.call('a', [m.i32.const(8)], i32)));
    loop('run_g', m.call('g', [], binaryen.none));
    loop('run_x', m.call('x', [], binaryen.none));
    if (!m.validate()) throw new Error('binaryen rejected the calibration module');
    return m.emitBinary();
  } finally {
    m.dispose();
  }
}
