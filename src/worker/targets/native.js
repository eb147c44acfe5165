// Prepares a native arm for the runner (worker side, in compare's child
// process, src/compare/native-child.js): the ops and their argument sources
// come from the wasm arm's signatures (target.reference), exactly as that
// arm's own (raw.js), so both run the same seeded call plan; the C loop then
// calls the shared library's functions of the same names through the native
// engine (addon/core/ws_native.c).
import { readFileSync } from 'node:fs';
import { usageError } from '../../errors.js';
import { OUTPUT_VALUES, VALUE_TYPE } from '../../protocol.js';
import { chooseCalls } from './choose-calls.js';
import { argSources, checkArgOps, outputCapacity, signatureOf } from './raw.js';
import { inspectModule } from './wasm-info.js';

/**
 * The ops of native library target.path under config, with the signatures
 * of the wasm module target.reference: { ops: [{ name, weight, args,
 * signature }], native: createRunner's native option, slots: the checked
 * outputs' ArrayBuffer or null }. Throws exit-2 SoakErrors for a signature
 * a native call cannot pass (several results).
 */
export function prepareNativeTarget(target, config) {
  const info = inspectModule(readFileSync(target.reference));
  const calls = chooseCalls(info, config.calls, target.reference);
  checkArgOps(config.args, calls, target.reference);
  const ops = calls.map((c) => {
    const exp = info.exports.find((e) => e.name === c.name);
    if (exp.results.length > 1 || exp.results.some((t) => !(t in VALUE_TYPE))) {
      throw usageError(
        'WS_ESIGNATURE',
        `${c.name}${signatureOf(exp)} in ${target.reference} returns ${exp.results.join(', ')}, which a native call cannot return alike.`,
        'Compare ops that return one i32, i64, f32 or f64 (or nothing) with a native arm.',
      );
    }
    return { name: c.name, weight: c.weight, args: argSources(exp, config.args), signature: signatureOf(exp), exp };
  });
  const capacity = outputCapacity(config.checkOutputs, config.blockCalls);
  const slots = capacity ? new ArrayBuffer(OUTPUT_VALUES + 8 * capacity) : null;
  const native = {
    path: target.path,
    names: ops.map((op) => op.name),
    results: ops.map((op) => (op.exp.results.length ? VALUE_TYPE[op.exp.results[0]] : -1)),
    outputs: slots,
  };
  return { ops: ops.map(({ exp, ...op }) => op), native, slots };
}

/**
 * The exit-2 error of a library the native engine could not open (err:
 * createRunner's WS_ELIBRARY or WS_ESYMBOL), naming the problem and the fix;
 * other errors as they are.
 */
export function nativeOpenError(err, path) {
  if (err?.code === 'WS_ELIBRARY') {
    return usageError(
      'WS_ELIBRARY',
      `${path} could not be loaded: ${err.message}.`,
      'Build the library for this machine (gcc or clang -shared -fPIC) with every library it links installed.',
    );
  }
  if (err?.code === 'WS_ESYMBOL') {
    return usageError(
      'WS_ESYMBOL',
      `${path} does not export the function "${err.message}" that the wasm arm exports.`,
      'Build the library from the same source, exporting the function under the same name (default visibility, no C++ name mangling: extern "C").',
    );
  }
  return err;
}
