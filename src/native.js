// Finds the compiled addon (build/Release, else a prebuild in prebuilds/, via
// node-gyp-build) on first use. The command line loads it only for commands
// that run or analyse, so help, --version and usage errors work without it;
// a missing addon is a SoakError (exit 3) that says how to get one.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT, SoakError } from './errors.js';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

let loaded = null;
let failure = null;

function missing(err) {
  const where = `${process.platform}-${process.arch}, Node ${process.version}`;
  return new SoakError(
    'WS_ENOADDON',
    `The wasm-soak native addon is not built for ${where}: no prebuilt binary in ${join(root, 'prebuilds')} fits and ${join(root, 'build', 'Release')} has none (${err.message.split('\n')[0]}).`,
    {
      fix: `Build it from source with \`npm rebuild wasm-soak\` (needs python3, make and a C compiler; install scripts must be allowed), or in a checkout with \`npm run build\`.`,
      exitCode: EXIT.FAILED,
      cause: err,
    },
  );
}

/** The addon's exports; throws the SoakError above (every time) when it cannot be loaded. */
export function loadAddon() {
  if (loaded) return loaded;
  if (failure) throw failure;
  try {
    // WASM_SOAK_ADDON names another build of the same addon to load instead:
    // the ASan/UBSan build of test/e2e/long/asan.test.js (docs/sanitizers.md).
    loaded = process.env.WASM_SOAK_ADDON ? require(process.env.WASM_SOAK_ADDON) : require('node-gyp-build')(root);
  } catch (err) {
    failure = missing(err);
    throw failure;
  }
  return loaded;
}

/** The addon's exports, or null when it cannot be loaded (for help texts). */
export function tryAddon() {
  try {
    return loadAddon();
  } catch {
    return null;
  }
}
