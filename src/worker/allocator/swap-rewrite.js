// The allocator swap's rewriter (--time-split, docs/allocator.md, "The
// allocator swapped for a bump allocator"): the module's allocator entry
// points (found as the counting pass finds them, instrument.js) hand out
// blocks from a bump allocator while the host says so (the op running has
// not been seen keeping a block past its call), and go to the module's own
// allocator otherwise. The host numbers each call (b_epoch); the first
// allocator call of a new one settles the last: a block of the region still
// live then was kept, the mark is raised past it and the host hears of it
// (b_kept). The bump allocator owns one region, taken once from
// the module's own allocator at its first use: an allocation moves the top
// (a 16-byte header holding the size, 16-byte alignment), a free takes the
// block off the live count and, when none is left, moves the top back to
// the mark; a reallocation moves the top and copies; calloc's block is
// zeroed. Blocks in the region are always the bump allocator's, whichever op
// frees them; an allocation the region cannot hold, or one asking for more
// than 16-byte alignment, goes to the module's own allocator. Its state is
// in the module's own globals; the host sets the call's number in one it
// imports (b_epoch) and hears of the region, of kept blocks and of
// allocations the region could not hold through imports (SWAP_IMPORTS).

import { inspectModule } from '../targets/wasm-info.js';
import {
  coversCore,
  engineFeatures,
  findEntryPoints,
  forwardTarget,
  HOOK_MODULE,
  loadInstrumenter,
} from './instrument.js';

let binaryen = null;

/** Loads binaryen (the rewriter needs it). */
export async function loadSwapRewriter() {
  await loadInstrumenter();
  binaryen ??= await import('../../binaryen.js').then((b) => b.loadBinaryen());
}

/**
 * What the rewritten module imports from HOOK_MODULE: the mutable i32
 * global b_epoch (the host sets it before each call: its number times 2,
 * plus 1 when the bump allocator is to hand out blocks in it), and the
 * functions b_kept(call) (that call kept blocks of the region past its
 * end), b_region(start) (the region taken at start, 0: the module's
 * allocator had none to give) and b_over() (an allocation the region could
 * not hold).
 */
export const SWAP_IMPORTS = { epoch: 'b_epoch', kept: 'b_kept', region: 'b_region', over: 'b_over' };
// A block's header: its size, the payload 16-byte aligned after it.
const HEADER = 16;
const ALIGN = 16;

/**
 * Rewrites bytes (a wasm module) for the swap pass: every allocator entry
 * point found (glueNames as instrumentAllocator takes them) routes to the
 * bump allocator, whose region holds regionBytes. Returns { bytes,
 * entryPoints }, or null when the swap cannot be made safely: no memory or
 * a 64-bit one, no allocator, one whose core is not all found (a block the
 * bump allocator handed out must never reach the module's own allocator),
 * found only through boundary wrappers, or without a realloc in a module
 * whose functions are not named (one may be there, unseen).
 * Long: one builder per kind of entry point.
 */
