// Loads the compiled addon (build/Release or a prebuild) with node-gyp-build.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// WASM_SOAK_ADDON names another build of the same addon to load instead:
// the ASan/UBSan build of test/asan.test.js (docs/sanitizers.md).
export const addon = process.env.WASM_SOAK_ADDON
  ? require(process.env.WASM_SOAK_ADDON)
  : require('node-gyp-build')(root);
