// The allocator's export names as a module's JavaScript glue spells them.
// Emscripten's minified release builds export `malloc` and `free` under
// short names, and the glue binds them to its own `_malloc` and `_free`
// (`k._malloc=c.La`, `Module["_malloc"]=wasmExports["La"]`): the glue file
// is the name section a stripped module no longer has. Recent wasm-bindgen
// releases export their boundary wrappers under numbered names
// (`__wbindgen_export_0`, `__wbindgen_export2`, …), which the glue hands to
// its helpers (WBG_USES). The glue is found on the stack of the WebAssembly
// call that compiles the module.
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// Glue files larger than this are not read (a bundle of a whole app).
const MAX_GLUE_BYTES = 32 << 20;
// The glue names wasm-soak maps to entry points it knows.
const GLUE_NAMES = ['malloc', 'free', 'calloc', 'realloc'];
// `_malloc = x.La` or `_malloc = x["La"]` (and `["_malloc"] = x["La"]`).
const BINDING = new RegExp(
  `(?:\\b_(${GLUE_NAMES.join('|')})|\\[\\s*["']_(${GLUE_NAMES.join('|')})["']\\s*\\])\\s*=\\s*[\\w$]+\\s*(?:\\.\\s*([\\w$]+)|\\[\\s*["']([\\w$]+)["']\\s*\\])`,
  'g',
);
// The same binding for any `_name` the glue binds (every exported function
// an Emscripten glue uses: `_sqlite3_prepare_v2=c.U`).
const ANY_BINDING =
  /(?:\b_([A-Za-z][\w$]*)|\[\s*["']_([A-Za-z][\w$]*)["']\s*\])\s*=\s*[\w$]+\s*(?:\.\s*([\w$]+)|\[\s*["']([\w$]+)["']\s*\])/g;
// How wasm-bindgen's glue uses its allocator exports, whatever their names:
// [pattern, the entry point each group is]. passStringToWasm0(arg, malloc,
// realloc), passArray8ToWasm0(arg, malloc), and a free of what a call
// returned: free(deferred1_0, deferred1_1, 1) or free(r0, r1 * 4, 4) (older
// releases: without the alignment).
const WBG_USES = [
  [
    /passStringToWasm0\(\s*[^,()]+,\s*wasm\.([\w$]+)\s*,\s*wasm\.([\w$]+)\s*\)/g,
    ['__wbindgen_malloc', '__wbindgen_realloc'],
  ],
  [/pass\w*ToWasm0\(\s*[^,()]+,\s*wasm\.([\w$]+)\s*\)/g, ['__wbindgen_malloc']],
  [
    /wasm\.([\w$]+)\(\s*(?:deferred\d+_0\s*,\s*deferred\d+_1|r0\s*,\s*r1(?:\s*\*\s*\d+)?)\s*(?:,\s*\d+\s*)?\)/g,
    ['__wbindgen_free'],
  ],
];
const OWN_SOURCES = fileURLToPath(new URL('../../', import.meta.url));

const cache = new Map();

/** The script files named by stack, outside wasm-soak's own sources. */
function stackFiles(stack) {
  const files = new Set();
  for (const m of stack.matchAll(/(?:\(|at )((?:file:\/\/)?\/[^():]+):\d+:\d+\)?/g)) {
    const path = m[1].startsWith('file://') ? fileURLToPath(m[1]) : m[1];
    if (!path.startsWith(OWN_SOURCES)) files.add(path);
  }
  return files;
}

/**
 * Export name -> glue name bound in the file at path, by pattern (BINDING:
 * "La" -> "malloc", and wasm-bindgen's numbered exports by WBG_USES:
 * "__wbindgen_export_0" -> "__wbindgen_malloc"; ANY_BINDING: also "U" ->
 * "sqlite3_prepare_v2").
 */
function bindingsIn(path, pattern) {
  const key = `${pattern === BINDING ? 'allocator' : 'any'}:${path}`;
  if (cache.has(key)) return cache.get(key);
  const out = new Map();
  try {
    if (statSync(path).size <= MAX_GLUE_BYTES) {
      const text = readFileSync(path, 'utf8');
      for (const m of text.matchAll(pattern)) out.set(m[3] ?? m[4], m[1] ?? m[2]);
      if (pattern === BINDING)
        for (const [uses, names] of WBG_USES)
          for (const m of text.matchAll(uses)) for (const [i, name] of names.entries()) out.set(m[i + 1], name);
    }
  } catch {
    // not a readable file: no bindings
  }
  cache.set(key, out);
  return out;
}

/** Export name -> glue name from the glue files on stack, by pattern. */
function namesOnStack(stack, pattern) {
  const names = new Map();
  for (const path of stackFiles(stack))
    for (const [exported, name] of bindingsIn(path, pattern)) names.set(exported, name);
  return names;
}

/**
 * Export name -> entry point name ("La" -> "malloc") from the glue files on
 * stack (default: the caller's stack). Empty when no glue names them.
 */
export const glueAllocatorNames = (stack = new Error().stack ?? '') => namesOnStack(stack, BINDING);

/**
 * Export name -> the name the glue binds it to, for every `_name` binding
 * ("U" -> "sqlite3_prepare_v2"), from the glue files on stack (default: the
 * caller's): the names of a minified module's exports (allocation sites).
 */
export const glueExportNames = (stack = new Error().stack ?? '') => namesOnStack(stack, ANY_BINDING);
