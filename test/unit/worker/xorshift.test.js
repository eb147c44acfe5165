// The passes' xorshift32 streams (src/worker/xorshift.js): the textbook
// sequence (13, 17, 5), the same from the same seed, as uint32s.
import assert from 'node:assert/strict';
import test from 'node:test';
import { xorshift32 } from '../../../src/worker/xorshift.js';

test('xorshift32 gives the 13/17/5 sequence of its seed, as uint32s, again from the same seed', () => {
  const next = xorshift32(1);
  assert.deepEqual([next(), next()], [270369, 67634689]);
  const a = xorshift32(0x9e3779b9);
  const b = xorshift32(0x9e3779b9);
  for (let i = 0; i < 1000; i++) {
    const x = a();
    assert.equal(x, b());
    assert.ok(Number.isInteger(x) && x > 0 && x < 2 ** 32, `${x}`);
  }
});
