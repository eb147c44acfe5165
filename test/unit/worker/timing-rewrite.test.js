// The time-split rewriter (src/worker/allocator/timing-rewrite.js) on a
// small module: the stamps' order, one allocator event for the outermost
// call (a realloc calling malloc and free inside is one), memory.grow
// stamped inside the allocator, exports stamped with the allocator's
// counters, the sampler stamping only the calls its countdown reaches, the
// results unchanged; a control call (the ON import at 0) stamping only
// its grows and counting nothing; and the calibration module's loops calling each stamp
// pair n times (none for the sampler's unsampled path).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadBinaryen } from '../../../src/binaryen.js';
import { ALLOC_EVENT } from '../../../src/protocol.js';
import {
  calibrationModule,
  loadTimingRewriter,
  NULL_SAMPLE,
  ON,
  stampModule,
} from '../../../src/worker/allocator/timing-rewrite.js';

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

/**
 * Hooks that log what they hear, in order; the exit stamps set the next
 * sample: the countdown to it, gaps in turn, and whether it is a null one
 * (nulls: the samples that are, by their number from 0). on: the ON
 * global (1: the calls are stamped).
 */
function logger(gaps = [1], nulls = new Set()) {
  const log = [];
  const on = new WebAssembly.Global({ value: 'i32', mutable: true }, 1);
  let samples = 0;
  const next = () => {
    const gap = gaps[samples % gaps.length];
    return gap * 2 + (nulls.has(++samples) ? 1 : 0);
  };
  const hooks = {
    [ON]: on,
    t_alloc_enter: () => log.push('a<'),
    t_alloc_exit: (kind, ptr, size) => {
      log.push(`a> ${kind} ${ptr} ${size}`);
      return next();
    },
    t_grow_enter: () => log.push('g<'),
    t_grow_exit: () => log.push('g>'),
    t_export_enter: (events) => log.push(`x< ${events}`),
    t_export_exit: (events, allocs, bytes) => log.push(`x> ${events} ${allocs} ${bytes}`),
  };
  return { log, hooks, on };
}

/** The test module's bytes. */
async function moduleBytes() {
  await loadTimingRewriter();
  const binaryen = await loadBinaryen();
  const text = binaryen.parseText(WAT);
  const bytes = text.emitBinary();
  text.dispose();
  return bytes;
}

test('stampModule: outermost allocator calls, grows inside them, exports, results unchanged', async () => {
  const stamped = stampModule(await moduleBytes());
  assert.deepEqual(stamped.entryPoints.sort(), ['free', 'malloc', 'realloc']);
  assert.equal(stamped.exports, 4);
  const { log, hooks } = logger();
  const { instance } = await WebAssembly.instantiate(stamped.bytes, { wasm_soak: hooks });
  assert.equal(instance.exports.work(), 7);
  const { alloc, free, realloc } = ALLOC_EVENT;
  assert.deepEqual(log, [
    'x< 0',
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
    // 3 events, 2 of them allocations (malloc, realloc) of 24 + 40 bytes.
    'x> 3 2 64',
  ]);
});

test('stampModule: the sampler stamps the calls its countdown reaches and counts every one', async () => {
  const { log, hooks } = logger([2]);
  const { instance } = await WebAssembly.instantiate(stampModule(await moduleBytes()).bytes, { wasm_soak: hooks });
  assert.equal(instance.exports.work(), 7);
  assert.equal(instance.exports.work(), 7);
  const { alloc, free, realloc } = ALLOC_EVENT;
  // The countdown starts at 1, then 2 after each sampled call: events 1, 3, 5 of 6 are stamped.
  assert.deepEqual(log, [
    'x< 0',
    'a<',
    'g<',
    'g>',
    `a> ${alloc} 16 24`,
    'g<', // realloc's own malloc grows: stamped apart from the allocator's
    'g>',
    'a<',
    `a> ${free} 16 0`,
    'x> 3 2 64',
    'x< 0', // the counters started again at the export's exit
    'g<',
    'g>',
    'a<',
    'g<',
    'g>',
    `a> ${realloc} 16 40`,
    'x> 3 2 64',
  ]);
});

test('stampModule: a null sample stamps twice at once, and the allocator’s call after it goes unstamped', async () => {
  // The first sample is real and makes the second a null one, 1 call later.
  const { log, hooks } = logger([1], new Set([1]));
  const { instance } = await WebAssembly.instantiate(stampModule(await moduleBytes()).bytes, { wasm_soak: hooks });
  assert.equal(instance.exports.work(), 7);
  const { alloc, free } = ALLOC_EVENT;
  assert.deepEqual(log, [
    'x< 0',
    'a<',
    'g<',
    'g>',
    `a> ${alloc} 16 24`,
    'a<',
    `a> ${NULL_SAMPLE} 0 0`, // realloc: its stamps with nothing between, then its call
    'g<',
    'g>',
    'a<',
    `a> ${free} 16 0`,
    'x> 3 2 64',
  ]);
});

test('stampModule: a control call (ON at 0) stamps only its grows, counts nothing, and the countdown waits', async () => {
  const { log, hooks, on } = logger([2]);
  const { instance } = await WebAssembly.instantiate(stampModule(await moduleBytes()).bytes, { wasm_soak: hooks });
  on.value = 0;
  assert.equal(instance.exports.work(), 7);
  // memory.grow stays stamped: its time is measured over every call.
  assert.deepEqual(log.splice(0), ['g<', 'g>', 'g<', 'g>']);
  // The next stamped call starts where the countdown was (its first allocator
  // call sampled) and its counters hold its own events only.
  on.value = 1;
  assert.equal(instance.exports.work(), 7);
  assert.deepEqual(log.slice(0, 2), ['x< 0', 'a<']);
  assert.equal(log.at(-1), 'x> 3 2 64');
});

test('calibrationModule: each loop calls its stamp pair n times', async () => {
  await loadTimingRewriter();
  const { log, hooks } = logger();
  const { instance } = await WebAssembly.instantiate(calibrationModule(), { wasm_soak: hooks });
  instance.exports.run_plain(5);
  assert.equal(log.length, 0);
  instance.exports.run_u(4);
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
  assert.deepEqual(log.splice(0), ['x< 7', 'x> 7 7 56']);
});
