// The cost of allocation sites (--sites) against the counting pass without
// them, each module instrumented and driven as the worker does
// (createCounting's rewrite and hooks, createSites's buffer and C table):
// ns per call, in interleaved ABBA rounds of one run, printed as the ratio
// with sites / without (target <= 3). Two workloads: the sites fixture
// (soak/modules/sites.wasm: an op three calls above malloc and an op on a
// dlmalloc working set, alternating) and a worst case built here, where
// every call of the step is on a path to malloc, so that each of its 65
// calls pushes and pops the frames, and one call in 4 allocates.
import { readFileSync } from 'node:fs';
import { WASI } from 'node:wasi';
import binaryen from 'binaryen';
import { CTL_WORDS } from '../src/protocol.js';
import { createCounting } from '../src/worker/allocator/counting.js';
import { createSites } from '../src/worker/allocator/sites.js';

const CALLS = 200_000;
const ROUNDS = 8;
const TARGET = 3;

/** A call-heavy module: step calls helper 64 times; helper calls leaf, and malloc/free one time in 4. */
function callHeavyBytes() {
  const m = binaryen.parseText(`(module
    (memory (export "memory") 2)
    (global $top (mut i32) (i32.const 1024))
    (func $malloc (export "malloc") (param $n i32) (result i32)
      (local $p i32)
      (local.set $p (global.get $top))
      (global.set $top (i32.and (i32.add (global.get $top) (i32.const 16)) (i32.const 65535)))
      (local.get $p))
    (func $free (export "free") (param $p i32))
    (func $leaf (param $x i32) (result i32)
      (i32.add (i32.mul (local.get $x) (i32.const 1103515245)) (i32.const 12345)))
    (func $helper (param $x i32) (result i32)
      (local.set $x (call $leaf (local.get $x)))
      (if (i32.eqz (i32.and (local.get $x) (i32.const 3)))
        (then (call $free (call $malloc (i32.const 16)))))
      (local.get $x))
    (func (export "step") (param $i i32) (result i32)
      (local $k i32)
      (loop $l
        (local.set $i (call $helper (local.get $i)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br_if $l (i32.lt_u (local.get $k) (i32.const 64))))
      (local.get $i)))`);
  try {
    return m.emitBinary();
  } finally {
    m.dispose();
  }
}

/** The exports of bytes instrumented for the counting pass, with sites or without. */
async function instrumented(bytes, withSites) {
  const control = new Int32Array(new SharedArrayBuffer(CTL_WORDS * 4));
  const sites = withSites ? createSites({ control, iterations: null }) : null;
  const counting = await createCounting({ sites });
  const { bytes: rewritten, imports } = counting.transform(bytes);
  const wasi = new WASI({ version: 'preview1' });
  const all = { ...wasi.getImportObject(), ...imports };
  const instance = new WebAssembly.Instance(new WebAssembly.Module(rewritten), all);
  if (instance.exports._initialize) wasi.initialize(instance);
  return instance.exports;
}

/** ns per call of call(i) over CALLS calls. */
function time(call) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) call(i);
  return Number(process.hrtime.bigint() - t0) / CALLS;
}

const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];

const workloads = [
  {
    label: 'sites fixture (request + store)',
    bytes: readFileSync(new URL('../soak/modules/sites.wasm', import.meta.url)),
    call: (e) => (i) => (i & 1 ? e.request(i) : e.store(i)),
  },
  { label: 'worst case (every call on a path to malloc)', bytes: callHeavyBytes(), call: (e) => (i) => e.step(i) },
];

for (const { label, bytes, call } of workloads) {
  const without = call(await instrumented(bytes, false));
  const withSites = call(await instrumented(bytes, true));
  const a = [];
  const b = [];
  time(without); // warm-up, both tiers
  time(withSites);
  for (let r = 0; r < ROUNDS; r++) {
    if (r % 2 === 0) {
      a.push(time(without));
      b.push(time(withSites));
    } else {
      b.push(time(withSites));
      a.push(time(without));
    }
  }
  const ratio = median(b) / median(a);
  console.log(
    `allocation sites, ${label}: counting pass ${median(a).toFixed(0)} ns -> ${median(b).toFixed(0)} ns per call with sites, ratio ${ratio.toFixed(2)} (target <= ${TARGET}) ${ratio <= TARGET ? 'ok' : 'MISSED'} (median of ${ROUNDS} ABBA rounds of ${CALLS} calls)`,
  );
}
