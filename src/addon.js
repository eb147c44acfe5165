// The compiled addon, for the modules that cannot work without it (the
// worker, the analysis, the protocol constants): importing this module loads
// it, or throws the SoakError of native.js (exit 3).
import { loadAddon } from './native.js';

export const addon = loadAddon();
