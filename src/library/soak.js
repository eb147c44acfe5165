// soak(): one soak run from JavaScript (src/index.js). The options are the
// command line's (src/options/schema.js), by their camelCase names, checked by
// the same parsers (src/options/values.js), with no command line between, so a bad value is the same SoakError `wasm-soak run`
// gives (exit 2, naming --the-flag). Nothing is installed on the host
// process: no signal handlers (an AbortSignal stops the run instead), no V8
// flags (the worker takes gc() for itself). Without `out` no file is
// written anywhere: the logs are kept in memory, capped at
// MEMORY_LOG_BYTES unless maxLogBytes says otherwise, and analysed there.
import { fileURLToPath } from 'node:url';
import { EXIT, SoakError, usageError } from '../errors.js';
import { argvOf } from '../options/argv.js';
import { MEMORY_LOG_BYTES, runConfig } from '../options/schema.js';
import { objectOptions, optionValues } from '../options/values.js';
import { abortInterrupts } from '../run/abort.js';
import { runWithBaseline } from './run-target.js';

// Options of `run` the library takes by their camelCase flag name; --out,
// --json, --quiet and --help have library forms of their own (or none).
export const RUN_OPTIONS = objectOptions('run', new Set(['out', 'json', 'quiet', 'help']));
const OWN = ['module | bytes | scenario', 'out', 'name', 'signal'];

const pathOf = (p) => (p instanceof URL ? fileURLToPath(p) : p);

/**
 * Soaks one target and resolves its summary (docs/summary.md). options:
 * exactly one of module (a .wasm path or URL), bytes (the module's bytes) and
 * scenario (a scenario .mjs path or URL); out: a result folder to write
 * (summary.json, logs, reports), else no file at all (the logs are kept in
 * memory, at most maxLogBytes, default MEMORY_LOG_BYTES); name: the summary's name;
 * signal: an AbortSignal that stops the run after its current call (the
 * summary is then "interrupted"); any option of `wasm-soak run` by its
 * camelCase name (call, args, iterations, duration, seed, countAllocs, ...).
 * Rejects with a SoakError, always: for bad options (exit 2 codes), a target
 * that could not start (exit 3), and anything else (exit 3, code
 * WS_EINTERNAL, the error as its cause).
 */
export async function soak(options = {}) {
  try {
    return await soakOnce(options);
  } catch (err) {
    if (err instanceof SoakError) throw err;
    throw new SoakError('WS_EINTERNAL', `soak() failed: ${err?.message ?? String(err)}`, {
      fix: "This is a wasm-soak error, not the target's: please report it with the options given to soak().",
      exitCode: EXIT.FAILED,
      cause: err,
    });
  }
}

/** The exit-2 error for soak()'s option field, which is not what it may be. */
function fieldError(field, value, may, example) {
  const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
  return usageError('WS_EUSAGE', `soak()'s ${field} must be ${may}, got ${got}.`, `Example: soak(${example})`);
}

const EXAMPLE = "{ module: 'lib.wasm', call: 'step', iterations: 20000 }";
const isPath = (v) => typeof v === 'string' || v instanceof URL;

/** Checks what soak() takes besides run's options (those are checked by their parsers); throws exit 2 naming the field. */
function checkOwnOptions(options) {
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw fieldError('options', options, 'one object', EXAMPLE);
  const { module, scenario, out, name, signal } = options;
  for (const [field, value] of [
    ['module', module],
    ['scenario', scenario],
  ])
    if (value !== undefined && !isPath(value))
      throw fieldError(field, value, 'a path (a string) or a file: URL', EXAMPLE);
  if (out != null && !isPath(out))
    throw fieldError('out', out, "a folder's path (a string) or a file: URL", "{ ..., out: 'soak-results/lib' }");
  if (name !== undefined && typeof name !== 'string')
    throw fieldError('name', name, 'a string', "{ ..., name: 'lib' }");
  if (signal !== undefined && !(signal instanceof AbortSignal))
    throw fieldError('signal', signal, 'an AbortSignal', '{ ..., signal: controller.signal }');
}

/** soak()'s run: its errors as they are thrown. */
async function soakOnce(options) {
  checkOwnOptions(options);
  const { module, bytes, scenario, out = null, name, signal, ...rest } = options;
  if ([module, bytes, scenario].filter((x) => x !== undefined).length !== 1) {
    throw usageError(
      'WS_EUSAGE',
      'soak() needs exactly one of module, bytes and scenario.',
      "Example: soak({ module: 'lib.wasm', call: 'step', iterations: 20000 })",
    );
  }
  if (bytes !== undefined && !(bytes instanceof Uint8Array)) {
    throw usageError(
      'WS_EUSAGE',
      'soak() takes bytes as a Uint8Array (or a Buffer) of the module.',
      "Example: soak({ bytes: readFileSync('lib.wasm'), call: 'step' })",
    );
  }
  if (rest.saveBaseline && out === null) {
    throw usageError(
      'WS_EUSAGE',
      'soak() saves a baseline from its result folder: saveBaseline needs out.',
      "Example: soak({ module: 'lib.wasm', call: 'step', out: 'soak-results/lib', saveBaseline: 'nightly' })",
    );
  }
  const values = optionValues(rest, RUN_OPTIONS, { caller: 'soak()', others: OWN });
  const flags = Object.entries(rest).flatMap(([k, v]) => argvOf(RUN_OPTIONS.get(k), v));
  const interrupt = abortInterrupts(signal);
  try {
    // Bytes have no file: the command that reproduces the run names one.
    const path = bytes ? `${name ?? 'module'}.wasm` : pathOf(module ?? scenario);
    // The command line that reproduces the run (the reports print it).
    const argv = [path, ...flags];
    // A baseline's seed and calls unless given; bytes have no file to size.
    const file = bytes ? null : path;
    const cfg = { ...runConfig(values), quiet: true, name };
    const inMemory = out === null;
    if (!inMemory) cfg.out = pathOf(out);
    else if (rest.maxLogBytes == null) cfg.maxLogBytes = MEMORY_LOG_BYTES;
    const source = bytes ? { bytes, name: name ?? 'module' } : path;
    const { summary } = await runWithBaseline(source, cfg, argv, { file, interrupt, inMemory });
    return summary;
  } finally {
    interrupt.dispose();
  }
}
