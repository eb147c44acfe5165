// The allocator behind a boundary wrapper: wasm-bindgen's __wbindgen_malloc,
// __wbindgen_free and __wbindgen_realloc check the layout, handle size 0 and
// call the allocator that Rust's own code calls too (__rust_alloc and
// friends, inlined or not: no name survives in a stripped build). The callee
// a wrapper passes its own size (or pointer) to is that allocator; wrapping
// it instead of the wrapper counts the module's allocations with their sites.
// A realloc is found too when the wrappers do not lead to one (a build
// without __wbindgen_realloc): the function that allocates its size with the
// allocator, copies from its pointer and frees that pointer with the free
// behind __wbindgen_free. Without it a block that Rust's realloc moves would
// stay live in the counts, so a pass without one is not complete.
import { walkExpressions } from './frames.js';

// A callee behind a wrapper is the allocator when this many functions call
// it: the wrapper and at least two others (the module's own code shares the
// allocator: in @jsquash/png 3.1.1, 18 and 28 of 214 functions call the
// malloc and free behind the wrappers; in lz4-wasm-nodejs 0.9.2, 6 and 8 of
// 101), where a slow path outlined from the wrapper has the wrapper alone.
export const MIN_CALLERS = 3;
// How many calls deep the allocator's own functions are followed (from
// __rust_dealloc to dlmalloc's free), to recognise the realloc that calls them.
const MAX_DEPTH = 4;

// The arguments of each kind that the callee must be passed, by the name of
// the entry point's argument position (instrument.js ENTRY_POINTS).
const KEYS = { alloc: ['size'], free: ['ptr'], realloc: ['ptr', 'size'] };
const NAMES = { alloc: 'malloc', free: 'free', realloc: 'realloc' };
const WORDS = { alloc: 'its size', free: 'its pointer', realloc: 'its pointer and new size' };

/**
 * What each defined function of m (binaryen b) is and calls: Map name -> {
 * nparams, allI32 (every parameter an i32), result (binaryen type), calls:
 * [{ target, args, kept }] (args[k]: the parameter passed as operand k, or
 * -1 for any other expression; kept: the same, -1 also for a parameter the
 * function assigns), copiesFrom: Set of parameters that a copy reads
 * from (memory.copy's source, or the second operand of a three-operand
 * call: memcpy(dst, src, n)), stores (it writes memory) }, and callers:
 * Map name -> Set of the functions that call it directly.
 */
function scan(b, m) {
  const functions = new Map();
  const callers = new Map();
  for (let i = 0; i < m.getNumFunctions(); i++) {
    const info = b.getFunctionInfo(m.getFunctionByIndex(i));
    if (info.module !== '') continue;
    const params = b.expandType(info.params);
    // A parameter the function assigns may no longer hold what it was
    // passed (dlmalloc's free turns its pointer into the chunk's).
    const assigned = new Set();
    walkExpressions(b, info.body, (id, e) => {
      if (id === b.LocalSetId && e.index < params.length) assigned.add(e.index);
    });
    const param = (e) => {
      const op = b.getExpressionInfo(e);
      return op.id === b.LocalGetId && op.index < params.length ? op.index : -1;
    };
    const f = { nparams: params.length, allI32: params.every((t) => t === b.i32), result: info.results };
    f.calls = [];
    f.copiesFrom = new Set();
    f.stores = false;
    walkExpressions(b, info.body, (id, e) => {
      if (id === b.StoreId) f.stores = true;
      if (id === b.CallId) {
        const args = e.operands.map(param);
        const kept = args.map((a) => (assigned.has(a) ? -1 : a));
        f.calls.push({ target: e.target, args, kept });
        if (args.length === 3 && args[1] >= 0) f.copiesFrom.add(args[1]);
        if (!callers.has(e.target)) callers.set(e.target, new Set());
        callers.get(e.target).add(info.name);
      } else if (id === b.MemoryCopyId && param(e.source) >= 0) f.copiesFrom.add(param(e.source));
    });
    functions.set(info.name, f);
  }
  return { functions, callers };
}

/** Whether function f (scan's) has the signature of an entry of kind: i32 parameters, an i32 result but for free. */
const fits = (b, f, kind) => f?.allI32 && (kind === 'free' ? f.result === b.none : f.result === b.i32);

/**
 * The calls in caller (scan's) that pass every one of its parameters named
 * by keys ({ size: 0 }: parameter 0 as the size) to a defined callee of
 * kind's signature: [{ target, at }] where at maps each key to the
 * callee's argument position.
 */
function callsPassing(b, functions, caller, kind, keys, strict = false) {
  const out = [];
  for (const c of caller.calls) {
    if (!fits(b, functions.get(c.target), kind) || out.some((o) => o.target === c.target)) continue;
    const at = {};
    const args = strict ? c.kept : c.args;
    for (const [key, param] of Object.entries(keys)) at[key] = args.indexOf(param);
    if (Object.values(at).every((p) => p >= 0)) out.push({ target: c.target, at });
  }
  return out;
}

/** The arguments of entry (an ENTRY_POINTS value) that kind's callee must be passed: { key: position }. */
const keysOf = (entry) => Object.fromEntries(KEYS[entry.kind].map((k) => [k, entry[k]]));

/**
 * The functions the allocator's entries (Map name -> keys) pass the same
 * argument on to, MAX_DEPTH calls deep, entries included: Map name -> keys.
 * strict: only a parameter the passing function never assigns (callsPassing).
 */
