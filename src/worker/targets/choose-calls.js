// Which exports of a raw module are soaked: --call, or the module's only
// function that is not an allocator or an entry point. Loads no node:wasi,
// so that compare's main thread (src/compare/boundary.js) can use it
// without Node's WASI ExperimentalWarning.
import { usageError } from '../../errors.js';

const INTERNAL = new Set([
  '_initialize',
  '_start',
  'malloc',
  'free',
  'calloc',
  'realloc',
  'sbrk',
  '__wbindgen_malloc',
  '__wbindgen_free',
  '__wbindgen_realloc',
]);

/** How many exports a message lists before it counts the rest. */
const LISTED = 20;

/** The function exports fns as "name(params), …", the first LISTED and a count of the rest; "none" for none. */
function listOf(fns) {
  if (fns.length === 0) return 'none';
  const shown = fns.slice(0, LISTED).map((e) => `${e.name}(${e.params.join(', ')})`);
  const rest = fns.length - shown.length;
  return rest > 0 ? `${shown.join(', ')} and ${rest} more (${fns.length} in all)` : shown.join(', ');
}

function functionExports(info) {
  return info.exports.filter((e) => e.kind === 'function');
}

/**
 * Why a module without --call has no single function to soak: none at all,
 * only allocators and entry points, or several (the ambiguous case).
 */
function noSingleCandidate(path, fns, candidates) {
  if (fns.length === 0) return `${path} exports no function, so there is nothing to soak.`;
  if (candidates.length === 0)
    return `${path} exports only allocator and entry-point functions (${fns.map((e) => e.name).join(', ')}), none to soak.`;
  return `${path} exports ${candidates.length} candidate functions; which one to soak is ambiguous.`;
}

/** Chooses the ops: --call, or the module's only non-internal function. */
export function chooseCalls(info, calls, path) {
  const fns = functionExports(info);
  const list = listOf(fns);
  if (!calls) {
    const candidates = fns.filter((e) => !INTERNAL.has(e.name));
    if (candidates.length !== 1) {
      throw usageError(
        'WS_ECALL',
        noSingleCandidate(path, fns, candidates),
        candidates.length > 1
          ? `Name it with --call NAME (or a weighted mix --call a:5,b:1). Function exports: ${list}.`
          : `Export the function to soak from the module (or name one with --call NAME). Function exports: ${list}.`,
      );
    }
    return [{ name: candidates[0].name, weight: 1 }];
  }
  for (const c of calls) {
    if (!fns.some((e) => e.name === c.name)) {
      throw usageError('WS_EEXPORT', `${path} has no exported function "${c.name}".`, `Function exports: ${list}.`);
    }
  }
  return calls;
}
