// The arguments init tries on an exported function, each written once as
// the source a scenario carries and as the function explore.js calls with
// the same ctx helpers: a call that works in the probe works as written.

export const ARG_KINDS = Object.freeze({
  bytes: { source: 'ctx.bytes(ctx.int(1, 4096))', make: (ctx) => ctx.bytes(ctx.int(1, 4096)) },
  string: { source: 'ctx.string(ctx.int(1, 256))', make: (ctx) => ctx.string(ctx.int(1, 256)) },
  int: { source: 'ctx.int(1, 64)', make: (ctx) => ctx.int(1, 64) },
  // An element size or stride: C APIs often want a multiple of 4.
  size: { source: 'ctx.pick([4, 8, 16])', make: (ctx) => ctx.pick([4, 8, 16]) },
  bigint: { source: 'BigInt(ctx.int(1, 64))', make: (ctx) => BigInt(ctx.int(1, 64)) },
});

// Values the glue of a JS API takes, and those a raw wasm export takes.
const JS_KINDS = ['bytes', 'string', 'int', 'size'];
const NUMERIC_KINDS = ['int', 'bigint'];

/**
 * The argument lists to try on a function of arity parameters, most likely
 * first: every combination of JS values up to three parameters (4^3 lists) (a glue that
 * declares none, as embind's, gets one of each too), all-same lists beyond;
 * a raw export (numeric) takes numbers only.
 */
export function argumentLists(arity, numeric) {
  if (numeric) return NUMERIC_KINDS.map((kind) => Array(arity).fill(kind));
  if (arity === 0) return [[], ...JS_KINDS.map((kind) => [kind])];
  if (arity > 3) return JS_KINDS.map((first) => [first, ...Array(arity - 1).fill('int')]);
  let lists = [[]];
  for (let i = 0; i < arity; i++) lists = lists.flatMap((list) => JS_KINDS.map((kind) => [...list, kind]));
  return lists;
}
