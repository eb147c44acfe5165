// Loads the compiled addon (build/Release or a prebuild) with node-gyp-build.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export const addon = require('node-gyp-build')(root);
