// Reads what the runner needs from a wasm binary without compiling it: the
// function signatures of exports, the imports, and memory limits. The JS API
// (WebAssembly.Module.exports) lists names and kinds but not signatures.

const VALTYPES = { 127: 'i32', 126: 'i64', 125: 'f32', 124: 'f64', 123: 'v128', 112: 'funcref', 111: 'externref' };
const KINDS = ['function', 'table', 'memory', 'global', 'tag'];
// The GC proposal's (WasmGC) encodings, as the final standard has them:
// reference types that name a heap type (ref null ht, ref ht), the
// abbreviations of its abstract heap types, packed storage types, the
// composite types (a struct or an array besides a function) and the
// subtype and recursion-group wrappers around them.
const REF_NULL = 0x63;
const REF = 0x64;
// (Keys in decimal, as VALTYPES's: 0x69 exnref … 0x6e anyref, 0x71 nullref … 0x74 nullexnref.)
const ABSTRACT_REFS = {
  105: 'exnref',
  106: 'arrayref',
  107: 'structref',
  108: 'i31ref',
  109: 'eqref',
  110: 'anyref',
  113: 'nullref',
  114: 'nullexternref',
  115: 'nullfuncref',
  116: 'nullexnref',
};
const PACKED = { 120: 'i8', 119: 'i16' }; // 0x78, 0x77
const FORM_FUNC = 0x60;
const FORM_STRUCT = 0x5f;
const FORM_ARRAY = 0x5e;
const SUB = 0x50;
const SUB_FINAL = 0x4f;
const REC = 0x4e;

// Node 20's V8 (11.3) knows only a draft of the GC proposal, behind
// --experimental-wasm-gc, whose opcodes and type codes were renumbered
// before the standard: a standard WasmGC module fails to compile there with
// the flag too (docs/allocator.md, "WasmGC modules"). V8 11.9 (Node 22)
// runs the standard without flags.
export const WASMGC_FIX =
  'Run wasm-soak with Node 22 or later, whose engine runs WasmGC without flags. Node 20 knows only a draft of the GC proposal behind --experimental-wasm-gc, whose encoding standard modules (Kotlin/Wasm, dart2wasm, binaryen) do not use: the flag does not help.';

class Reader {
  constructor(bytes) {
    this.bytes = bytes;
    this.pos = 0;
  }
  byte() {
    if (this.pos >= this.bytes.length) throw new Error('unexpected end of module');
    return this.bytes[this.pos++];
  }
  u32() {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = this.byte();
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
      shift += 7;
      if (shift > 35) throw new Error('malformed LEB128 number');
    }
  }
  name() {
    const len = this.u32();
    const s = Buffer.from(this.bytes.buffer, this.bytes.byteOffset + this.pos, len).toString('utf8');
    this.pos += len;
    return s;
  }
  limits() {
    const flags = this.byte();
    const min = this.u32();
    const max = flags & 1 ? this.u32() : null;
    return { min, max, shared: (flags & 2) !== 0, memory64: (flags & 4) !== 0 };
  }
  /**
   * A value type's name: 'i32' … 'externref', an abstract GC reference
   * ('anyref'), or 'ref' / 'ref null' followed by its heap type (an
   * abstract one's name, or a type index); 'unknown' for a byte it does
   * not know (one byte consumed, as before the GC proposal).
   */
  valtype() {
    const b = this.byte();
    if (b === REF || b === REF_NULL) return `(${b === REF ? 'ref' : 'ref null'} ${this.heaptype()})`;
    return VALTYPES[b] ?? ABSTRACT_REFS[b] ?? 'unknown';
  }
  /** A heap type: an abstract one's name (a one-byte negative s33), else its type index. */
  heaptype() {
    const b = this.bytes[this.pos];
    if (b !== undefined && b >= 0x40 && b < 0x80) {
      this.pos++;
      const name = VALTYPES[b] ?? ABSTRACT_REFS[b];
      return name ? name.replace(/ref$/, '') : 'unknown';
    }
    return this.u32();
  }
}

/** One composite type: a function's { kind, params, results }, or { kind: 'struct' | 'array' }. */
function readComposite(r, form) {
  if (form === FORM_FUNC) {
    const params = [];
    for (let p = r.u32(); p > 0; p--) params.push(r.valtype());
    const results = [];
    for (let q = r.u32(); q > 0; q--) results.push(r.valtype());
    return { kind: 'func', params, results };
  }
  const field = () => {
    if (PACKED[r.bytes[r.pos]]) r.pos++;
    else r.valtype();
    r.byte(); // mutability
  };
  if (form === FORM_STRUCT) {
    for (let n = r.u32(); n > 0; n--) field();
    return { kind: 'struct' };
  }
  if (form === FORM_ARRAY) {
    field();
    return { kind: 'array' };
  }
  throw new Error(`unsupported type form 0x${form.toString(16)}`);
}

/** One subtype: its supertypes (skipped) and its composite type. */
function readSubtype(r) {
  const form = r.byte();
  if (form !== SUB && form !== SUB_FINAL) return readComposite(r, form);
  for (let n = r.u32(); n > 0; n--) r.u32();
  return readComposite(r, r.byte());
}

