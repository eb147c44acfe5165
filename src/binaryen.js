// binaryen (about 100 MB) is needed only by the counting pass, which rewrites
// the module's allocator; it is an optional peer dependency, loaded only
// then. Both functions throw a SoakError (exit 3) that names the package.
import { EXIT, SoakError } from './errors.js';

function missing(err) {
  return new SoakError(
    'WS_ENOBINARYEN',
    `The counting pass (--count-allocs, --max-allocs-per-call, --max-bytes-per-call) and the time-split pass (--time-split) rewrite the module with binaryen, which is not installed (${err.message.split('\n')[0]}).`,
    { fix: 'Add it next to wasm-soak: `npm install binaryen`.', exitCode: EXIT.FAILED, cause: err },
  );
}

/** Fails fast, before a run, when binaryen cannot be found (it is not loaded). */
export function checkBinaryen() {
  try {
    import.meta.resolve('binaryen');
  } catch (err) {
    throw missing(err);
  }
}

/** binaryen's default export. */
export async function loadBinaryen() {
  try {
    return (await import('binaryen')).default;
  } catch (err) {
    if (err.code !== 'ERR_MODULE_NOT_FOUND') throw err;
    throw missing(err);
  }
}
