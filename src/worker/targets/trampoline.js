// The V8 engine's argument trampoline for raw modules. Calling a wasm export
// from C through Node-API with i64 or f64 arguments creates a BigInt or a
// heap number per call, and so does an i64 or f64 result: garbage in the hot
// loop. Instead, the C loop writes each call's arguments into the slots of a
// one-page memory, and calls a generated wasm function with no parameters
// that loads them, calls the export (a direct wasm-to-wasm call) and drops
// its results. The allocator calls for buffer arguments go the same way.
// Slot k is the 8 bytes at 8 * k; a value sits at the start of its slot.
// Given the addon's next(), it also builds a driver: a wasm loop that calls
// next(), reads the op it stored at DRIVER_OP of the slots (-1: the batch
// ends) and calls its function, so
// that the C loop makes one call into JS per batch, and each op's call goes
// out of wasm to C and back (cheaper in V8 than a call from C into JS). Before
// each next() it stores the size in pages of the module's unshared memories
// at DRIVER_PAGES of the slots (through one small module per memory, whose
// only function is memory.size), so that C reads them without Node-API.
import { TRAMPOLINE_NAME } from '../../harness-names.js';
import {
  DRIVER_OP,
  DRIVER_PAGES,
  DRIVER_PAGES_MAX,
  OUTPUT_COUNTER,
  OUTPUT_FOLD_PRIME,
  OUTPUT_VALUES,
  PAGE_BYTES,
} from '../../protocol.js';

const VALTYPE = { i32: 0x7f, i64: 0x7e, f32: 0x7d, f64: 0x7c, v128: 0x7b, funcref: 0x70, externref: 0x6f };
// load opcode and alignment (log2) per parameter type
const LOAD = { i32: [0x28, 2], i64: [0x29, 3], f32: [0x2a, 2], f64: [0x2b, 3] };
const OP = {
  call: 0x10,
  drop: 0x1a,
  end: 0x0b,
  localGet: 0x20,
  localSet: 0x21,
  block: 0x02,
  loop: 0x03,
  br: 0x0c,
  brTable: 0x0e,
  voidBlock: 0x40,
  i32Const: 0x41,
  i64Const: 0x42,
  i32Load: 0x28,
  i32Store: 0x36,
  memorySize: 0x3f,
  i64Store: 0x37,
  i32And: 0x71,
  i32Shl: 0x74,
  i32Add: 0x6a,
  i64Mul: 0x7e,
  i64Xor: 0x85,
};
// A result as i64 bits, for the output checksum: i32 zero-extended, f32's
// bits zero-extended, f64's bits.
const AS_I64 = { i32: [0xad], i64: [], f32: [0xbc, 0xad], f64: [0xbd] };
export const SLOT_BYTES = 8;
// Buffer allocation: alloc() reads the length from slot 0 and stores the
// pointer in slot 1; free() reads the pointer from slot 0, the length from slot 1.
const ALLOC_IN = 0;
const ALLOC_OUT = 8;
// Checked outputs (compare --check-outputs): each op call folds its results
// into one i64 and stores it at OUTPUT_VALUES + 8 * (counter mod capacity),
// then increments the i32 counter at OUTPUT_COUNTER (the layout is C's,
// ws_protocol.h WS_OUTPUT_*, which the native engine writes alike).

const uleb = (n) => {
  const out = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
};
const sleb = (n) => {
  const out = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) return [...out, b];
    out.push(b | 0x80);
  }
};
const name = (s) => [...uleb(s.length), ...Buffer.from(s, 'utf8')];
const vector = (items) => [...uleb(items.length), ...items.flat()];
const section = (id, body) => [id, ...uleb(body.length), ...body];
const valtype = (t) => {
  if (!(t in VALTYPE)) throw new TypeError(`the trampoline cannot pass a ${t} value`);
  return VALTYPE[t];
};
const funcType = ({ params, results }) => [0x60, ...vector(params.map(valtype)), ...vector(results.map(valtype))];
const load = (type, slot) => [OP.i32Const, 0, LOAD[type][0], LOAD[type][1], ...uleb(slot * SLOT_BYTES)];
const i32At = (address) => [OP.i32Const, ...sleb(address), OP.i32Load, 2, 0];
const drops = (results) => results.map(() => OP.drop);