function deeper(b, functions, entries, kind, strict = false) {
  const out = new Map(entries);
  let level = [...entries];
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0; depth++) {
    const next = [];
    for (const [name, keys] of level) {
      for (const { target, at } of callsPassing(b, functions, functions.get(name), kind, keys, strict)) {
        if (out.has(target)) continue;
        out.set(target, at);
        next.push([target, at]);
      }
    }
    level = next;
  }
  return out;
}

/**
 * Whether function f (scan's), reached from the allocator's entries
 * (deeper's map reached), can be part of the allocator: it writes memory
 * (an allocator keeps its books there) or passes on to another function
 * reached. A function that only reads, such as the layout check loro-crdt's
 * dlmalloc build runs before every free, is no allocator: wrapped as a free,
 * it would report each free twice.
 */
const allocates = (f, reached) => f.stores || f.calls.some((c) => reached.has(c.target));

/**
 * The realloc of the allocator whose allocating functions are allocs and
 * freeing ones frees (deeper's maps): the functions, none of those nor a
 * wrapper, that take i32s and return one, pass one of their parameters to
 * a free and another to an alloc, and copy from the first: [{ internal,
 * entry: { kind: 'realloc', ptr, size }, via }] (via: the alloc and the free
 * they call).
 */
function reallocsOf(b, functions, allocs, frees, skip) {
  const out = [];
  for (const [name, f] of functions) {
    if (skip.has(name) || allocs.has(name) || frees.has(name) || !fits(b, f, 'realloc') || f.nparams < 2) continue;
    let ptr = -1;
    let size = -1;
    const via = {};
    for (const c of f.calls) {
      const freed = frees.get(c.target)?.ptr;
      if (freed !== undefined && f.copiesFrom.has(c.args[freed])) [ptr, via.free] = [c.args[freed], c.target];
      const sized = allocs.get(c.target)?.size;
      if (sized !== undefined && c.args[sized] >= 0) [size, via.alloc] = [c.args[sized], c.target];
    }
    if (ptr >= 0 && size >= 0 && ptr !== size) out.push({ internal: name, entry: { kind: 'realloc', ptr, size }, via });
  }
  return out;
}

/**
 * The allocator behind the boundary wrappers among named (findEntryPoints's
 * candidates: { internal, entry, name, how }) in m (binaryen b): for each
 * wrapper, the defined callees it passes its own size or pointer to (of the
 * wrapper's kind's signature, called from MIN_CALLERS functions at least),
 * as candidates of their own ({ internal, entry, name, how, behind: true },
 * entry's positions mapped from the call found), the functions those pass
 * it on to (deeper, strict, allocates), and, when no wrapper led
 * to a realloc, every function that allocates and frees with those as a
 * realloc does (reallocsOf: __rust_realloc and dlmalloc's realloc, or its
 * copies inlined into callers; nested ones report once, by the depth guard,
 * and one that is no realloc after all leaves frees unmatched, which the
 * analysis checks). Returns { behind, replaced }:
 * those candidates, and the set of wrappers (internal names) they replace.
 */
export function behindBoundary(b, m, named) {
  const wrappers = named.filter((n) => n.entry.boundary);
  const behind = [];
  const replaced = new Set();
  if (wrappers.length === 0) return { behind, replaced };
  const { functions, callers } = scan(b, m);
  const skip = new Set(wrappers.map((w) => w.internal));
  const byKind = { alloc: new Map(), free: new Map(), realloc: new Map() };
  for (const w of wrappers) {
    const { kind } = w.entry;
    const where = w.how === 'export' ? `export "${w.name}"` : `"${w.name}" (${w.how})`;
    for (const { target, at } of callsPassing(b, functions, functions.get(w.internal), kind, keysOf(w.entry))) {
      if (skip.has(target) || (callers.get(target)?.size ?? 0) < MIN_CALLERS) continue;
      const how = `${where}, calling function ${target} with ${WORDS[kind]}`;
      behind.push({ internal: target, entry: { kind, ...at }, name: w.name, how, behind: true });
      byKind[kind].set(target, at);
      replaced.add(w.internal);
    }
  }
  // What those pass the same size or pointer on to, through parameters
  // they never assign (__rust_alloc to __rdl_alloc to dlmalloc's malloc and
  // memalign; __rust_dealloc to dlmalloc's free), is the allocator too, and
  // the module's own code reaches it by other paths (__rust_alloc_zeroed,
  // __rust_dealloc inlined): wrapped as well (allocates), the depth guard
  // reports a nested call once.
  for (const kind of ['alloc', 'free', 'realloc']) {
    const reached = deeper(b, functions, byKind[kind], kind, true);
    for (const [target, at] of reached) {
      if (byKind[kind].has(target) || skip.has(target) || !allocates(functions.get(target), reached)) continue;
      const how = `the allocator behind the wrappers, passing ${WORDS[kind]} on to function ${target}`;
      behind.push({ internal: target, entry: { kind, ...at }, name: NAMES[kind], how, behind: true });
    }
  }
  if (byKind.realloc.size > 0 || byKind.alloc.size === 0 || byKind.free.size === 0) return { behind, replaced };
  const allocs = deeper(b, functions, byKind.alloc, 'alloc');
  const frees = deeper(b, functions, byKind.free, 'free');
  for (const { internal, entry, via } of reallocsOf(b, functions, allocs, frees, skip)) {
    const how = `a realloc: function ${internal} allocates its argument ${entry.size} with function ${via.alloc}, copies from its argument ${entry.ptr} and frees it with function ${via.free}, the allocator behind the wrappers`;
    behind.push({ internal, entry, name: 'realloc', how, behind: true });
  }
  return { behind, replaced };
}
