// Captures every WebAssembly.Memory a target creates, imports or exports.
// Installed in the worker before the target loads: the Memory and Instance
// constructors and WebAssembly.instantiate/instantiateStreaming are wrapped
// so that a memory is seen however the glue obtains it, also when a release
// build exports it under a minified name (Emscripten's "O").

/**
 * Installs the hooks on globalThis.WebAssembly. onMemory(memory, label) is
 * called once per new memory; a later, better label (an export or import
 * name) is reported through onLabel(memory, label). onInstance(instance,
 * imports) is called for every instance, with the import object it got (the
 * allocator sources look at both). transform(bytes) may return rewritten
 * module bytes and extra imports ({ bytes, imports }) before anything is
 * compiled; it is used by the counting pass. Returns { track(memory, label),
 * pristine: the unhooked { Memory, Module, Instance } }.
 */
export function installCapture({ onMemory, onLabel, onInstance = () => {}, transform = null }) {
  const W = globalThis.WebAssembly;
  const OriginalMemory = W.Memory;
  const labels = new WeakMap();
  let constructed = 0;

  const see = (value, label, better) => {
    if (!(value instanceof OriginalMemory)) return;
    if (!labels.has(value)) {
      labels.set(value, label);
      onMemory(value, label);
    } else if (better && labels.get(value).startsWith('new Memory')) {
      labels.set(value, label);
      onLabel(value, label);
    }
  };
  const scanImports = (imports) => {
    if (!imports || typeof imports !== 'object') return;
    for (const [module, fields] of Object.entries(imports)) {
      if (!fields || typeof fields !== 'object') continue;
      for (const [name, value] of Object.entries(fields)) see(value, `${module}.${name}`, true);
    }
  };
  const scanInstance = (instance, imports) => {
    for (const [name, value] of Object.entries(instance.exports)) see(value, name, true);
    onInstance(instance, imports);
  };
  // Rewritten modules import their hooks; merge those into the import object.
  const extraImports = new WeakMap(); // WebAssembly.Module -> imports
  const withExtra = (module, imports) => {
    const extra = extraImports.get(module);
    return extra ? { ...imports, ...extra } : imports;
  };
  const isBytes = (source) => ArrayBuffer.isView(source) || source instanceof ArrayBuffer;
  const rewrite = (source) => {
    if (!transform || !isBytes(source)) return { bytes: source, imports: null };
    const view =
      source instanceof ArrayBuffer
        ? new Uint8Array(source)
        : new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
    return transform(view) ?? { bytes: source, imports: null };
  };

  W.Memory = new Proxy(OriginalMemory, {
    construct(target, args, newTarget) {
      const memory = Reflect.construct(target, args, newTarget);
      see(memory, `new Memory #${++constructed}`, false);
      return memory;
    },
  });
  const OriginalModule = W.Module;
  W.Module = new Proxy(OriginalModule, {
    construct(target, args, newTarget) {
      const { bytes, imports } = rewrite(args[0]);
      const module = Reflect.construct(target, [bytes, ...args.slice(1)], newTarget);
      if (imports) extraImports.set(module, imports);
      return module;
    },
  });
  const compile = W.compile;
  W.compile = async function (source, ...rest) {
    const { bytes, imports } = rewrite(source);
    const module = await compile.call(this, bytes, ...rest);
    if (imports) extraImports.set(module, imports);
    return module;
  };
  const OriginalInstance = W.Instance;
  W.Instance = new Proxy(OriginalInstance, {
    construct(target, args, newTarget) {
      const imports = withExtra(args[0], args[1]);
      scanImports(imports);
      const instance = Reflect.construct(target, [args[0], imports], newTarget);
      scanInstance(instance, imports);
      return instance;
    },
  });
  const instantiate = W.instantiate;
  W.instantiate = async function (source, imports) {
    let module = source;
    if (!(source instanceof OriginalModule)) module = await W.compile(source);
    const all = withExtra(module, imports);
    scanImports(all);
    const instance = await instantiate.call(this, module, all);
    scanInstance(instance, all);
    return source instanceof OriginalModule ? instance : { module, instance };
  };
  if (typeof W.instantiateStreaming === 'function') {
    W.instantiateStreaming = async (response, imports) => {
      const bytes = new Uint8Array(await (await response).arrayBuffer());
      return W.instantiate(bytes, imports);
    };
  }
  if (typeof W.compileStreaming === 'function') {
    W.compileStreaming = async (response) => W.compile(new Uint8Array(await (await response).arrayBuffer()));
  }
  // The harness's own modules (the argument trampoline) are built with the
  // constructors as they were, unseen by these hooks.
  const pristine = { Memory: OriginalMemory, Module: OriginalModule, Instance: OriginalInstance };
  return { track: (memory, label) => see(memory, label ?? `tracked #${++constructed}`, true), pristine };
}
