// One op init writes, in two forms from one description: the source lines a
// scenario carries and the function explore.js probes and verifies with.
// op: { form, path, args, free, awaits, factory, alloc }:
//   'call'    api.path(args), then result.free() when the result has one;
//   'new'     new api.path(args), then .free();
//   'factory' api.path.factory(args), then .free() when there is one;
//   free is the name of the made object's method that releases it, or the
//   path of an API function that takes the object (WebIDL's Module.destroy);
//   'alloc'   the module's own allocator: alloc.malloc(size), alloc.free(ptr)
//             (source only: what a placeholder op shows working).
import { ARG_KINDS } from './args.js';

/** The names of methods that release a glue object (wasm-bindgen free, embind delete, others'; close last). */
export const FREE_METHODS = ['free', 'delete', 'dispose', 'destroy', 'close'];

const IDENT = /^[A-Za-z_$][\w$]*$/;
/** text as a single-quoted JS string. */
export const quote = (text) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
/** A property path as source: api.a.b, api["x-y"]. */
export const access = (base, path) =>
  path.reduce((s, key) => (IDENT.test(key) ? `${s}.${key}` : `${s}[${quote(key)}]`), base);

/** The free method of a value, or null. */
export function freeMethodOf(value) {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return null;
  return FREE_METHODS.find((name) => typeof value[name] === 'function') ?? null;
}

/** The source of freeing the object named obj: obj.free() for a method name, api.destroy(obj) for a path. */
export const freeSource = (free, obj) => (Array.isArray(free) ? `${access('api', free)}(${obj})` : `${obj}.${free}()`);

/** Frees value as free says (a method name or an API function's path), calling through api. */
export function release(api, free, value) {
  if (!Array.isArray(free)) return value[free]();
  const owner = free.slice(0, -1).reduce((o, key) => o[key], api);
  return owner[free.at(-1)](value);
}

/** The source lines of op's body (inside run({ api, raw }, ctx)). */
export function opSource(op) {
  if (op.form === 'alloc') {
    const { malloc, free, mallocArity, freeArity } = op.alloc;
    const extra = (n, given) => [...given, ...Array(Math.max(0, n - given.length)).fill('1')].slice(0, Math.max(n, 1));
    return [
      'const size = ctx.int(1, 4096);',
      `const ptr = ${access('raw', [malloc])}(${extra(mallocArity, ['size']).join(', ')});`,
      `${access('raw', [free])}(${extra(freeArity, ['ptr', 'size']).join(', ')});`,
    ];
  }
  const args = op.args.map((kind) => ARG_KINDS[kind].source).join(', ');
  const target = access('api', op.path);
  const call =
    op.form === 'new'
      ? `new ${target}(${args})`
      : op.form === 'factory'
        ? `${access(target, [op.factory])}(${args})`
        : `${target}(${args})`;
  const expr = op.awaits ? `await ${call}` : call;
  if (!op.free) return [`${expr};`];
  return [`const made = ${expr};`, `${freeSource(op.free, 'made')};`];
}

/** op as a function (state, ctx) doing what opSource writes; returns what the call made (a promise when op.awaits). */
export function opRunner(op) {
  return ({ api }, ctx) => {
    const args = op.args.map((kind) => ARG_KINDS[kind].make(ctx));
    const owner = op.path.slice(0, -1).reduce((o, key) => o[key], api);
    const fn = owner[op.path.at(-1)];
    const made =
      op.form === 'new' ? new fn(...args) : op.form === 'factory' ? fn[op.factory](...args) : fn.apply(owner, args);
    const freed = (value) => {
      if (op.free) release(api, op.free, value);
      return value;
    };
    return op.awaits ? Promise.resolve(made).then(freed) : freed(made);
  };
}
