// compare's parts without a run: the ABBA block order (src/compare/design.js),
// the checked outputs' trampoline, the stated confounds and their few words,
// and --fail-if-slower's parser. Comparisons of the soak fixtures end to end:
// test/e2e/long/compare.test.js; compare's analysis on arms built by hand:
// test/unit/compare/analyze-compare.test.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareConfounds } from '../../../src/compare/confounds.js';
import { blockOrder, describeOrder } from '../../../src/compare/design.js';
import { parseGate } from '../../../src/options/parsers.js';
import { OUTPUT_COUNTER, OUTPUT_VALUES } from '../../../src/protocol.js';
import { confoundText } from '../../../src/report/compare-words.js';
import { buildTrampoline } from '../../../src/worker/targets/trampoline.js';

test('two arms run ABBA BAAB; more arms a balanced order', () => {
  assert.equal(describeOrder(blockOrder(2, 8), ['A', 'B']), 'AB BA BA AB AB BA BA AB');
  for (const n of [3, 4]) {
    const order = blockOrder(n, 2 * n);
    for (const round of order) assert.deepEqual([...round].sort(), [...Array(n).keys()]);
    // Every arm sits in every position equally often.
    for (let pos = 0; pos < n; pos++) {
      const seen = order.map((round) => round[pos]).sort();
      assert.deepEqual(
        seen,
        [...Array(n).keys()].flatMap((i) => [i, i]),
      );
    }
  }
});

test('checked outputs: the trampoline stores a fold of each call’s results and counts the calls', () => {
  const results = [];
  const fn = (x) => {
    results.push(x);
    return x * 3;
  };
  const ops = [{ fn, params: ['i32'], results: ['i32'] }];
  const t = buildTrampoline(ops, null, WebAssembly, 8);
  const slots = new Int32Array(t.slots);
  for (const x of [5, 7, 5]) {
    slots[0] = x;
    t.calls[0]();
  }
  assert.deepEqual(results, [5, 7, 5]);
  assert.equal(new Int32Array(t.slots, OUTPUT_COUNTER, 1)[0], 3);
  const values = new BigInt64Array(t.slots, OUTPUT_VALUES, 3);
  assert.equal(values[0], 15n);
  assert.equal(values[1], 21n);
  assert.equal(values[2], values[0]); // same call, same value
  // Without outputs the results are dropped and nothing is stored.
  const plain = buildTrampoline(ops, null, WebAssembly);
  assert.equal(plain.slots.byteLength, 65536);
  new Int32Array(plain.slots)[0] = 5;
  plain.calls[0]();
  assert.equal(new BigInt64Array(plain.slots, OUTPUT_VALUES, 1)[0], 0n);
});

test('confounds: what differs is listed apart from what matches', () => {
  const arm = (name, producers, census) => ({
    name,
    producers: { 'processed-by': [producers] },
    features: [],
    imports: [],
    memoryLimits: ['2..unbounded pages'],
    allocator: { exports: 'malloc/free', census },
  });
  const { differs, matches } = compareConfounds([arm('A', 'clang 14', 'dlmalloc'), arm('B', 'clang 17', null)]);
  assert.deepEqual(
    differs.map((d) => d.aspect),
    ['toolchain (producers section)', 'allocator (heap census)'],
  );
  assert.deepEqual(differs[1].values, { A: 'dlmalloc', B: 'not recognised' });
  assert.ok(matches.some((m) => m.aspect === 'memory limits' && m.value === '2..unbounded pages'));
  // Before the run the census is unknown and not listed at all.
  const early = compareConfounds([arm('A', 'x', undefined), arm('B', 'x', undefined)]);
  assert.ok(![...early.differs, ...early.matches].some((d) => d.aspect.includes('census')));
});

test('--fail-if-slower takes a percentage, a fraction or none', () => {
  assert.equal(parseGate('5%', 'fail-if-slower'), 0.05);
  assert.equal(parseGate('0.1', 'fail-if-slower'), 0.1);
  assert.equal(parseGate('none', 'fail-if-slower'), null);
  assert.throws(() => parseGate('fast', 'fail-if-slower'), /percentage such as 5%/);
});

test('the confounds in few words: hashed wasm-bindgen imports are counted, not listed', () => {
  const wbg = (names, hash) => names.map((n) => `wbg.__wbg_${n}_${hash} (function)`);
  const arms = [
    { name: 'A', imports: wbg(['log', 'now'], '0123456789abcdef') },
    { name: 'B', imports: [...wbg(['log', 'now'], 'fedcba9876543210'), 'wbg.__wbindgen_throw (function)'] },
  ];
  const differs = { aspect: 'imports', values: { A: arms[0].imports.join(', '), B: arms[1].imports.join(', ') } };
  assert.equal(confoundText(differs, arms), 'imports: A 2, B 3 (names differ by wasm-bindgen hashes; 1 only in B)');
  assert.equal(confoundText({ aspect: 'imports', value: 'x' }, [arms[0], arms[0]]), 'imports: 2 imports in every arm');
  const long = { aspect: 'toolchain (producers section)', values: { A: 'x'.repeat(100), B: 'y' } };
  assert.match(confoundText(long, arms), /^toolchain \(producers section\): A: x{59}… \| B: y$/);
});
