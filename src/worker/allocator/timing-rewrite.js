// The time-split pass's rewriter (--time-split, docs/allocator.md, "Where a
// call's time goes"): counts every call of the allocator's entry points
// (found as the counting pass finds them, instrument.js) in wasm globals
// and stamps a random sample of them, 1 in N on average, through a pair of
// imports the host answers with a clock read; stamps every memory.grow and
// every exported function, whose exit stamp passes the counters. Whether an
// allocator call is stamped is decided in wasm, at its outermost entry, by
// a countdown the host's exit stamp sets again: only the sampled calls
// leave wasm. Depth guards count and stamp only the outermost allocator call
// (dlmalloc's realloc calling malloc is one event); nested exports (an
// import that calls back into the module) are left to the host. Also
// builds the calibration module: the same wrappers around empty functions,
// and loops that call them, so that the stamps' own cost is measured in the
// run that pays it.
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

// The hooks a rewritten module imports from HOOK_MODULE: [name, params, result].
// t_alloc_exit(kind, ptr, size, oldPtr) returns the next sample: the
// countdown to it times 2, plus 1 when it is to be a null one
// (t_alloc_enter, then at once t_alloc_exit(NULL_SAMPLE, 0, 0, 0), then the
// allocator's call unstamped: the stamps' own interval, taken where the
// real ones are, through the same host functions); t_export_enter(events)
// and t_export_exit(events, allocations, bytes) pass the counters (COUNTERS).
const HOOKS = {
  allocEnter: ['t_alloc_enter', [], 'none'],
  allocExit: ['t_alloc_exit', ['i32', 'i32', 'i32', 'i32'], 'i32'],
  growEnter: ['t_grow_enter', [], 'none'],
  growExit: ['t_grow_exit', ['i32'], 'none'],
  exportEnter: ['t_export_enter', ['i32'], 'none'],
  exportExit: ['t_export_exit', ['i32', 'i32', 'i32'], 'none'],
};

// The wasm globals of the sampler: the outermost allocator calls since the
// last export exit, of which allocations and reallocations, and the bytes
// they asked for (each export exit passes them and starts them again from
// 0), the countdown to the next sampled call (1: the first is sampled),
// whether that one is to be a null sample, and whether the running one is
// sampled.
/** The kind a null sample's exit stamp passes (the allocator's events are ALLOC_EVENT's, from 1). */
export const NULL_SAMPLE = 0;
const COUNTERS = ['ws$tevents', 'ws$tallocs', 'ws$tbytes'];
// Whether the running call is stamped: a mutable i32 the module imports
// (HOOK_MODULE.ON), which the host sets before each call. At 0 (a control
// call: the host's randomized experiment on the stamps' own cost, where
// the module runs) every allocator and export wrapper calls its function
// and nothing else: no stamp, no count, no countdown. memory.grow stays
// stamped (its time is measured over every call; a grow is rare).
/** The import that says whether the running call is stamped. */
export const ON = 't_on';
const ON_GLOBAL = 'ws$ton';
const LEFT = 'ws$tleft';
const NULL_NEXT = 'ws$tnull';
const SAMPLED = 'ws$tsampled';
const DEPTH = 'ws$tdepth';

/** Adds the hook imports to m, as functions named ws$<hook>, the ON import and the sampler's globals. */
function addHooks(m) {
  for (const [name, params, result] of Object.values(HOOKS)) {
    const type = binaryen.createType(params.map((t) => binaryen[t]));
    m.addFunctionImport(`ws$${name}`, HOOK_MODULE, name, type, binaryen[result]);
  }
  m.addGlobalImport(ON_GLOBAL, HOOK_MODULE, ON, binaryen.i32, true);
  for (const g of [...COUNTERS, NULL_NEXT, SAMPLED, DEPTH]) m.addGlobal(g, binaryen.i32, true, m.i32.const(0));
  m.addGlobal(LEFT, binaryen.i32, true, m.i32.const(1));
}

/** A call of hook (HOOKS' key) with operands. */
const hook = (m, key, operands = []) => m.call(`ws$${HOOKS[key][0]}`, operands, binaryen[HOOKS[key][2]]);
const counters = (m, n = COUNTERS.length) => COUNTERS.slice(0, n).map((g) => m.global.get(g, binaryen.i32));