/**
 * The type section as the type index space: every type of every recursion
 * group in order, each readComposite's.
 */
function readTypes(r) {
  const types = [];
  for (let n = r.u32(); n > 0; n--) {
    if (r.bytes[r.pos] === REC) {
      r.pos++;
      for (let m = r.u32(); m > 0; m--) types.push(readSubtype(r));
    } else types.push(readSubtype(r));
  }
  return types;
}

function readImport(r, info) {
  const module = r.name();
  const name = r.name();
  const kind = KINDS[r.byte()] ?? 'unknown';
  const entry = { module, name, kind };
  if (kind === 'function') {
    entry.type = r.u32();
    info.functions.push(entry.type);
  } else if (kind === 'table') {
    r.valtype();
    r.limits();
  } else if (kind === 'memory') {
    entry.limits = r.limits();
    info.memories.push({ ...entry.limits, imported: { module, name } });
  } else if (kind === 'global') {
    entry.valtype = r.valtype();
    entry.mutable = r.byte() === 1;
  } else if (kind === 'tag') {
    r.byte();
    r.u32();
  }
  info.imports.push(entry);
}

/**
 * Parses bytes (a Uint8Array of a wasm module) and returns
 * { imports: [{ module, name, kind }], exports: [{ name, kind, index, params?, results? }],
 *   memories: [{ min, max, shared, memory64, imported? }],
 *   custom: [{ name, start, end }], start, gc } (limits in 64 KiB pages; custom
 *   sections by name with their payload's byte range; start: the start
 *   function's index, or null; gc: { structs, arrays }, the GC proposal's
 *   struct and array types the type section declares, whose objects live in
 *   the engine's garbage-collected heap, or null for a module without any).
 * Throws an Error with code 'WS_EMODULE' when the bytes are not a wasm module.
 */
export function inspectModule(bytes) {
  if (bytes.length < 8 || bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) {
    throw Object.assign(new Error('not a WebAssembly module (bad magic number)'), { code: 'WS_EMODULE' });
  }
  const r = new Reader(bytes);
  r.pos = 8;
  const info = { imports: [], exports: [], memories: [], functions: [], types: [], custom: [], start: null };
  try {
    while (r.pos < bytes.length) {
      const id = r.byte();
      const size = r.u32();
      const end = r.pos + size;
      if (id === 0) info.custom.push({ name: r.name(), start: r.pos, end });
      else if (id === 1) info.types = readTypes(r);
      else if (id === 2) for (let n = r.u32(); n > 0; n--) readImport(r, info);
      else if (id === 3) for (let n = r.u32(); n > 0; n--) info.functions.push(r.u32());
      else if (id === 5) for (let n = r.u32(); n > 0; n--) info.memories.push(r.limits());
      else if (id === 8) info.start = r.u32();
      else if (id === 7) {
        for (let n = r.u32(); n > 0; n--) {
          const name = r.name();
          const kind = KINDS[r.byte()] ?? 'unknown';
          info.exports.push({ name, kind, index: r.u32() });
        }
      }
      r.pos = end;
    }
  } catch (err) {
    throw Object.assign(new Error(`malformed WebAssembly module: ${err.message}`), { code: 'WS_EMODULE' });
  }
  for (const e of info.exports) {
    if (e.kind !== 'function') continue;
    const sig = info.types[info.functions[e.index]];
    if (sig?.kind === 'func') Object.assign(e, { params: sig.params, results: sig.results });
  }
  const structs = info.types.filter((t) => t.kind === 'struct').length;
  const arrays = info.types.filter((t) => t.kind === 'array').length;
  return {
    imports: info.imports,
    exports: info.exports,
    memories: info.memories,
    custom: info.custom,
    start: info.start,
    gc: structs + arrays > 0 ? { structs, arrays } : null,
  };
}

/**
 * The function index space of bytes (a wasm module already validated):
 * { imported: the number of imported functions, offsets: each defined
 * function's body offset in the file (by function index, imports first:
 * undefined for them), names: Map index -> name from the name section's
 * function names (empty without one) }. A malformed name section gives the
 * names read before the damage.
 */
export function functionIndex(bytes) {
  const r = new Reader(bytes);
  r.pos = 8;
  let imported = 0;
  const offsets = [];
  const names = new Map();
  while (r.pos < bytes.length) {
    const id = r.byte();
    const size = r.u32();
    const end = r.pos + size;
    if (id === 2) {
      const info = { imports: [], functions: [], memories: [] };
      for (let n = r.u32(); n > 0; n--) readImport(r, info);
      imported = info.functions.length;
    } else if (id === 10) {
      offsets.length = imported;
      for (let n = r.u32(); n > 0; n--) {
        const bodySize = r.u32();
        offsets.push(r.pos);
        r.pos += bodySize;
      }
    } else if (id === 0 && r.name() === 'name') {
      try {
        while (r.pos < end) {
          const sub = r.byte();
          const subEnd = r.u32() + r.pos;
          if (sub === 1) for (let n = r.u32(); n > 0; n--) names.set(r.u32(), r.name());
          r.pos = subEnd;
        }
      } catch {
        // a damaged name section: the names read so far
      }
    }
    r.pos = end;
  }
  return { imported, offsets, names };
}