// The body that calls `target` (function index) with `args`, each a list of
// instructions leaving one value, and drops what it returns.
const callBody = (target, args, results) => [0, ...args.flat(), OP.call, ...uleb(target), ...drops(results), OP.end];

// The same, storing a fold of the results (local 0, an i64) as the next
// output value (capacity: a power of two).
function checkedCallBody(target, args, results, capacity) {
  const fold = [...results]
    .reverse()
    .flatMap((t) => [
      ...AS_I64[t],
      OP.localGet,
      0,
      OP.i64Const,
      ...sleb(OUTPUT_FOLD_PRIME),
      OP.i64Mul,
      OP.i64Xor,
      OP.localSet,
      0,
    ]);
  const counter = i32At(OUTPUT_COUNTER);
  const store = [...counter, OP.i32Const, ...sleb(capacity - 1), OP.i32And, OP.i32Const, 3, OP.i32Shl];
  store.push(OP.localGet, 0, OP.i64Store, 3, ...uleb(OUTPUT_VALUES));
  const next = [OP.i32Const, ...sleb(OUTPUT_COUNTER), ...counter, OP.i32Const, 1, OP.i32Add, OP.i32Store, 2, 0];
  return [1, 1, VALTYPE.i64, ...args.flat(), OP.call, ...uleb(target), ...fold, ...store, ...next, OP.end];
}

// The driver's body: loop { store the sizes; block (stop) { block (op n-1)
// ... { block (op 0) { next(); br_table (the op) } call op 0; continue } ...
// call op n-1; continue } }: the op next() stored picks the block whose end
// is followed by its op's call, and -1 (or any value past the ops) leaves. next, first, sizes:
// function indexes (sizes: one per sized memory).
function driverBody(next, first, n, sizes) {
  const body = [0, OP.loop, OP.voidBlock];
  sizes.forEach((f, j) => {
    body.push(OP.i32Const, ...sleb(DRIVER_PAGES + 4 * j), OP.call, ...uleb(f), OP.i32Store, 2, 0);
  });
  body.push(OP.block, OP.voidBlock);
  for (let k = 0; k < n; k++) body.push(OP.block, OP.voidBlock);
  body.push(OP.call, ...uleb(next), ...i32At(DRIVER_OP), OP.brTable, ...uleb(n));
  for (let k = 0; k <= n; k++) body.push(...uleb(k));
  for (let k = 0; k < n; k++) body.push(OP.end, OP.call, ...uleb(first + k), OP.br, ...uleb(n - k));
  body.push(OP.end, OP.end, OP.end);
  return body;
}

/** A function returning memory's size in pages (the module's memory.size). */
function sizeOf(memory, WebAssembly) {
  const bytes = Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector([funcType({ params: [], results: ['i32'] })])),
    ...section(2, vector([[...name('m'), ...name('m'), 0x02, 0x00, 0x00]])),
    ...section(3, vector([[0]])),
    ...section(7, vector([[...name('s'), 0x00, 0]])),
    ...section(10, vector([[4, 0, OP.memorySize, 0, OP.end]])),
  ]);
  return new WebAssembly.Instance(new WebAssembly.Module(bytes), { m: { m: memory } }).exports.s;
}

/**
 * Builds the trampoline for ops [{ fn, params, results }] (wasm exports and
 * their signatures) and, when given, the allocator { malloc, free } (wasm
 * exports with their signatures: malloc(len[, align]) -> ptr, free(ptr[,
 * len[, align]])). WebAssembly: the constructors to use (the capture hooks
 * must not see the trampoline). outputs: 0, or the capacity (a power of two)
 * of the checked outputs' ring (OUTPUT_VALUES). next: a function that calls
 * the addon's loopNext (which stores the op at DRIVER_OP), or null for no
 * driver; memories: the unshared WebAssembly.Memory objects
 * whose sizes the driver stores (the first DRIVER_PAGES_MAX). Returns {
 * calls: [function per op], alloc, free, drive (null without next), sized
 * (the memories the driver stores, in slot order), slots: ArrayBuffer } or
 * throws a TypeError for a signature it cannot pass.
 */
