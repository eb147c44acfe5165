// Lists what a loaded module offers to call: its functions, its classes
// (with their methods and the one that frees an instance) and their static
// factories, walking nested objects a few levels down (yoga's
// default.Node.create, meshoptimizer's MeshoptEncoder.*). Runs where the
// module is loaded (explore.js).
import { FREE_METHODS } from './op.js';

// Names nobody calls as an API: private ones and init entry points; on a
// JS API also the Emscripten runtime's helpers that Module carries (a raw
// module's own exports may be called print or run).
const PRIVATE = /^(_|init$|initSync$|initWasm$|then$|constructor$|ready$|memory$)/;
const RUNTIME =
  /^(HEAP|ccall$|cwrap$|getValue$|setValue$|UTF8|UTF16|UTF32|AsciiToString|stringTo|lengthBytes|addFunction$|removeFunction$|FS|ENV$|callMain$|abort$|run$|preRun$|postRun$|print$|printErr$|instantiateWasm$|locateFile$|wasmBinary$|wasmMemory$|stack|dynCall|writeArrayToMemory$|intArrayFromString$|allocateUTF8|getTempRet0$|setTempRet0$|onRuntimeInitialized$|onAbort$|inspect$|asm$|getExceptionMessage$|incrementExceptionRefcount$|decrementExceptionRefcount$|getInheritedInstance|getLiveInheritedInstances$|flushPendingDeletes$|setDelayFunction$|count_emval_handles$|get_first_emval$|BindingError$|InternalError$|UnboundTypeError$)/;
// The helpers Emscripten's WebIDL binder puts on Module beside the bound
// classes (skipped where Module carries its WrapperObject): destroy(obj)
// frees an object, and is listed as its classes' free instead.
const WEBIDL_RUNTIME = new Set([
  'WrapperObject',
  'getCache',
  'wrapPointer',
  'castObject',
  'NULL',
  'destroy',
  'compare',
  'getPointer',
  'getClass',
  'VoidPtr',
]);
const MAX_DEPTH = 3;
const FACTORY = /^(create|new|make|from|of)/i;

/** True for a class: `class` syntax, or a constructor with methods on its prototype (embind's). */
export function isClass(fn) {
  try {
    if (/^class\b/.test(Function.prototype.toString.call(fn))) return true;
    const proto = fn.prototype;
    return !!proto && Object.getOwnPropertyNames(proto).some((n) => n !== 'constructor');
  } catch {
    return false; // a proxy or host object that refuses to be inspected
  }
}

/** The method names of a class's instances (own and inherited, not Object's). */
function methodsOf(fn) {
  const names = new Set();
  for (let p = fn.prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const name of Object.getOwnPropertyNames(p)) {
      const d = Object.getOwnPropertyDescriptor(p, name);
      if (name !== 'constructor' && typeof d.value === 'function' && !name.startsWith('_')) names.add(name);
    }
  }
  return [...names];
}

/**
 * The parameter names fn's source declares ('a', '{ x }', '...rest'), or
 * null when its source shows none (a native or wasm function, a bound one).
 */
