// Counts, in init's probe (explore.js), the calls that enter a wasm module:
// every function an instance exports, and every function read out of a
// table (embind and other Emscripten glue call through the indirect
// function table), is handed out wrapped in a counter, and the calls of
// an allocator export (malloc, __wbindgen_malloc, …) are counted apart.
// Installed before the module loads; only the probe runs with it (the
// scenario init writes and verifies runs without it). A wrapper returns and
// throws what the wrapped function does and keeps its name and length, so
// that a raw module's exports are listed as before; one put back into a
// table (Table.set, Table.grow) is unwrapped first, as a table takes only
// wasm functions.

const ALLOCATORS =
  /^_*(malloc|calloc|realloc|sbrk|wbindgen_malloc|wbindgen_realloc|__wbindgen_malloc|__wbindgen_realloc|rust_alloc)$/;

/**
 * Installs the counters on globalThis.WebAssembly. Returns { seen():
 * whether any instance's exports were read, count(): { calls, allocs,
 * bytes } so far (calls into the module, of them calls of its allocator,
 * the byte length of its memories) }.
 */
export function installEntryCount() {
  const W = globalThis.WebAssembly;
  const state = { instances: 0, calls: 0, allocs: 0 };
  const memories = new Set();
  const wrappers = new WeakMap(); // wasm function -> its counting wrapper
  const originals = new WeakMap(); // counting wrapper -> its wasm function
  const unwrap = (value) => originals.get(value) ?? value;

  const wrap = (fn, name) => {
    if (typeof fn !== 'function') return fn;
    let w = wrappers.get(fn);
    if (w) return w;
    const alloc = ALLOCATORS.test(name ?? '');
    w = function (...args) {
      state.calls++;
      if (alloc) state.allocs++;
      return new.target ? Reflect.construct(fn, args, new.target) : fn.apply(this, args);
    };
    Object.defineProperty(w, 'name', { value: fn.name });
    Object.defineProperty(w, 'length', { value: fn.length });
    wrappers.set(fn, w);
    originals.set(w, fn);
    return w;
  };

  const exportsOf = Object.getOwnPropertyDescriptor(W.Instance.prototype, 'exports');
  const wrapped = new WeakMap(); // instance -> its wrapped exports
  Object.defineProperty(W.Instance.prototype, 'exports', {
    ...exportsOf,
    get() {
      const given = wrapped.get(this);
      if (given) return given;
      const raw = exportsOf.get.call(this);
      const out = Object.create(null);
      for (const [key, value] of Object.entries(raw)) {
        if (value instanceof W.Memory) memories.add(value);
        out[key] = wrap(value, key);
      }
      Object.freeze(out);
      state.instances++;
      wrapped.set(this, out);
      return out;
    },
  });
  const get = W.Table.prototype.get;
  W.Table.prototype.get = function (...args) {
    return wrap(get.apply(this, args), null);
  };
  // A function read out of a table and put back (Emscripten's addFunction reuses slots) goes back unwrapped.
  const set = W.Table.prototype.set;
  W.Table.prototype.set = function (index, value, ...rest) {
    return set.call(this, index, unwrap(value), ...rest);
  };
  const grow = W.Table.prototype.grow;
  W.Table.prototype.grow = function (delta, ...init) {
    return grow.call(this, delta, ...init.map(unwrap));
  };
  const bytes = () => {
    let sum = 0;
    for (const memory of memories) sum += memory.buffer.byteLength;
    return sum;
  };
  return {
    seen: () => state.instances > 0,
    count: () => ({ calls: state.calls, allocs: state.allocs, bytes: bytes() }),
  };
}
