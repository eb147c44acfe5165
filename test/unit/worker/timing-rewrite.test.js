// The time-split rewriter (src/worker/allocator/timing-rewrite.js) on a
// small module: the stamps' order, one allocator event for the outermost
// call (a realloc calling malloc and free inside is one), memory.grow
// stamped inside the allocator, exports stamped, the results unchanged;
// and the calibration module's loops calling each stamp pair n times.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadBinaryen } from '../../../src/binaryen.js';
import { ALLOC_EVENT } from '../../../src/protocol.js';
import { calibrationModule, loadTimingRewriter, stampModule } from '../../../src/worker/allocator/timing-rewrite.js';

// malloc grows memory by a page and returns 16; realloc calls malloc and free; work uses all three.
const WAT = `(module
  (memory 1)
  (func $malloc (export "malloc") (param $n i32) (result i32)
    (drop (memory.grow (i32.const 1))) (i32.const 16))
  (func $free (export "free") (param $p i32))
  (func $realloc (export "realloc") (param $p i32) (param $n i32) (result i32)
    (local $q i32)
    (local.set $q (call $malloc (local.get $n)))
    (call $free (local.get $p))
    (local.get $q))
  (func (export "work") (result i32)
    (local $p i32)
    (local.set $p (call $malloc (i32.const 24)))
    (local.set $p (call $realloc (local.get $p) (i32.const 40)))
    (call $free (local.get $p))
    (i32.const 7)))`;

/** Hooks that log what they hear, in order. */
function logger() {
  const log = [];
  const hooks = {
    t_alloc_enter: () => log.push('a<'),
    t_alloc_exit: (kind, ptr, size) => log.push(`a> ${kind} ${ptr} ${size}`),
    t_grow_enter: () => log.push('g<'),
    t_grow_exit: () => log.push('g>'),
    t_export_enter: () => log.push('x<'),
    t_export_exit: () => log.push('x>'),
  };
  return { log, hooks };
}

test('stampModule: outermost allocator calls, grows inside them, exports, results unchanged', async () => {
  await loadTimingRewriter();
  const binaryen = await loadBinaryen();
  const text = binaryen.parseText(WAT);
  const bytes = text.emitBinary();
  text.dispose();
  const stamped = stampModule(bytes);
  assert.deepEqual(stamped.entryPoints.sort(), ['free', 'malloc', 'realloc']);
  assert.equal(stamped.exports, 4);
  const { log, hooks } = logger();
  const { instance } = await WebAssembly.instantiate(stamped.bytes, { wasm_soak: hooks });
  assert.equal(instance.exports.work(), 7);
  const { alloc, free, realloc } = ALLOC_EVENT;
  assert.deepEqual(log, [
    'x<',
    'a<',
    'g<',
    'g>',
    `a> ${alloc} 16 24`,
    'a<',
    'g<', // realloc's own malloc grows: stamped, but no allocator event of its own
    'g>',
    `a> ${realloc} 16 40`,
    'a<',
    `a> ${free} 16 0`,
    'x>',
  ]);
});

test('calibrationModule: each loop calls its stamp pair n times', async () => {
  await loadTimingRewriter();
  const { log, hooks } = logger();
  const { instance } = await WebAssembly.instantiate(calibrationModule(), { wasm_soak: hooks });
  instance.exports.run_plain(5);
  assert.equal(log.length, 0);
  instance.exports.run_a(3);
  assert.deepEqual(log.splice(0), [
    'a<',
    `a> ${ALLOC_EVENT.alloc} 8 8`,
    'a<',
    `a> ${ALLOC_EVENT.alloc} 8 8`,
    'a<',
    `a> ${ALLOC_EVENT.alloc} 8 8`,
  ]);
  instance.exports.run_g(2);
  assert.deepEqual(log.splice(0), ['g<', 'g>', 'g<', 'g>']);
  instance.exports.run_x(1);
  assert.deepEqual(log.splice(0), ['x<', 'x>']);
});