export function paramNames(fn) {
  let text;
  try {
    text = Function.prototype.toString.call(fn);
  } catch {
    return null;
  }
  if (/\{\s*\[native code\]\s*\}\s*$/.test(text)) return null;
  const arrow = /^(?:async\s+)?([A-Za-z_$][\w$]*)\s*=>/.exec(text);
  if (arrow) return [arrow[1]];
  const isClassText = /^class\b/.test(text);
  const ctor = isClassText ? /\bconstructor\s*\(/.exec(text) : null;
  if (isClassText && !ctor) return []; // no constructor of its own
  const start = ctor ? ctor.index + ctor[0].length - 1 : text.indexOf('(');
  if (start < 0) return null;
  // The list up to its closing parenthesis, nesting counted (defaults may call).
  let depth = 0;
  let end = start;
  for (; end < text.length; end++) {
    if ('([{'.includes(text[end])) depth++;
    else if (')]}'.includes(text[end]) && --depth === 0) break;
  }
  const list = text.slice(start + 1, end).replace(/\/\*[\s\S]*?\*\//g, '');
  const names = [];
  let part = '';
  depth = 0;
  for (const c of `${list},`) {
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    if (c === ',' && depth === 0) {
      const name = part.split('=')[0].trim();
      if (name) names.push(name.replace(/\s+/g, ' '));
      part = '';
    } else part += c;
  }
  return names;
}

const read = (obj, key) => {
  try {
    return obj[key];
  } catch {
    return undefined;
  }
};

/**
 * The path of the function that frees fn's instances when fn is a WebIDL
 * binder class: its prototype's __destroy__ frees the C++ object, and the
 * destroy(obj) beside the class (on owner, at path) calls it and drops the
 * object from the glue's cache. Else null.
 */
function webidlDestroy(fn, owner, path) {
  const proto = read(fn, 'prototype');
  const ok = typeof read(proto ?? {}, '__destroy__') === 'function' && typeof read(owner, 'destroy') === 'function';
  return ok ? [...path, 'destroy'] : null;
}

const isPlainApiObject = (value) =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  !ArrayBuffer.isView(value) &&
  !(value instanceof ArrayBuffer) &&
  !(value instanceof WebAssembly.Memory) &&
  !(value instanceof WebAssembly.Table) &&
  !(value instanceof WebAssembly.Global);

/**
 * The entries of api: [{ kind: 'function', path, arity, params, wasm } |
 * { kind: 'class', path, arity, params, methods, free, factories }] (params:
 * paramNames'), in the order found, each value
 * once (a CommonJS default that repeats the named exports is not listed
 * twice). free: the name of the method that frees an instance, or the path
 * of the API function that does (WebIDL's destroy), or null. numeric: api
 * is a raw module's exports.
 */
export function walkApi(api, numeric) {
  const skipped = (key, obj) =>
    PRIVATE.test(key) ||
    (!numeric && (RUNTIME.test(key) || (WEBIDL_RUNTIME.has(key) && typeof read(obj, 'WrapperObject') === 'function')));
  const out = [];
  const seen = new Set();
  // Functions of a level before the objects below it, so that a CommonJS
  // default repeating the named exports lists them under their own names.
  const visit = (obj, path, depth) => {
    const keys = Object.keys(obj).filter((key) => !skipped(key, obj));
    for (const key of keys) {
      const value = read(obj, key);
      if (typeof value !== 'function' || seen.has(value) || (key === 'default' && !isClass(value))) continue;
      seen.add(value);
      const wasm = /^\d+$/.test(value.name); // a wasm export itself: takes numbers only
      if (isClass(value)) {
        const methods = methodsOf(value);
        const factories = Object.keys(value).filter((k) => FACTORY.test(k) && typeof read(value, k) === 'function');
        // A WebIDL object is freed only by destroy(obj), whatever its methods are called.
        const free = webidlDestroy(value, obj, path) ?? FREE_METHODS.find((m) => methods.includes(m)) ?? null;
        const params = paramNames(value);
        out.push({ kind: 'class', path: [...path, key], arity: value.length, params, methods, free, factories });
      } else out.push({ kind: 'function', path: [...path, key], arity: value.length, params: paramNames(value), wasm });
    }
    if (depth >= MAX_DEPTH) return;
    for (const key of keys) {
      const value = read(obj, key);
      if (seen.has(value) || !isPlainApiObject(value)) continue;
      seen.add(value);
      visit(value, [...path, key], depth + 1);
    }
  };
  visit(api, [], 0);
  return out;
}

// Functions a probe must not call: they free, reset or end something, and a
// random argument to one of them can break the module for every later call.
const UNSAFE =
  /(free|delete|destroy|dispose|drop|dealloc|alloc|exit|abort|panic|reset|clear|set|grow|unpin|pin|collect|close|write)/i;

/**
 * The ops worth probing, most likely to be a real workload first: functions
 * (shallow before nested), then static factories, then classes whose
 * instances can be freed. Each: { form, path, arity, factory? , free? }.
 * A wasm export reached through a JS API (Emscripten's Module carries
 * them) takes pointers: random numbers go to it only when numeric (a raw
 * module, whose exports are all there is).
 */
export function probeTargets(entries, numeric) {
  const fns = entries
    .filter((e) => e.kind === 'function' && !UNSAFE.test(e.path.at(-1)) && (numeric || !e.wasm))
    .sort((a, b) => a.path.length - b.path.length)
    .map((e) => ({ form: 'call', path: e.path, arity: e.arity }));
  const classes = entries.filter((e) => e.kind === 'class');
  const factories = classes.flatMap((e) =>
    e.factories.map((factory) => ({ form: 'factory', path: e.path, factory, arity: 0 })),
  );
  const constructed = classes
    .filter((e) => e.free)
    .map((e) => ({ form: 'new', path: e.path, arity: e.arity, free: e.free }));
  return [...fns, ...factories, ...constructed];
}
