// Captures every WebAssembly.Memory a target creates, imports or exports.
// Installed in the worker before the target loads: the Memory and Instance
// constructors and WebAssembly.instantiate/instantiateStreaming are wrapped
// so that a memory is seen however the glue obtains it, also when a release
// build exports it under a minified name (Emscripten's "O").
//
// The hooks are invisible to the glue. They never enumerate an import object
// and read from it only the memory and __stack_pointer imports the module
// declares (WebAssembly.Module.imports), after the engine has read them:
// Emscripten's dynamic-linking glue passes Proxies whose getters create GOT
// entries, so reading any other field corrupts its linking. What the
// wrapped functions return or throw is what the originals return or throw
// (the same objects, the same errors); the constructors stay the same for
// instanceof. Module and compile are wrapped to read the initial size a
// module declares for its memory (and to rewrite it, with a transform);
// compileStreaming only when a transform is given.
// Memory.prototype.grow is wrapped to see a grow that fails (JS glue such as
// Emscripten's emscripten_resize_heap grows from JS and catches the
// RangeError): it returns and throws what the original does.
//
// Modules that Node itself instantiates are not the target's and are not
// seen: the first fetch() of a process (Emscripten glue fetches its wasm,
// also from a data: URL) makes Node's undici instantiate its HTTP parser,
// llhttp, a module with a 128 KiB memory exported as "memory". Tracked, it
// was a second memory beside the target's (under the same label as a
// wasm-bindgen module's "memory"), and the heap census read it instead.

import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PAGE_BYTES } from '../protocol.js';
import { callerFile, isRuntime } from './caller.js';
import { inspectModule } from './targets/wasm-info.js';

/**
 * Installs the hooks on globalThis.WebAssembly. onMemory(memory, label,
 * maximumPages, owner) is called once per new memory (maximumPages: the
 * maximum a `new Memory` descriptor declared, else null; owner: the module
 * it belongs to, "module #2 (instantiated by pkg/glue.js)", "module #1
 * (https://…/x.wasm)", or null for a memory no instance has declared yet);
 * a later, better label (an export or import name) or the first owner is
 * reported through onLabel(memory, label, owner). onInstance(instance,
 * imported) is called for every instance, with a new plain object holding
 * the memory and __stack_pointer global imports it declared, as
 * { module: { field: value } } (the allocator sources look at both).
 * transform(bytes) may return rewritten module bytes and extra imports
 * ({ bytes, imports, alone }; alone: the module imported nothing before, so
 * the extra imports may stand without the glue's) before anything is
 * compiled; it is used by the counting pass. onGrowFailed(memory, delta, error) is called when
 * memory.grow(delta) throws its RangeError (the memory could not grow), before
 * the error is rethrown. onGcTypes(gc) is called for a module instantiated
 * from bytes whose type section declares WasmGC struct or array types (gc:
 * inspectModule's { structs, arrays }). onDeclaredSize(memory, bytes) is
 * called when an instance of a module whose bytes were seen takes its first
 * memory (imported, else the first it exports), with the initial size the
 * module declares for it: the linker places static data and the stack within
 * it, however large the glue creates the memory. onThreadedModule() is
 * called when the bytes of a module built for wasi-threads are seen (it
 * imports wasi's thread-spawn or exports wasi_thread_start: each thread it
 * spawns instantiates it again, in a worker thread of its loader's, out of
 * these hooks' reach). Returns { track(memory, label),
 * pristine: the unhooked { Memory, Module, Instance } }.
 * Long: the hooks share the capture's state and are installed together, so that none is missed.
 */
