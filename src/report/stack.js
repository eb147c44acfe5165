// The target's part of a failure's stack, for the reports: the frames that
// are not wasm-soak's own (the worker and loop that called the target, the
// argument trampoline of a raw module), nor
// the machinery of a panic, an abort or a thrown exception.
import { fileURLToPath } from 'node:url';
import { TRAMPOLINE_NAME } from '../harness-names.js';

// wasm-soak's source folder, as a path and as a file: URL (ESM frames).
const HARNESS_URL = new URL('../', import.meta.url).href;
const HARNESS_PATH = fileURLToPath(HARNESS_URL);

// Functions of a language runtime's panic, abort or throw machinery, by
// their (demangled) name: they say that the module gave up, not where. Rust
// (the panic runtime, the unwrap and expect helpers, the allocation-failure
// handlers), C and C++ (abort, assert, exceptions and terminate, as a wasm
// function or the Emscripten glue's JS one), Go and TinyGo (runtime panics),
// AssemblyScript (its abort). A frame of one of them is skipped wherever it
// sits; the innermost frames past them are where the module failed.
const MACHINERY = [
  /^(core|std|alloc|panic_abort|panic_unwind)::(panicking|panic|rt|process::abort|alloc::(handle_alloc_error|rust_oom))\b/,
  /^std::sys(_common)?::(backtrace|.*abort)/,
  /^core::(result::unwrap_failed|option::(expect|unwrap)_failed|option::Option<.*>::(expect|unwrap)|result::Result<.*>::(expect|unwrap))\b/,
  /^(__rust_start_panic|__rust_abort|rust_panic|rust_begin_unwind|rust_oom|__rust_begin_short_backtrace|__rust_end_short_backtrace|__rg_oom|__rdl_oom|__rust_alloc_error_handler)\b/,
  /^_*(abort|abort_message|abortOnCannotGrowMemory|assert_fail|assert_func|cxa_throw|cxa_rethrow|cxa_call_terminate|Unwind_RaiseException|emscripten_throw_longjmp)$/,
  /^(std::(__\d+::)?(terminate|__terminate)|__cxxabiv1::)/,
  /^runtime\.(runtimePanic\w*|_?panic\w*|\w+Panic|abort|throw|fatal\w*)$/,
  /^~lib\/builtins\/abort$/,
];

// A Rust symbol in the legacy mangling (_ZN4core9panicking9panic_fmt17h…E)
// as a path (core::panicking::panic_fmt::h…); any other name as it is.
function demangled(name) {
  if (!/^_ZN\d/.test(name)) return name;
  const parts = [];
  let i = 3;
  while (i < name.length && name[i] !== 'E') {
    const digits = /^\d+/.exec(name.slice(i))?.[0];
    if (!digits) return name;
    i += digits.length;
    parts.push(name.slice(i, i + Number(digits)));
    i += Number(digits);
  }
  return parts.join('::');
}

/** The function a stack line "at NAME (where)" names, demangled; '' for an anonymous frame. */
function frameFunction(line) {
  const m = /^at (?:async )?(.+?) \(/.exec(line);
  return m ? demangled(m[1].replace(/^(Module|Object|Function)\./, '')) : '';
}

/** Whether a stack line is a frame of a panic's, an abort's or a throw's own machinery. */
export const isMachinery = (line) => MACHINERY.some((re) => re.test(frameFunction(line)));

/** What the reports call the frames targetFrames gives. */
export const FRAMES_HEADING =
  "Where it failed: the target's innermost frames (its panic, abort and throw machinery left out)";

/**
 * The first frames of summary.error.stack that are the target's: at most
 * max lines "at f (file:line:col)", innermost first, wasm-soak's own frames
 * and the panic, abort and throw machinery left out (a Rust panic's trap
 * starts with the frames that say where it panicked); [] without a stack.
 */
export function targetFrames(error, max = 5) {
  if (typeof error?.stack !== 'string') return [];
  return error.stack
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('at ') && !line.includes(HARNESS_URL) && !line.includes(HARNESS_PATH))
    .filter((line) => frameFunction(line) !== TRAMPOLINE_NAME)
    .filter((line) => !isMachinery(line))
    .slice(0, max);
}
