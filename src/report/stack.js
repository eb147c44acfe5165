// The target's part of a failure's stack, for the terminal: the frames that
// are not wasm-soak's own (the worker and loop that called the target).
import { fileURLToPath } from 'node:url';

// wasm-soak's source folder, as a path and as a file: URL (ESM frames).
const HARNESS_URL = new URL('../', import.meta.url).href;
const HARNESS_PATH = fileURLToPath(HARNESS_URL);

/**
 * The first frames of summary.error.stack that are the target's: at most
 * max lines "at f (file:line:col)"; [] without a stack.
 */
export function targetFrames(error, max = 5) {
  if (typeof error?.stack !== 'string') return [];
  return error.stack
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('at ') && !line.includes(HARNESS_URL) && !line.includes(HARNESS_PATH))
    .slice(0, max);
}