export function swapModule(bytes, glueNames, regionBytes) {
  const m = binaryen.readBinary(bytes);
  try {
    m.setFeatures(engineFeatures());
    if (!m.hasMemory() || m.getMemoryInfo().is64) return null;
    const all = findEntryPoints(m, glueNames);
    if (all.length === 0 || !coversCore(all).complete || all.some((f) => f.boundary)) return null;
    // A realloc not found would be handed a block of the region: one must be
    // found, or the functions named (a name section) with none among them.
    const named = inspectModule(bytes).custom.some((c) => c.name === 'name');
    if (!named && !all.some((f) => f.entry.kind === 'realloc')) return null;
    // An entry point that only forwards to another (wasi-libc's malloc to
    // dlmalloc) is left as it is: the one it calls is routed.
    const routedNames = new Set(all.map((f) => f.internal));
    const found = all.filter((f) => !routedNames.has(forwardTarget(m, f.internal)));
    const allocator = found.find((f) => f.entry.kind === 'alloc');
    if (!allocator) return null;
    const i32 = binaryen.i32;
    const get = (g) => m.global.get(g, i32);
    const set = (g, v) => m.global.set(g, v);
    const c = (v) => m.i32.const(v);
    m.addGlobalImport('ws$b_epoch', HOOK_MODULE, SWAP_IMPORTS.epoch, i32, true);
    m.addFunctionImport('ws$b_kept', HOOK_MODULE, SWAP_IMPORTS.kept, i32, binaryen.none);
    m.addFunctionImport('ws$b_region', HOOK_MODULE, SWAP_IMPORTS.region, i32, binaryen.none);
    m.addFunctionImport('ws$b_over', HOOK_MODULE, SWAP_IMPORTS.over, binaryen.none, binaryen.none);
    // live: blocks of the region not freed; top; mark: where the top goes back
    // to, raised past blocks a call kept; start, end: the region (start 0: not
    // taken yet, -1: none to take); seen: the epoch of the last allocator call.
    const G = { epoch: 'ws$b_epoch' };
    for (const name of ['live', 'top', 'mark', 'start', 'end', 'seen']) {
      G[name] = `ws$b_${name}`;
      m.addGlobal(G[name], i32, true, c(0));
    }
    m.addGlobal('ws$bdepth', i32, true, c(0));
    // ws$settle(): at a new call's first allocator call, the last call's blocks still live were kept.
    m.addFunction(
      'ws$settle',
      binaryen.none,
      binaryen.none,
      [],
      m.if(
        m.i32.ne(get(G.epoch), get(G.seen)),
        m.block(null, [
          m.if(
            m.i32.and(m.i32.and(get(G.seen), c(1)), m.i32.ne(get(G.live), c(0))),
            m.block(null, [
              set(G.mark, get(G.top)),
              set(G.live, c(0)),
              m.call('ws$b_kept', [m.i32.shr_u(get(G.seen), c(1))], binaryen.none),
            ]),
          ),
          set(G.seen, get(G.epoch)),
        ]),
      ),
    );
    for (const f of found) {
      const info = binaryen.getFunctionInfo(m.getFunction(f.internal));
      m.addFunction(`${f.internal}$ws_orig`, info.params, info.results, info.vars, info.body);
      m.removeFunction(f.internal);
    }
    // The module's own allocator, size bytes (its other arguments 16: an alignment), depth-guarded.
    const own = (f, args) => [
      set('ws$bdepth', m.i32.add(get('ws$bdepth'), c(1))),
      m.local.set(0, m.call(`${f.internal}$ws_orig`, args, f.info.results)),
      set('ws$bdepth', m.i32.sub(get('ws$bdepth'), c(1))),
      m.local.get(0, i32),
    ];
    m.addFunction(
      'ws$own_alloc',
      i32,
      i32,
      [],
      m.block(
        null,
        own(
          allocator,
          allocator.params.map((_, i) => (i === allocator.entry.size ? m.local.get(0, i32) : c(ALIGN))),
        ),
        i32,
      ),
    );
    // ws$bump(size): a block from the region, or 0 (the region could not hold it, or has none).
    const size = () => m.local.get(0, i32);
    const need = () => m.local.get(1, i32);
    m.addFunction(
      'ws$bump',
      i32,
      i32,
      [i32],
      m.block(
        null,
        [
          m.if(
            m.i32.eqz(get(G.start)),
            m.block(null, [
              set(G.start, m.call('ws$own_alloc', [c(regionBytes)], i32)),
              m.call('ws$b_region', [get(G.start)], binaryen.none),
              m.if(
                m.i32.eqz(get(G.start)),
                set(G.start, c(-1)),
                m.block(null, [
                  set(G.top, m.i32.and(m.i32.add(get(G.start), c(ALIGN - 1)), c(-ALIGN))),
                  set(G.mark, get(G.top)),
                  set(G.end, m.i32.add(get(G.start), c(regionBytes))),
                ]),
              ),
            ]),
          ),
          m.local.set(1, m.i32.and(m.i32.add(size(), c(HEADER + ALIGN - 1)), c(-ALIGN))),
          m.if(
            m.i32.or(m.i32.lt_u(need(), size()), m.i32.gt_u(need(), m.i32.sub(get(G.end), get(G.top)))),
            m.block(null, [m.call('ws$b_over', [], binaryen.none), m.return(c(0))]),
          ),
          m.i32.store(0, 4, get(G.top), size()),
          set(G.top, m.i32.add(get(G.top), need())),
          set(G.live, m.i32.add(get(G.live), c(1))),
          m.i32.sub(get(G.top), m.i32.sub(need(), c(HEADER))),
        ],
        i32,
      ),
    );
    // ws$release(ptr): a block of the region freed (one the host kept below the mark is left).
    m.addFunction(
      'ws$release',
      i32,
      binaryen.none,
      [],
      m.if(
        m.i32.ge_u(m.local.get(0, i32), get(G.mark)),
        m.block(null, [
          set(G.live, m.i32.sub(get(G.live), c(1))),
          m.if(m.i32.eqz(get(G.live)), set(G.top, get(G.mark))),
        ]),
      ),
    );
    const inRegion = (p) => m.i32.and(m.i32.ge_u(p(), get(G.start)), m.i32.lt_u(p(), get(G.end)));
    const bumping = () => m.i32.and(m.i32.eqz(get('ws$bdepth')), m.i32.and(get(G.epoch), c(1)));
    const settle = () =>
      m.if(
        m.i32.and(m.i32.eqz(get('ws$bdepth')), m.i32.ne(get(G.epoch), get(G.seen))),
        m.call('ws$settle', [], binaryen.none),
      );
    for (const f of found)
      m.addFunction(f.internal, f.info.params, f.info.results, [i32], routed(m, f, { inRegion, bumping, settle, c }));
    if (!m.validate()) throw new Error('binaryen rejected the swapped module');
    return { bytes: m.emitBinary(), entryPoints: found.map((f) => f.name) };
  } finally {
    m.dispose();
  }
}

