// The counting pass's memory.grow rewrite (src/worker/allocator/instrument.js,
// countGrows): its cost on a module whose step computes and grows rarely
// (memory.grow(0) on one call in 1024, as an allocator calls sbrk), and on
// one that calls memory.grow on every call (the worst case), each measured
// side by side with the same module unrewritten, in interleaved ABBA rounds
// of one run; printed as the ratio rewritten / original of ns per call.
import binaryen from 'binaryen';
import { instrumentAllocator, loadInstrumenter } from '../src/worker/allocator/instrument.js';

await loadInstrumenter();

const CALLS = 1_000_000;
const ROUNDS = 16;

/** A module whose step(i) runs a short loop and calls memory.grow(0) when i % every == 0. */
function moduleBytes(every) {
  const m = binaryen.parseText(`(module
    (memory (export "memory") 2 2)
    (func (export "step") (param $i i32) (result i32)
      (local $k i32) (local $x i32)
      (local.set $x (local.get $i))
      (loop $l
        (local.set $x (i32.add (i32.mul (local.get $x) (i32.const 1103515245)) (i32.const 12345)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br_if $l (i32.lt_u (local.get $k) (i32.const 16))))
      (if (i32.eqz (i32.rem_u (local.get $i) (i32.const ${every})))
        (then (local.set $x (i32.add (local.get $x) (memory.grow (i32.const 0))))))
      (local.get $x)))`);
  try {
    return m.emitBinary();
  } finally {
    m.dispose();
  }
}

function instance(bytes) {
  const imports = { wasm_soak: { event() {}, grow_failed() {} } };
  return new WebAssembly.Instance(new WebAssembly.Module(bytes), imports).exports.step;
}

/** ns per call of step over CALLS calls. */
function time(step) {
  let sink = 0;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) sink ^= step(i);
  const ns = Number(process.hrtime.bigint() - t0) / CALLS;
  if (sink === 0.5) console.log(sink);
  return ns;
}

for (const [label, every] of [
  ['grows on 1 call in 1024', 1024],
  ['grows on every call', 1],
]) {
  const bytes = moduleBytes(every);
  const original = instance(bytes);
  const rewritten = instance(instrumentAllocator(bytes).bytes);
  const a = [];
  const b = [];
  time(original); // warm-up, both tiers
  time(rewritten);
  for (let r = 0; r < ROUNDS; r++) {
    if (r % 2 === 0) {
      a.push(time(original));
      b.push(time(rewritten));
    } else {
      b.push(time(rewritten));
      a.push(time(original));
    }
  }
  const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
  const ratio = median(b) / median(a);
  console.log(
    `memory.grow rewrite, ${label}: ${median(a).toFixed(1)} ns -> ${median(b).toFixed(1)} ns per call, ratio ${ratio.toFixed(3)} (median of ${ROUNDS} ABBA rounds of ${CALLS} calls)`,
  );
}
