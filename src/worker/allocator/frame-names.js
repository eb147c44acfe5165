// Names of the frames of allocation sites: a function index of an
// instrumented module becomes its name from the module's name section, else
// from the symbols the user gave (--symbols FILE: a build of the same module
// that keeps its names, or an Emscripten symbol map of `index:name` lines),
// else its export name; without any, `func[N]`. Each name says where it
// came from (an Emscripten release build's minified export is named by the
// `_name` its JS glue binds it to), and every frame keeps its index and its body's code offset in
// the module, so a stripped module's frames can be symbolised later.
import { readFileSync } from 'node:fs';
import { usageError } from '../../errors.js';
import { functionIndex, inspectModule } from '../targets/wasm-info.js';

/**
 * The names a --symbols file gives, Map index -> name: a wasm module's name
 * section, or an Emscripten symbol map (`--emit-symbol-map`: one
 * `index:name` line per function). Throws a usage error (exit 2) for a file
 * that cannot be read, a module without a name section, or a file with no
 * `index:name` line.
 */
export function readSymbols(path) {
  let bytes;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw usageError(
      'WS_ESYMBOLS',
      `--symbols ${path} cannot be read (${err.code ?? err.message}).`,
      'Name a build of the module that keeps its names, or an Emscripten symbol map.',
    );
  }
  if (bytes.length >= 4 && bytes.readUInt32LE(0) === 0x6d736100) {
    const { names } = functionIndex(bytes);
    if (names.size === 0)
      throw usageError(
        'WS_ESYMBOLS',
        `--symbols ${path} is a wasm module without a name section.`,
        'Name the build before stripping (wasm-ld without --strip-all, Emscripten with --profiling-funcs or -g2).',
      );
    return names;
  }
  const names = new Map();
  for (const line of bytes.toString('utf8').split('\n')) {
    const m = /^(\d+):(.+)$/.exec(line.trim());
    if (m) names.set(Number(m[1]), m[2]);
  }
  if (names.size === 0)
    throw usageError(
      'WS_ESYMBOLS',
      `--symbols ${path} holds no \`index:name\` line and is no wasm module.`,
      'Give an Emscripten symbol map (--emit-symbol-map) or a build of the module that keeps its names.',
    );
  return names;
}

/**
 * A namer for the frames of one module (bytes): frame(index) -> { index,
 * name, from ('name section', 'symbols', 'JS glue', 'export' or null),
 * offset (its body's code offset in the file, null for an import) }.
 * symbols: a Map from readSymbols, or null; glue: export name -> the name
 * the module's JS glue binds it to.
 */
export function frameNamer(bytes, symbols = null, glue = new Map()) {
  const { offsets, names } = functionIndex(bytes);
  const exported = new Map();
  for (const e of inspectModule(bytes).exports) {
    if (e.kind !== 'function' || exported.has(e.index)) continue;
    exported.set(
      e.index,
      glue.has(e.name) ? { name: glue.get(e.name), from: 'JS glue' } : { name: e.name, from: 'export' },
    );
  }
  return (index) => {
    const offset = offsets[index] ?? null;
    if (names.has(index)) return { index, name: names.get(index), from: 'name section', offset };
    if (symbols?.has(index)) return { index, name: symbols.get(index), from: 'symbols', offset };
    if (exported.has(index)) return { index, ...exported.get(index), offset };
    return { index, name: `func[${index}]`, from: null, offset };
  };
}
