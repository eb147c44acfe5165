// The allocator swap's rewriter (src/worker/allocator/swap-rewrite.js) on a
// module whose own allocator is a pointer moving up from 1024: blocks from
// the bump allocator's region while the host's epoch is odd, from the
// module's own allocator otherwise and inside it (its realloc calling its
// malloc); the region reset when no block is live; realloc's copy, calloc's
// zeroes; a call that kept a block seen at the next one, the mark raised
// past it; and the calibration module's loops.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadBinaryen } from '../../../src/binaryen.js';
import {
  loadSwapRewriter,
  SWAP_IMPORTS,
  swapCalibrationModule,
  swapModule,
} from '../../../src/worker/allocator/swap-rewrite.js';

const WAT = `(module
  (memory (export "memory") 2)
  (global $own (mut i32) (i32.const 1024))
  (func $malloc (export "malloc") (param $n i32) (result i32)
    (local $p i32)
    (local.set $p (global.get $own))
    (global.set $own (i32.add (global.get $own) (i32.and (i32.add (local.get $n) (i32.const 15)) (i32.const -16))))
    (local.get $p))
  (func $free (export "free") (param i32))
  (func $realloc (export "realloc") (param $p i32) (param $n i32) (result i32) (call $malloc (local.get $n)))
  (func $calloc (export "calloc") (param i32 i32) (result i32) (call $malloc (i32.mul (local.get 0) (local.get 1)))))`;
const REGION = 4096;

/** The test module swapped and instantiated: { exports, epoch, heard } (heard: the host's imports' calls). */
async function swapped() {
  await loadSwapRewriter();
  const binaryen = await loadBinaryen();
  const text = binaryen.parseText(WAT);
  const bytes = text.emitBinary();
  text.dispose();
  const result = swapModule(bytes, new Map(), REGION);
  assert.deepEqual(result.entryPoints.sort(), ['calloc', 'free', 'malloc', 'realloc']);
  const epoch = new WebAssembly.Global({ value: 'i32', mutable: true }, 0);
  const heard = [];
  const { instance } = await WebAssembly.instantiate(result.bytes, {
    wasm_soak: {
      [SWAP_IMPORTS.epoch]: epoch,
      [SWAP_IMPORTS.kept]: (call) => heard.push(`kept ${call}`),
      [SWAP_IMPORTS.region]: (start) => heard.push(`region ${start}`),
      [SWAP_IMPORTS.over]: () => heard.push('over'),
    },
  });
  return { exports: instance.exports, epoch, heard };
}

test('swapModule: the bump allocator while the epoch is odd, the module’s own otherwise', async () => {
  const { exports: x, epoch, heard } = await swapped();
  epoch.value = 0; // outside a bumping call: the module's own
  assert.equal(x.malloc(8), 1024);
  epoch.value = 1 * 2 + 1;
  // The region is taken from the module's own allocator (1040), blocks after a 16-byte header.
  const a = x.malloc(8);
  const b = x.malloc(20);
  assert.deepEqual([a, b], [1056, 1088]);
  assert.deepEqual(heard, ['region 1040']);
  x.free(a);
  x.free(b); // none live: the top goes back
  assert.equal(x.malloc(8), 1056);
  // realloc: a new block with the old one's bytes; its own malloc at depth stays the module's.
  new Uint8Array(x.memory.buffer).set([1, 2, 3, 4, 5, 6, 7, 8], 1056);
  const c = x.realloc(1056, 64);
  assert.equal(c, 1088);
  assert.deepEqual([...new Uint8Array(x.memory.buffer, c, 8)], [1, 2, 3, 4, 5, 6, 7, 8]);
  x.free(c);
  new Uint8Array(x.memory.buffer).fill(0xff, 1056, 1056 + 16);
  assert.equal(x.calloc(4, 4), 1056);
  assert.deepEqual([...new Uint8Array(x.memory.buffer, 1056, 16)], new Array(16).fill(0));
  x.free(1056);
  epoch.value = 2 * 2; // a call that does not bump: the module's own
  assert.equal(x.malloc(8), 1040 + REGION);
  // More than the region holds: the module's own, and the host hears of it.
  epoch.value = 3 * 2 + 1;
  assert.equal(x.malloc(REGION), 1040 + REGION + 16);
  assert.deepEqual(heard, ['region 1040', 'over']);
});

test('swapModule: a call that keeps a block is seen at the next one, which bumps past it', async () => {
  const { exports: x, epoch, heard } = await swapped();
  epoch.value = 7 * 2 + 1;
  const kept = x.malloc(8);
  epoch.value = 8 * 2 + 1;
  const next = x.malloc(8);
  assert.deepEqual(heard, ['region 1024', 'kept 7']);
  assert.deepEqual([kept, next], [1040, 1072]);
  x.free(next);
  x.free(kept); // below the mark: left where it is
  assert.equal(x.malloc(8), next);
});

test('swapCalibrationModule: its loops run the swapped and the plain allocator', async () => {
  await loadSwapRewriter();
  const heard = [];
  const epoch = new WebAssembly.Global({ value: 'i32', mutable: true }, 3);
  const { instance } = await WebAssembly.instantiate(swapCalibrationModule(), {
    wasm_soak: {
      [SWAP_IMPORTS.epoch]: epoch,
      [SWAP_IMPORTS.kept]: () => heard.push('kept'),
      [SWAP_IMPORTS.region]: () => heard.push('region'),
      [SWAP_IMPORTS.over]: () => heard.push('over'),
    },
  });
  instance.exports.run_plain(10);
  assert.deepEqual(heard, []);
  instance.exports.run_swap(10);
  // The region taken once, every block from it: nothing kept, nothing over.
  assert.deepEqual(heard, ['region']);
});

test('swapModule: without a realloc found, only a module that names its functions is swapped', async () => {
  await loadSwapRewriter();
  const binaryen = await loadBinaryen();
  const text = binaryen.parseText(`(module
    (memory 1)
    (func $malloc (export "malloc") (param i32) (result i32) (i32.const 1024))
    (func $free (export "free") (param i32)))`);
  try {
    // No name section: a realloc could be there unseen, and would be handed a block of the region.
    assert.equal(swapModule(text.emitBinary(), new Map(), REGION), null);
    binaryen.setDebugInfo(true);
    assert.deepEqual(swapModule(text.emitBinary(), new Map(), REGION).entryPoints.sort(), ['free', 'malloc']);
  } finally {
    binaryen.setDebugInfo(false);
    text.dispose();
  }
});
