// The target's part of a failure's stack, for the terminal: the frames that
// are not wasm-soak's own (the worker and loop that called the target).
import { fileURLToPath } from 'node:url';

// wasm-soak's source folder, as a path and as a file: URL (ESM frames).
const HARNESS_URL = new URL('../', import.meta.url).href;
const HARNESS_PATH = fileURLToPath(HARNESS_URL);

// Frames of a panic's own machinery (Rust's panic runtime, the unwrap and
// expect helpers, C's abort): they say that a wasm module panicked, not
// where. A trap's useful frames are the innermost ones past them.
const PANIC_MACHINERY =
  /\bat (__rust_start_panic|__rust_abort|rust_panic|rust_begin_unwind|__rust_begin_short_backtrace|core::panicking::|core::result::unwrap_failed|core::option::(expect|unwrap)_failed|core::option::Option<.*>::(expect|unwrap)|core::result::Result<.*>::(expect|unwrap)|std::panicking::|std::panic::|std::sys::|std::rt::|panic_abort::|abort\b|__assert_fail|wasm_bindgen::throw_str)/;

/**
 * The first frames of summary.error.stack that are the target's: at most
 * max lines "at f (file:line:col)", a panic's own machinery left out (the
 * frames that say where it panicked come first); [] without a stack.
 */
export function targetFrames(error, max = 5) {
  if (typeof error?.stack !== 'string') return [];
  return error.stack
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('at ') && !line.includes(HARNESS_URL) && !line.includes(HARNESS_PATH))
    .filter((line) => !PANIC_MACHINERY.test(line))
    .slice(0, max);
}