export function installCapture({
  onMemory,
  onLabel,
  onInstance = () => {},
  onGrowFailed = () => {},
  onGcTypes = () => {},
  onDeclaredSize = () => {},
  onThreadedModule = () => {},
  transform = null,
}) {
  const W = globalThis.WebAssembly;
  const OriginalMemory = W.Memory;
  const OriginalModule = W.Module;
  const OriginalInstance = W.Instance;
  const labels = new WeakMap();
  const owners = new WeakMap();
  // Memories of modules Node instantiated for itself (never seen later
  // through another route either).
  const runtimeOwned = new WeakSet();
  // The initial size (bytes) each module whose bytes were seen declares for its first memory.
  const declaredSizes = new WeakMap();
  const noteBytes = (module, source) => {
    const info = inspectBytes(source);
    const first = info?.memories[0];
    if (first && !first.memory64) declaredSizes.set(module, first.min * PAGE_BYTES);
    if (info && spawnsThreads(info)) onThreadedModule();
  };
  let constructed = 0;
  let instantiated = 0;

  const see = (value, label, better, maximumPages = null, owner = null) => {
    if (!(value instanceof OriginalMemory) || runtimeOwned.has(value)) return;
    if (!labels.has(value)) {
      labels.set(value, label);
      if (owner) owners.set(value, owner);
      onMemory(value, label, maximumPages, owner);
      return;
    }
    const relabel = better && labels.get(value).startsWith('new Memory');
    const adopt = owner !== null && !owners.has(value);
    if (!relabel && !adopt) return;
    if (relabel) labels.set(value, label);
    if (adopt) owners.set(value, owner);
    onLabel(value, labels.get(value), owners.get(value) ?? null);
  };
  // Reads the declared memory and __stack_pointer imports once more, after
  // the engine read them; a getter that throws now is skipped.
  const declaredImports = (module, imports, owner) => {
    const imported = {};
    if (!isObject(imports)) return imported;
    for (const { module: from, name, kind } of OriginalModule.imports(module)) {
      if (kind !== 'memory' && !(kind === 'global' && name === '__stack_pointer')) continue;
      try {
        const value = imports[from][name];
        imported[from] ??= {};
        imported[from][name] = value;
        see(value, `${from}.${name}`, true, null, owner);
      } catch {}
    }
    return imported;
  };
  // maxima: the declared maximum (pages) of each exported memory, by export
  // name, when the module's bytes were seen (exportedMaxima); caller: the
  // file that instantiated it (callerFile); url: where a streamed module
  // came from.
  const seen = (module, instance, imports, maxima, caller, url = null) => {
    if (isRuntime(caller)) {
      for (const value of Object.values(instance.exports)) if (value instanceof OriginalMemory) runtimeOwned.add(value);
      return instance;
    }
    const from = url || (caller ? `instantiated by ${shortFile(caller)}` : '');
    const owner = `module #${++instantiated}${from ? ` (${from})` : ''}`;
    const imported = declaredImports(module, imports, owner);
    for (const [name, value] of Object.entries(instance.exports))
      see(value, name, true, maxima?.get(name) ?? null, owner);
    const size = declaredSizes.get(module);
    if (size !== undefined) {
      const first =
        Object.values(imported)
          .flatMap((fields) => Object.values(fields))
          .find((value) => value instanceof OriginalMemory) ??
        Object.values(instance.exports).find((value) => value instanceof OriginalMemory);
      if (first && !runtimeOwned.has(first)) onDeclaredSize(first, size);
    }
    onInstance(instance, imported);
    return instance;
  };

  // A grow's TypeErrors (a bad argument) are no failed grow. grow reads its
  // first argument only, so passing that one alone changes nothing, and
  // allocates nothing.
  const grow = OriginalMemory.prototype.grow;
  replace(OriginalMemory.prototype, 'grow', function (delta) {
    try {
      return grow.call(this, delta);
    } catch (err) {
      if (err instanceof RangeError) onGrowFailed(this, delta, err);
      throw err;
    }
  });
  wrapConstructor(W, 'Memory', (target, args, newTarget) => {
    const memory = Reflect.construct(target, args, newTarget);
    if (isRuntime(callerFile(import.meta.url))) runtimeOwned.add(memory);
    else see(memory, `new Memory #${++constructed}`, false, declaredMaximum(args[0]));
    return memory;
  });
  // A rewritten module imports its hooks: the import object is seen through
  // an object that adds them and reads everything else from the original.
  const extraImports = new WeakMap(); // WebAssembly.Module -> its hooks (hooksOf)
  const withExtra = (module, imports) => withHooks(imports, extraImports.get(module));
  wrapConstructor(W, 'Instance', (target, [module, imports, ...rest], newTarget) => {
    const caller = callerFile(import.meta.url);
    const instance = Reflect.construct(target, [module, withExtra(module, imports), ...rest], newTarget);
    return seen(module, instance, imports, null, caller);
  });
  // { bytes, imports } for a module the transform rewrote, else null.
  const rewrite = (source) => {
    if (!transform || !isBytes(source) || isRuntime(callerFile(import.meta.url))) return null;
    const view =
      source instanceof ArrayBuffer
        ? new Uint8Array(source)
        : new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
    // Invalid bytes reach the engine as they are, to fail as they would.
    return W.validate(view) ? transform(view) : null;
  };
  const instantiate = W.instantiate;
  replace(W, 'instantiate', function (source, imports, ...rest) {
    const caller = callerFile(import.meta.url);
    if (source instanceof OriginalModule) {
      const instance = instantiate.call(this, source, withExtra(source, imports), ...rest);
      return instance.then((i) => seen(source, i, imports, null, caller));
    }
    let rewritten;
    try {
      rewritten = rewrite(source);
    } catch (err) {
      return Promise.reject(err);
    }
    const all = withHooks(imports, rewritten && hooksOf(rewritten));
    return instantiate.call(this, rewritten ? rewritten.bytes : source, all, ...rest).then((result) => {
      if (rewritten) extraImports.set(result.module, hooksOf(rewritten));
      if (!isRuntime(caller)) noteBytes(result.module, source);
      seen(result.module, result.instance, imports, isRuntime(caller) ? null : exportedMaxima(source), caller);
      const gc = isRuntime(caller) ? null : gcTypesOf(source);
      if (gc) onGcTypes(gc);
      return result;
    });
  });
  if (typeof W.instantiateStreaming === 'function') {
    const instantiateStreaming = W.instantiateStreaming;
    replace(W, 'instantiateStreaming', function (response, imports, ...rest) {
      const caller = callerFile(import.meta.url);
      if (!transform || isRuntime(caller)) {
        const url = Promise.resolve(response).then((r) => (r instanceof Response ? r.url : null));
        return instantiateStreaming.call(this, response, imports, ...rest).then(async (result) => {
          seen(result.module, result.instance, imports, null, caller, await url.catch(() => null));
          return result;
        });
      }
      return responseBytes(response).then((bytes) => W.instantiate(bytes, imports, ...rest));
    });
  }
  installModuleHooks(W, rewrite, extraImports, noteBytes, Boolean(transform));
  // The harness's own modules (the argument trampoline) are built with the
  // constructors as they were, unseen by these hooks.
  const pristine = { Memory: OriginalMemory, Module: OriginalModule, Instance: OriginalInstance };
  return { track: (memory, label) => see(memory, label ?? `tracked #${++constructed}`, true), pristine };
}