/**
 * The body of entry point f routed: to the bump allocator (alloc, calloc,
 * realloc while bumping, the last call settled first; free and realloc of a
 * block in the region, always), else to the module's own function. Its
 * extra local (index: the parameters') holds a block.
 */
function routed(m, f, { inRegion, bumping, settle, c }) {
  const i32 = binaryen.i32;
  const { entry, params } = f;
  const arg = (i) => m.local.get(i, i32);
  const q = params.length;
  const block = () => m.local.get(q, i32);
  const hasResult = f.info.results !== binaryen.none;
  // The module's own function, depth-guarded; returns its result.
  const original = () => {
    const call = m.call(
      `${f.internal}$ws_orig`,
      params.map((_, i) => arg(i)),
      f.info.results,
    );
    const depth = (d) => m.global.set('ws$bdepth', m.i32.add(m.global.get('ws$bdepth', i32), c(d)));
    if (!hasResult) return m.block(null, [depth(1), call, depth(-1)]);
    return m.block(null, [depth(1), m.local.set(q, call), depth(-1), block()], i32);
  };
  const returnBlock = () => m.return(hasResult ? block() : undefined);
  if (entry.kind === 'alloc' || entry.kind === 'calloc') {
    const bytes = entry.kind === 'calloc' ? () => m.i32.mul(arg(entry.n), arg(entry.size)) : () => arg(entry.size);
    // More than 16-byte alignment asked for (an argument besides the size): the module's own.
    const aligned = params.reduce(
      (ok, _, i) => (i === entry.size || i === entry.n ? ok : m.i32.and(ok, m.i32.le_u(arg(i), c(ALIGN)))),
      c(1),
    );
    const fill = entry.kind === 'calloc' ? [m.memory.fill(block(), c(0), bytes())] : [];
    return m.block(
      null,
      [
        settle(),
        m.if(
          m.i32.and(bumping(), aligned),
          m.block(null, [
            m.local.set(q, m.call('ws$bump', [bytes()], i32)),
            m.if(block(), m.block(null, [...fill, returnBlock()])),
          ]),
        ),
        original(),
      ],
      f.info.results,
    );
  }
  if (entry.kind === 'free') {
    const ptr = () => arg(entry.ptr);
    return m.block(
      null,
      [
        m.if(
          inRegion(ptr),
          m.block(null, [m.call('ws$release', [ptr()], binaryen.none), m.return(hasResult ? c(0) : undefined)]),
        ),
        original(),
      ],
      f.info.results,
    );
  }
  if (entry.kind === 'realloc') {
    const ptr = () => arg(entry.ptr);
    const size = () => arg(entry.size);
    // A block of the region moves to a new one (the region's, else the module's own) with its bytes.
    const move = m.block(null, [
      m.local.set(q, m.if(bumping(), m.call('ws$bump', [size()], i32), c(0))),
      m.if(m.i32.eqz(block()), m.local.set(q, m.call('ws$own_alloc', [size()], i32))),
      m.if(
        m.i32.and(m.i32.ne(block(), c(0)), m.i32.ne(ptr(), c(0))),
        m.block(null, [
          m.memory.copy(
            block(),
            ptr(),
            m.select(
              m.i32.lt_u(size(), m.i32.load(0, 4, m.i32.sub(ptr(), c(HEADER)))),
              size(),
              m.i32.load(0, 4, m.i32.sub(ptr(), c(HEADER))),
            ),
          ),
          m.call('ws$release', [ptr()], binaryen.none),
        ]),
      ),
      m.return(block()),
    ]);
    return m.block(
      null,
      [settle(), m.if(m.i32.or(inRegion(ptr), m.i32.and(m.i32.eqz(ptr()), bumping())), move), original()],
      f.info.results,
    );
  }
  // posix_memalign and the like: the module's own.
  return original();
}