/**
 * The allocator wrapper's body (an entry point f of findEntryPoints),
 * outermost calls only: at entry, the countdown decides whether this call
 * is sampled (then the enter stamp; a null sample's exit stamp follows at
 * once); the original call; at exit, the counters move (one event; an
 * allocation or reallocation adds the bytes it asked for), and a sampled
 * call's exit stamp passes what the counting pass's event does (kind, ptr,
 * size, oldPtr). Each exit stamp sets the next sample (HOOKS). In a
 * control call (ON at 0) the plain call: nothing counted or stamped.
 */
function allocWrapper(m, { entry, info, params }, origName) {
  const i32 = binaryen.i32;
  const hasResult = info.results !== binaryen.none;
  const r = params.length;
  const get = (g) => m.global.get(g, i32);
  const add = (g, v) => m.global.set(g, m.i32.add(get(g), v));
  const result = () => (hasResult ? m.local.get(r, i32) : m.i32.const(0));
  // Each use builds its own expressions (binaryen's tree holds one parent per expression).
  const event = () => eventOperands(m, entry, result);
  const call = () =>
    m.call(
      origName,
      params.map((t, i) => m.local.get(i, t)),
      info.results,
    );
  // The next sample from what an exit stamp returned (next), through LEFT.
  const next = (stamp) => [
    m.global.set(LEFT, stamp),
    m.global.set(NULL_NEXT, m.i32.and(get(LEFT), m.i32.const(1))),
    m.global.set(LEFT, m.i32.shr_u(get(LEFT), m.i32.const(1))),
  ];
  const count = [add(COUNTERS[0], m.i32.const(1))];
  if (entry.kind !== 'free') count.push(add(COUNTERS[1], m.i32.const(1)), add(COUNTERS[2], event()[2]));
  const enter = m.if(
    m.i32.eqz(get(DEPTH)),
    m.block(null, [
      add(LEFT, m.i32.const(-1)),
      m.if(
        m.i32.eqz(get(LEFT)),
        m.if(
          get(NULL_NEXT),
          m.block(null, [
            hook(m, 'allocEnter'),
            ...next(hook(m, 'allocExit', [m.i32.const(NULL_SAMPLE), m.i32.const(0), m.i32.const(0), m.i32.const(0)])),
          ]),
          m.block(null, [m.global.set(SAMPLED, m.i32.const(1)), hook(m, 'allocEnter')]),
        ),
      ),
    ]),
  );
  const exit = m.if(
    m.i32.eqz(get(DEPTH)),
    m.block(null, [
      ...count,
      m.if(
        get(SAMPLED),
        m.block(null, [m.global.set(SAMPLED, m.i32.const(0)), ...next(hook(m, 'allocExit', event()))]),
      ),
    ]),
  );
  const body = [
    enter,
    add(DEPTH, m.i32.const(1)),
    hasResult ? m.local.set(r, call()) : call(),
    add(DEPTH, m.i32.const(-1)),
    exit,
  ];
  if (hasResult) body.push(result());
  return m.if(get(ON_GLOBAL), m.block(null, body, info.results), call());
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

/**
 * A wrapper of function internal (info: its function info) between the
 * export stamps, which pass the allocator's counters (the exit's then
 * start again from 0); in a control call (ON at 0) the plain call.
 */
function exportWrapper(m, internal, info) {
  const params = binaryen.expandType(info.params);
  const hasResult = info.results !== binaryen.none;
  const call = () =>
    m.call(
      internal,
      params.map((t, i) => m.local.get(i, t)),
      info.results,
    );
  const r = params.length;
  const body = [
    hook(m, 'exportEnter', counters(m, 1)),
    hasResult ? m.local.set(r, call()) : call(),
    hook(m, 'exportExit', counters(m)),
    ...COUNTERS.map((g) => m.global.set(g, m.i32.const(0))),
    ...(hasResult ? [m.local.get(r, info.results)] : []),
  ];
  return m.if(m.global.get(ON_GLOBAL, binaryen.i32), m.block(null, body, info.results), call());
}

// What makes an exported function's time worth its stamps: it calls, loops,
// copies or fills memory, grows it, or throws; or its body is long. Else it
// is a few straight-line instructions (Emscripten's stackSave and
// stackAlloc, a getter) that take nanoseconds, less than the stamps' own
// error, and is not stamped: its time counts as the glue's.
const WORK =
  /\((call|call_indirect|call_ref|return_call|return_call_indirect|return_call_ref|loop|memory\.fill|memory\.copy|memory\.init|memory\.grow|throw|throw_ref|rethrow|try|try_table)\b/;
const SHORT_BODY = 2000; // characters of binaryen's text of the body

/** Whether function info (binaryen's) is defined and does no work worth stamping (WORK). */
function trivial(info) {
  if (info.module !== '') return false;
  const text = binaryen.emitText(info.body);
  return text.length < SHORT_BODY && !WORK.test(text);
}

/**
 * Points every function export of m that does some work (trivial) at a
 * wrapper that stamps its entry and exit (one wrapper per function, whatever
 * its export names); the module's own calls keep calling the function
 * itself. Returns { stamped, trivial }: the functions wrapped and left.
 */
function stampExports(m) {
  const exports = [];
  for (let i = 0; i < m.getNumExports(); i++) {
    const e = binaryen.getExportInfo(m.getExportByIndex(i));
    if (e.kind === binaryen.ExternalFunction) exports.push(e);
  }
  const wrappers = new Map();
  const left = new Set();
  for (const e of exports) {
    if (left.has(e.value)) continue;
    if (!wrappers.has(e.value)) {
      const info = binaryen.getFunctionInfo(m.getFunction(e.value));
      if (trivial(info)) {
        left.add(e.value);
        continue;
      }
      const name = `${e.value}$ws_export`;
      const vars = info.results === binaryen.none ? [] : [info.results];
      m.addFunction(name, info.params, info.results, vars, exportWrapper(m, e.value, info));
      wrappers.set(e.value, name);
    }
    m.removeExport(e.name);
    m.addFunctionExport(wrappers.get(e.value), e.name);
  }
  return { stamped: wrappers.size, trivial: left.size };
}

/**
 * Rewrites bytes (a wasm module) for the time-split pass: the allocator's
 * entry points (glueNames as instrumentAllocator takes them), every
 * memory.grow and every exported function stamped through the imports
 * HOOK_MODULE.t_* (HOOKS), but those that do no work worth stamping
 * (trivial). Returns { bytes, entryPoints, exports, trivialExports } (the
 * entry points' names, the exported functions wrapped and left), or null
 * for a module with a 64-bit memory or neither memory nor exported function.
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
    if (!memory && exports.stamped === 0) return null;
    if (!m.validate()) throw new Error('binaryen rejected the stamped module');
    return {
      bytes: m.emitBinary(),
      entryPoints: found.map((f) => f.name),
      exports: exports.stamped,
      trivialExports: exports.trivial,
    };
  } finally {
    m.dispose();
  }
}

/**
 * The calibration module: functions a (an allocator wrapper around an empty
 * `malloc`), g (an empty function between the grow stamps) and x (an
 * exported empty function between the export stamps), and loops
 * run_plain(n), run_a(n), run_u(n), run_g(n), run_x(n) that call an
 * unstamped empty function, or a (every call sampled while the host's exit
 * stamp returns 2; run_u: none), g, x, n times. Returns its bytes.
 */
export function calibrationModule() {
  const m = new binaryen.Module();
  try {
    m.setFeatures(engineFeatures());
    const i32 = binaryen.i32;
    addHooks(m);
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
    // countdown: the sampler's countdown at the loop's start (null: left as it is).
    const loop = (name, callee, countdown = null) => {
      const n = () => m.local.get(0, i32);
      const body = m.loop(
        'l',
        m.if(n(), m.block(null, [callee, m.local.set(0, m.i32.sub(n(), m.i32.const(1))), m.br('l')])),
      );
      const start = countdown === null ? [] : [m.global.set(LEFT, m.i32.const(countdown))];
      m.addFunction(name, i32, binaryen.none, [], m.block(null, [...start, body]));
      m.addFunctionExport(name, name);
    };
    m.addFunctionExport('x', 'x');
    m.addFunctionExport('empty', 'empty');
    loop('run_plain', m.call('empty', [], binaryen.none));
    // Every call sampled (the host's exit stamp returns 2 while it calibrates: the next call, not null) ...
    loop('run_a', m.drop(m.call('a', [m.i32.const(8)], i32)), 1);
    // ... and none: the cost of the countdown alone.
    loop('run_u', m.drop(m.call('a', [m.i32.const(8)], i32)), 0x7fffffff);
    loop('run_g', m.call('g', [], binaryen.none));
    loop('run_x', m.call('x', [], binaryen.none));
    if (!m.validate()) throw new Error('binaryen rejected the calibration module');
    return m.emitBinary();
  } finally {
    m.dispose();
  }
}