export function buildTrampoline(ops, allocator, WebAssembly, outputs = 0, next = null, memories = []) {
  const imported = [...ops];
  if (allocator) imported.push(allocator.malloc, allocator.free);
  const sized = next ? memories.slice(0, DRIVER_PAGES_MAX) : [];
  const sizes = sized.map((memory) => ({ fn: sizeOf(memory, WebAssembly), params: [], results: ['i32'] }));
  if (next) imported.push(...sizes, { fn: next, params: [], results: [] });
  const types = [...imported.map(funcType), funcType({ params: [], results: [] })];
  const voidType = imported.length;
  const imports = imported.map((_, k) => [...name('t'), ...name(`f${k}`), 0x00, ...uleb(k)]);
  const pages = 1 + Math.ceil((outputs * 8) / PAGE_BYTES);
  imports.push([...name('t'), ...name('slots'), 0x02, 0x01, ...uleb(pages), ...uleb(pages)]);
  const bodies = ops.map((op, k) => {
    const args = op.params.map((type, slot) => load(type, slot));
    return outputs ? checkedCallBody(k, args, op.results, outputs) : callBody(k, args, op.results);
  });
  const exports = ops.map((_, k) => [...name(`c${k}`), 0x00, ...uleb(imported.length + k)]);
  if (allocator) {
    const { malloc, free } = allocator;
    const mallocArgs = malloc.params.map((_, i) => [i32At(ALLOC_IN), [OP.i32Const, 1]][i] ?? [OP.i32Const, 0]);
    const freeArgs = free.params.map(
      (_, i) => [i32At(ALLOC_IN), i32At(ALLOC_OUT), [OP.i32Const, 1]][i] ?? [OP.i32Const, 0],
    );
    const m = ops.length;
    // alloc: slot 1 = malloc(slot 0); the pointer is the first result.
    const allocBody = [0, OP.i32Const, ALLOC_OUT, ...mallocArgs.flat(), OP.call, ...uleb(m)];
    allocBody.push(...drops(malloc.results.slice(1)), OP.i32Store, 2, 0, OP.end);
    bodies.push(allocBody, callBody(m + 1, freeArgs, free.results));
    exports.push([...name('alloc'), 0x00, ...uleb(imported.length + m)]);
    exports.push([...name('free'), 0x00, ...uleb(imported.length + m + 1)]);
  }
  if (next) {
    exports.push([...name('drive'), 0x00, ...uleb(imported.length + bodies.length)]);
    const first = imported.length - 1 - sizes.length;
    const sizeIndexes = sizes.map((_, j) => first + j);
    bodies.push(driverBody(imported.length - 1, imported.length, ops.length, sizeIndexes));
  }
  const bytes = Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector(types)),
    ...section(2, vector(imports)),
    ...section(3, vector(bodies.map(() => uleb(voidType)))),
    ...section(7, vector(exports)),
    ...section(10, vector(bodies.map((b) => [...uleb(b.length), ...b]))),
    // Its functions named (a name section's function names), so that a
    // trap's stack shows them as the harness's, not as the target's frames.
    ...section(0, [
      ...name('name'),
      ...section(1, vector(bodies.map((_, k) => [...uleb(imported.length + k), ...name(TRAMPOLINE_NAME)]))),
    ]),
  ]);
  const slots = new WebAssembly.Memory({ initial: pages, maximum: pages });
  const t = { slots };
  imported.forEach((f, k) => {
    t[`f${k}`] = f.fn;
  });
  const { exports: e } = new WebAssembly.Instance(new WebAssembly.Module(bytes), { t });
  const calls = ops.map((_, k) => e[`c${k}`]);
  const drive = e.drive ?? null;
  return { calls, alloc: e.alloc ?? null, free: e.free ?? null, drive, sized, slots: slots.buffer };
}