// The swap's calibration: an allocator that does nothing but hand out the
// same block (the bump allocator's region, CALIBRATION_REGION bytes), whose
// malloc and free the swap routes (swapModule; its realloc, never called,
// makes the allocator whole), and loops that call them or copies of them
// the swap leaves alone.
const CALIBRATION_REGION = 4096;
const CALIBRATION = `(module
  (memory 1)
  (func $malloc (export "malloc") (param i32) (result i32) (i32.const 1024))
  (func $free (export "free") (param i32))
  (func $realloc (export "realloc") (param i32 i32) (result i32) (i32.const 1024))
  (func $plain_malloc (param i32) (result i32) (i32.const 1024))
  (func $plain_free (param i32))
  (func (export "run_swap") (param $n i32)
    (loop $l (if (local.get $n) (then
      (call $free (call $malloc (i32.const 16)))
      (local.set $n (i32.sub (local.get $n) (i32.const 1)))
      (br $l)))))
  (func (export "run_plain") (param $n i32)
    (loop $l (if (local.get $n) (then
      (call $plain_free (call $plain_malloc (i32.const 16)))
      (local.set $n (i32.sub (local.get $n) (i32.const 1)))
      (br $l))))))`;

/**
 * The calibration module's bytes: run_swap(n) makes n allocations and frees
 * through the swapped allocator (bumping while the host's b_epoch is odd),
 * run_plain(n) through functions that do nothing.
 */
export function swapCalibrationModule() {
  const text = binaryen.parseText(CALIBRATION);
  try {
    return swapModule(text.emitBinary(), new Map(), CALIBRATION_REGION).bytes;
  } finally {
    text.dispose();
  }
}