/**
 * Wraps Module and compile so that noteBytes(module, bytes) and
 * rewrite(bytes) see every module's bytes first, and compileStreaming too
 * when streaming (a transform is given: the bytes must be read to be rewritten).
 */
function installModuleHooks(W, rewrite, extraImports, noteBytes, streaming) {
  wrapConstructor(W, 'Module', (target, [source, ...rest], newTarget) => {
    const rewritten = rewrite(source);
    const module = Reflect.construct(target, [rewritten ? rewritten.bytes : source, ...rest], newTarget);
    if (rewritten) extraImports.set(module, hooksOf(rewritten));
    if (!isRuntime(callerFile(import.meta.url))) noteBytes(module, source);
    return module;
  });
  const compile = W.compile;
  replace(W, 'compile', function (source, ...rest) {
    let rewritten;
    try {
      rewritten = rewrite(source);
    } catch (err) {
      return Promise.reject(err);
    }
    const caller = callerFile(import.meta.url);
    return compile.call(this, rewritten ? rewritten.bytes : source, ...rest).then((module) => {
      if (rewritten) extraImports.set(module, hooksOf(rewritten));
      if (!isRuntime(caller)) noteBytes(module, source);
      return module;
    });
  });
  if (streaming && typeof W.compileStreaming === 'function') {
    replace(W, 'compileStreaming', (response) => responseBytes(response).then((bytes) => W.compile(bytes)));
  }
}

/** inspectModule of source's bytes, or null when source is not bytes or does not parse. */
function inspectBytes(source) {
  if (!isBytes(source)) return null;
  try {
    return inspectModule(
      source instanceof ArrayBuffer
        ? new Uint8Array(source)
        : new Uint8Array(source.buffer, source.byteOffset, source.byteLength),
    );
  } catch {
    return null;
  }
}

/**
 * The declared maximum (pages) of each memory the module's bytes export, by
 * export name (Map); null when source is not bytes or does not parse.
 */
