// An op's function called through a wrapper that runs a hook first, for
// the passes that must act on each call before it runs: the allocator swap
// (alloc-swap.js: which allocator the call uses) and the time split
// (alloc-timing.js: whether the call is stamped).

/**
 * fn called as op k's through before(k) (this and the arguments passed on,
 * as many as fn declares: an engine's call into wasm with more or fewer
 * arguments than the function's takes a slower path).
 */
export function wrapOp(fn, k, before) {
  if (fn.length === 0)
    return function wrapped() {
      before(k);
      return fn.call(this);
    };
  if (fn.length === 1)
    return function wrapped(a) {
      before(k);
      return fn.call(this, a);
    };
  if (fn.length === 2)
    return function wrapped(a, b) {
      before(k);
      return fn.call(this, a, b);
    };
  return function wrapped(...args) {
    before(k);
    return fn.apply(this, args);
  };
}
