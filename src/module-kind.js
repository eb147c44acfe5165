// Recognises what a WebAssembly module needs to load: its own JS glue
// (wasm-bindgen, Emscripten), an AssemblyScript host, WASI, or nothing. From
// a module's imports and exports (as inspectModule lists them) or from a
// glue file's text. `run` uses it to word a raw module it cannot feed, and
// `init` to choose how a scenario loads the module.

const WASI_MODULES = new Set(['wasi_snapshot_preview1', 'wasi_unstable']);
// Import names only Emscripten's runtime asks for (release builds keep them
// unless imports are minified, when the module is "a" and names are letters).
const EMSCRIPTEN_IMPORT =
  /^(emscripten_|_emscripten_|invoke_|__syscall_|_embind_|__cxa_|_tzset_js|_abort_js|fd_write$)/;

/**
 * The kind of a module by its imports and exports: 'wasm-bindgen',
 * 'emscripten', 'assemblyscript', 'wasi-command', 'wasi-reactor', 'plain' (no
 * imports) or 'other' (imports nothing here recognises). Returns { kind,
 * imports: the count of imports that are not WASI functions, modules: the
 * import module names in order of first use }.
 */
export function moduleKind({ imports, exports }) {
  const modules = [...new Set(imports.map((i) => i.module))];
  const exported = new Set(exports.map((e) => e.name));
  const foreign = imports.filter((i) => !WASI_MODULES.has(i.module) || i.kind !== 'function').length;
  const result = (kind) => ({ kind, imports: foreign, modules });
  if (modules.some((m) => m === 'wbg' || m === '__wbindgen_placeholder__' || /_bg\.js$/.test(m))) {
    return result('wasm-bindgen');
  }
  if (exported.has('__pin') && exported.has('__new')) return result('assemblyscript');
  if (imports.some((i) => i.module === 'env' && i.name === 'abort') && exported.has('__new')) {
    return result('assemblyscript');
  }
  if (imports.some((i) => EMSCRIPTEN_IMPORT.test(i.name) && i.module === 'env')) return result('emscripten');
  if (modules.length === 1 && modules[0] === 'a' && imports.every((i) => i.name.length <= 2)) {
    return result('emscripten'); // minified imports
  }
  if (modules.length === 0) return result('plain');
  if (modules.every((m) => WASI_MODULES.has(m))) {
    return result(exported.has('_start') ? 'wasi-command' : 'wasi-reactor');
  }
  return result('other');
}

/** True when a module of this kind cannot run without JS glue written for it. */
export const needsGlue = (kind) => kind === 'wasm-bindgen' || kind === 'emscripten';

/**
 * The kind of JS glue by its text: 'wasm-bindgen-nodejs' (CommonJS that
 * reads its _bg.wasm itself), 'wasm-bindgen-web' (initSync and a default
 * init), 'wasm-bindgen-bundler' (imports its _bg.wasm as a module),
 * 'emscripten' (a MODULARIZE factory taking wasmBinary), 'emscripten-global'
 * (built without MODULARIZE: it fills one Module object, a global one if set,
 * and instantiates the module beside it as it loads), or null.
 * flavour: 'embind', 'webidl' or null for Emscripten glue.
 */
export function glueKind(text) {
  if (/__wbindgen|__wbg_/.test(text)) {
    if (/from\s*['"][^'"]+_bg\.wasm['"]/.test(text) || /__wbg_set_wasm/.test(text)) {
      return { kind: 'wasm-bindgen-bundler', flavour: null };
    }
    if (/\binitSync\b/.test(text) && /export\s*{\s*initSync|export\s+function\s+initSync/.test(text)) {
      return { kind: 'wasm-bindgen-web', flavour: null };
    }
    if (/module\.exports/.test(text) && /readFileSync/.test(text))
      return { kind: 'wasm-bindgen-nodejs', flavour: null };
    return null;
  }
  if (/wasmBinary/.test(text) && /(moduleArg|readyPromise|Module\s*=|locateFile)/.test(text)) {
    const flavour = /_embind_register|embind/.test(text) ? 'embind' : /WrapperObject/.test(text) ? 'webidl' : null;
    // Without MODULARIZE there is no factory (its ready promise, moduleArg):
    // the glue takes a global Module if one is set and instantiates as it loads.
    const global = !/readyPromise|moduleArg/.test(text) && /typeof Module\s*!==?\s*['"]undefined['"]/.test(text);
    return { kind: global ? 'emscripten-global' : 'emscripten', flavour };
  }
  return null;
}
