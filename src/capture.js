// Captures every WebAssembly.Memory a target creates, imports or exports.
// Installed in the worker before the target loads: the Memory and Instance
// constructors and WebAssembly.instantiate/instantiateStreaming are wrapped
// so that a memory is seen however the glue obtains it, also when a release
// build exports it under a minified name (Emscripten's "O").

/**
 * Installs the hooks on globalThis.WebAssembly. onMemory(memory, label) is
 * called once per new memory; a later, better label (an export or import
 * name) is reported through onLabel(memory, label).
 */
export function installCapture({ onMemory, onLabel }) {
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
  const scanInstance = (instance) => {
    for (const [name, value] of Object.entries(instance.exports)) see(value, name, true);
  };

  W.Memory = new Proxy(OriginalMemory, {
    construct(target, args, newTarget) {
      const memory = Reflect.construct(target, args, newTarget);
      see(memory, `new Memory #${++constructed}`, false);
      return memory;
    },
  });
  W.Instance = new Proxy(W.Instance, {
    construct(target, args, newTarget) {
      scanImports(args[1]);
      const instance = Reflect.construct(target, args, newTarget);
      scanInstance(instance);
      return instance;
    },
  });
  for (const name of ['instantiate', 'instantiateStreaming']) {
    const original = W[name];
    if (typeof original !== 'function') continue;
    W[name] = async function (source, imports) {
      scanImports(imports);
      const result = await original.call(this, source, imports);
      scanInstance(result.instance ?? result);
      return result;
    };
  }
  return { track: (memory, label) => see(memory, label ?? `tracked #${++constructed}`, true) };
}
