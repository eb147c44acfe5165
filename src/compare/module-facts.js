// What compare states about one arm's module before any number: its
// SHA-256, its size raw, gzip -9 and brotli (faster allocators are larger),
// the toolchain from the producers section, the allocator its exports name,
// memory limits, imports and the target_features section. Read from the
// bytes alone, nothing compiled.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { inspectModule } from '../worker/targets/wasm-info.js';

/** A reader of LEB128 numbers and names over bytes[pos..end). */
function reader(bytes, pos, end) {
  const r = {
    pos,
    u32() {
      let value = 0;
      for (let shift = 0; ; shift += 7) {
        if (r.pos >= end || shift > 35) throw new Error('truncated custom section');
        const b = bytes[r.pos++];
        value += (b & 0x7f) * 2 ** shift;
        if ((b & 0x80) === 0) return value;
      }
    },
    name() {
      const len = r.u32();
      if (r.pos + len > end) throw new Error('truncated custom section');
      const s = Buffer.from(bytes.buffer, bytes.byteOffset + r.pos, len).toString('utf8');
      r.pos += len;
      return s;
    },
  };
  return r;
}

/**
 * The producers section (tool conventions): { language, processed-by, sdk }
 * each a list of "name version" strings; null when absent or malformed.
 */
function readProducers(bytes, section) {
  if (!section) return null;
  try {
    const r = reader(bytes, section.start, section.end);
    const out = {};
    for (let n = r.u32(); n > 0; n--) {
      const field = r.name();
      const values = [];
      for (let k = r.u32(); k > 0; k--) values.push(`${r.name()} ${r.name()}`.trim());
      out[field] = values;
    }
    return out;
  } catch {
    return null;
  }
}

/** The target_features section: ["+bulk-memory", …] (prefix + used, - disallowed, = required); [] when absent. */
function readFeatures(bytes, section) {
  if (!section) return [];
  try {
    const r = reader(bytes, section.start, section.end);
    const out = [];
    for (let n = r.u32(); n > 0; n--) {
      const prefix = String.fromCharCode(bytes[r.pos++]);
      out.push(`${prefix}${r.name()}`);
    }
    return out.sort();
  } catch {
    return [];
  }
}

// The allocator as the exports name it (the heap census, run in the worker,
// recognises it by structure: summary.sources.census).
const ALLOCATOR_EXPORTS = [
  ['emmalloc', (names) => names.some((n) => n.startsWith('emmalloc_'))],
  ['mimalloc', (names) => names.some((n) => n.startsWith('mi_'))],
  ['dlmalloc (mallinfo)', (names) => names.includes('mallinfo') || names.includes('dlmallinfo')],
  ['Rust global allocator', (names) => names.includes('__rust_alloc')],
  ['malloc/free', (names) => names.includes('malloc') && names.includes('free')],
];

function allocatorByExports(exports) {
  const names = exports.map((e) => e.name);
  return ALLOCATOR_EXPORTS.find(([, test]) => test(names))?.[0] ?? 'none exported';
}

/** { sha256, size: { raw, gzip (-9), brotli (quality 11) } } of a file's bytes. */
export function fingerprint(bytes) {
  return {
    sha256: createHash('sha256').update(bytes).digest('hex'),
    size: {
      raw: bytes.length,
      gzip: gzipSync(bytes, { level: 9 }).length,
      brotli: brotliCompressSync(bytes, {
        params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
      }).length,
    },
  };
}

/**
 * Facts of the module at path: { kind: 'module', sha256, size: { raw, gzip, brotli },
 * producers, features, imports: ["module.name (kind)"], memories:
 * ["min..max pages"], allocatorExports, info (inspectModule's) }.
 */
export function moduleFacts(path) {
  const bytes = readFileSync(path);
  const info = inspectModule(bytes);
  const section = (name) => info.custom.find((c) => c.name === name);
  return {
    kind: 'module',
    ...fingerprint(bytes),
    producers: readProducers(bytes, section('producers')),
    features: readFeatures(bytes, section('target_features')),
    imports: info.imports.map((i) => `${i.module}.${i.name} (${i.kind})`).sort(),
    memories: info.memories.map(
      (m) => `${m.min}..${m.max ?? 'unbounded'} pages${m.shared ? ' shared' : ''}${m.memory64 ? ' memory64' : ''}`,
    ),
    allocatorExports: allocatorByExports(info.exports),
    info,
  };
}
