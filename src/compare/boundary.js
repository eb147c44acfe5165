// The boundary-cost control of a comparison: a synthesised module whose
// exports have the signatures of the compared ops and do nothing but return
// zeros. Timed in the same blocks as the arms, it is pure call and
// marshalling cost (the loop, the trampoline, the clock), the part of a
// small call that is the boundary rather than the code.
import { loadBinaryen } from '../binaryen.js';
import { PAGE_BYTES } from '../protocol.js';
import { chooseCalls } from '../worker/targets/choose-calls.js';

// Where the stand-in allocator places every buffer: one block, reused.
const BUFFER_AT = 1024;

/** A zero constant of a wasm type name. */
function zero(m, t) {
  if (t === 'i32') return m.i32.const(0);
  if (t === 'i64') return m.i64.const(0, 0);
  if (t === 'f32') return m.f32.const(0);
  return m.f64.const(0);
}

/**
 * The bytes of the boundary module for the ops of the module described by
 * info (inspectModule) under cfg ({ calls, args }): each op an empty export
 * of the same signature; with buffer arguments a memory large enough for the
 * largest buffer and a malloc that always returns the same block and a free
 * that does nothing (the empty function never reads it). Throws the same
 * usage errors as a raw target for an ambiguous or missing --call.
 * Resolves the bytes (binaryen loads on first use).
 */
export async function buildBoundaryModule(info, cfg, path) {
  const calls = chooseCalls(info, cfg.calls, path);
  const binaryen = await loadBinaryen();
  const TYPES = { i32: binaryen.i32, i64: binaryen.i64, f32: binaryen.f32, f64: binaryen.f64 };
  const m = new binaryen.Module();
  for (const c of calls) {
    const exp = info.exports.find((e) => e.name === c.name);
    const params = binaryen.createType(exp.params.map((t) => TYPES[t]));
    const results = binaryen.createType(exp.results.map((t) => TYPES[t]));
    const body =
      exp.results.length === 0
        ? m.nop()
        : exp.results.length === 1
          ? zero(m, exp.results[0])
          : m.tuple.make(exp.results.map((t) => zero(m, t)));
    m.addFunction(c.name, params, results, [], body);
    m.addFunctionExport(c.name, c.name);
  }
  const largest = Math.max(0, ...cfg.args.flatMap((a) => a.sources.filter((s) => s.kind === 'buf').map((s) => s.hi)));
  const pages = 1 + Math.ceil((BUFFER_AT + largest) / PAGE_BYTES);
  m.setMemory(pages, pages, 'memory');
  if (largest > 0) {
    m.addFunction('malloc', binaryen.createType([binaryen.i32]), binaryen.i32, [], m.i32.const(BUFFER_AT));
    m.addFunction('free', binaryen.createType([binaryen.i32]), binaryen.none, [], m.nop());
    m.addFunctionExport('malloc', 'malloc');
    m.addFunctionExport('free', 'free');
  }
  m.setFeatures(binaryen.Features.MVP | binaryen.Features.Multivalue);
  if (!m.validate()) throw new Error('the boundary module did not validate');
  const bytes = m.emitBinary();
  m.dispose();
  return bytes;
}