function exportedMaxima(source) {
  const info = inspectBytes(source);
  // Memory indices count imported memories first, as info.memories lists them.
  return info
    ? new Map(info.exports.filter((e) => e.kind === 'memory').map((e) => [e.name, info.memories[e.index]?.max ?? null]))
    : null;
}

/** Whether a module (inspectModule's info) is built for wasi-threads: it imports wasi's thread-spawn or exports wasi_thread_start. */
const spawnsThreads = (info) =>
  info.imports.some((i) => i.module === 'wasi' && i.name === 'thread-spawn') ||
  info.exports.some((e) => e.name === 'wasi_thread_start' && e.kind === 'function');

/** The WasmGC types of source's bytes (inspectModule's gc), or null: none, not bytes, or not parsed. */
function gcTypesOf(source) {
  return inspectBytes(source)?.gc ?? null;
}

/**
 * The maximum (pages) a Memory descriptor declared, read after the engine
 * read it as its own data property (no getter runs twice): null when it has
 * none, or declares it through a getter.
 */
function declaredMaximum(descriptor) {
  const d = isObject(descriptor) ? Object.getOwnPropertyDescriptor(descriptor, 'maximum') : undefined;
  return d && typeof d.value === 'number' && d.value >= 0 ? d.value : null;
}

/**
 * A caller's file as people name it: from the package on inside
 * node_modules ("yoga-layout/dist/x.js"), else relative to the working
 * folder.
 */
function shortFile(file) {
  const path = file.startsWith('file:') ? fileURLToPath(file) : file;
  const at = path.lastIndexOf('/node_modules/');
  return at >= 0 ? path.slice(at + '/node_modules/'.length) : relative(process.cwd(), path) || path;
}

const isBytes = (source) => ArrayBuffer.isView(source) || source instanceof ArrayBuffer;
/**
 * The import object a rewritten module gets: a new object whose own fields
 * are the hooks (extra) and whose prototype is the glue's import object, so
 * the engine reads every other module name from it as it would; the hooks
 * alone when the glue passed none to a module that imported nothing before
 * its rewrite (WebAssembly.instantiate(bytes): xxhash-wasm); imports itself
 * when there are no hooks or it is not an object, or none was passed to a
 * module that needs one (the engine then throws as it would have). hooks:
 * hooksOf's, or null.
 */
function withHooks(imports, hooks) {
  if (!hooks) return imports;
  if (imports === undefined && hooks.alone) return { ...hooks.imports };
  return isObject(imports) ? Object.assign(Object.create(imports), hooks.imports) : imports;
}

/** What a rewritten module's instantiation adds (transform's { imports, alone }), without its bytes. */
const hooksOf = (rewritten) => ({ imports: rewritten.imports, alone: Boolean(rewritten.alone) });

const isObject = (value) => (typeof value === 'object' && value !== null) || typeof value === 'function';

/**
 * The bytes of a Response (or a promise of one), refused as the streaming
 * functions refuse them: a TypeError unless it is an ok Response of type
 * application/wasm whose body was not read.
 */
async function responseBytes(response) {
  const r = await response;
  if (!(r instanceof Response)) throw new TypeError('WebAssembly: the argument must be a Response or a promise of one');
  const type = r.headers.get('content-type');
  if (type?.split(';')[0].trim().toLowerCase() !== 'application/wasm') {
    throw new TypeError(`WebAssembly response has unsupported MIME type '${type}'`);
  }
  if (!r.ok) throw new TypeError(`WebAssembly response has status code ${r.status}`);
  if (r.bodyUsed) throw new TypeError('WebAssembly response body has already been used');
  return new Uint8Array(await r.arrayBuffer());
}

/**
 * Replaces the constructor W[name] with a Proxy whose construct trap is
 * construct(target, args, newTarget). Objects it makes keep their prototype,
 * whose constructor becomes the Proxy, so x.constructor === W[name] holds.
 */
function wrapConstructor(W, name, construct) {
  const wrapped = new Proxy(W[name], { construct });
  Object.defineProperty(W[name].prototype, 'constructor', { value: wrapped });
  W[name] = wrapped;
}

/** Replaces obj[key] with fn, keeping the original's name and length (its attributes are kept by assignment). */
function replace(obj, key, fn) {
  const original = obj[key];
  Object.defineProperty(fn, 'name', { value: original.name });
  Object.defineProperty(fn, 'length', { value: original.length });
  obj[key] = fn;
}
