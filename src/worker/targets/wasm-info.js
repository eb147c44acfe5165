// Reads what the runner needs from a wasm binary without compiling it: the
// function signatures of exports, the imports, and memory limits. The JS API
// (WebAssembly.Module.exports) lists names and kinds but not signatures.

const VALTYPES = { 127: 'i32', 126: 'i64', 125: 'f32', 124: 'f64', 123: 'v128', 112: 'funcref', 111: 'externref' };
const KINDS = ['function', 'table', 'memory', 'global', 'tag'];

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
}

function readTypes(r) {
  const types = [];
  for (let n = r.u32(); n > 0; n--) {
    const form = r.byte();
    if (form !== 0x60) throw new Error(`unsupported type form 0x${form.toString(16)}`);
    const params = [];
    for (let p = r.u32(); p > 0; p--) params.push(VALTYPES[r.byte()] ?? 'unknown');
    const results = [];
    for (let q = r.u32(); q > 0; q--) results.push(VALTYPES[r.byte()] ?? 'unknown');
    types.push({ params, results });
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
    r.byte();
    r.limits();
  } else if (kind === 'memory') {
    entry.limits = r.limits();
    info.memories.push({ ...entry.limits, imported: { module, name } });
  } else if (kind === 'global') {
    entry.valtype = VALTYPES[r.byte()];
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
 *   custom: [{ name, start, end }], start } (limits in 64 KiB pages; custom
 *   sections by name with their payload's byte range; start: the start
 *   function's index, or null).
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
    if (sig) Object.assign(e, sig);
  }
  return {
    imports: info.imports,
    exports: info.exports,
    memories: info.memories,
    custom: info.custom,
    start: info.start,
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
