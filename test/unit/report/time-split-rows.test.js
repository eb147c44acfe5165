// Where the time goes in words (src/report/time-split-rows.js) and in
// summary.md and report.html: the advice worded from the numbers, and an
// op's name the module controls shown as code, never as markup.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { timeSplitSection } from '../../../src/report/time-split-html.js';
import { timeSplitLines } from '../../../src/report/time-split-md.js';
import { adviceSentence, swapRows, timeSplitNote, timeSplitRows } from '../../../src/report/time-split-rows.js';

const COST = { outer: 130, inner: 57, innerSd: 6 };

/** A summary whose op spends share of its time in the allocator (advice code given). */
function summaryWith(op, code, shares) {
  return {
    timeSplit: {
      typical: 0.9,
      stampCost: { a: COST, u: { outer: 3, inner: 0, innerSd: 0 }, g: COST, x: COST },
      run: {
        grow: { warmup: { share: 0.02 }, steady: { share: 0 } },
        classes: {
          alloc: [{ sizeClass: 5, sampled: 10, events: 1000, nsPerEvent: 40, medianNs: 38 }],
          free: [{ sizeClass: null, sampled: 9, events: 900, nsPerEvent: 30, medianNs: 29 }],
          realloc: [],
        },
      },
      ops: [
        {
          op,
          calls: 1000,
          callNs: 10_000,
          timedCallNs: 9_800,
          ns: Object.fromEntries(Object.entries(shares).map(([k, v]) => [k, v * 10_000])),
          shares,
          allocatorShare: { share: shares.allocator, low: 0.35, high: 0.47 },
          eventsPerCall: 364_000,
          sampling: { rate: 3640, sampled: 100_000, nsPerEvent: 11, se: 0.1 },
          allocsPerCall: 182_000,
          bytesPerAlloc: 38,
          grow: { warmup: { calls: 100, grows: 3, share: 0.02 }, steady: { calls: 1000, grows: 0, share: 0 } },
          advice: { code, share: shares[code], bound: 1 / (1 - shares[code]) },
          classes: {},
        },
      ],
    },
  };
}

test("adviceSentence: the allocator's share, its allocations and the bound, from the numbers", () => {
  const s = summaryWith('parse', 'allocator', { algorithm: 0.5, allocator: 0.41, grow: 0, glue: 0.09 });
  assert.equal(
    adviceSentence(s.timeSplit.ops[0]),
    'the allocator takes 41 % of parse (182,000 allocations of 38 B per call; 95 % interval 35 %–47 %): ' +
      'fewer allocations or an arena will pay; a faster allocator makes it at most 1.7× faster',
  );
});

test('adviceSentence: the glue and the algorithm', () => {
  const glue = summaryWith('render', 'glue', { algorithm: 0.6, allocator: 0.05, grow: 0, glue: 0.35 });
  assert.match(adviceSentence(glue.timeSplit.ops[0]), /^the JS around the wasm calls \(.*\) takes 35 % of render: /);
  const algo = summaryWith('hash', 'algorithm', { algorithm: 0.97, allocator: 0.01, grow: 0, glue: 0.02 });
  assert.match(adviceSentence(algo.timeSplit.ops[0]), /^hash spends 97 % in its own code/);
});

test('swapRows: the swap’s measure beside the stamped one, an op that keeps memory left out with why', () => {
  const s = summaryWith('parse', 'allocator', { algorithm: 0.5, allocator: 0.41, grow: 0, glue: 0.09 });
  const stamped = { ns: 4100, low: 3500, high: 4700 };
  s.timeSplit.swap = {
    status: 'measured',
    costs: { own: 2, bump: 3, extra: -1, extraSd: 0 },
    regionBytes: 1 << 20,
    ops: [
      { op: 'parse', status: 'measured', allocatorNs: 3900, low: -6400, high: 4200, stamped, agree: true },
      { op: 'cache', status: 'keeps-memory', keptCalls: 1, allocatorNs: null, stamped, agree: null },
    ],
  };
  assert.deepEqual(swapRows(s), [
    // An interval reaching below 0 (an estimate near it) with a minus sign.
    { name: 'parse', swap: '3.90 µs (−6.40 µs–4.20 µs)', stamped: '4.10 µs (3.50 µs–4.70 µs)', agree: 'yes' },
    {
      name: 'cache',
      swap: 'left out: 1 call kept blocks past the call (the op keeps memory between calls)',
      stamped: '4.10 µs (3.50 µs–4.70 µs)',
      agree: '–',
    },
  ]);
  assert.match(timeSplitLines(s).join('\n'), /\| parse \| 3\.90 µs \(−6\.40 µs–4\.20 µs\) \| 4\.10 µs/);
  assert.match(timeSplitSection(s), /id="allocator-swap"/);
  s.timeSplit.swap.status = 'not-swapped';
  assert.match(swapRows(s)[0].swap, /^not measured: no allocator the swap can route safely/);
});

test('summary.md and report.html: the table, and an op name the module controls as code', () => {
  const name = '<img src=x>`|*';
  const s = summaryWith(name, 'allocator', { algorithm: 0.5, allocator: 0.41, grow: 0, glue: 0.09 });
  assert.equal(timeSplitRows(s)[0].allocatorInterval, '35 %–47 %');
  const md = timeSplitLines(s).join('\n');
  assert.match(md, /\| algorithm \| allocator \| memory\.grow \| JS glue \|/);
  assert.match(md, /- The allocator takes 41 % of ``<img src=x>`\|\*`` \(182,000 allocations/);
  const html = timeSplitSection(s);
  assert.ok(!html.includes('<img'), 'the op name is escaped');
  assert.ok(html.includes('<code>&#60;img src=x&#62;`|*</code>'));
  // Frees are one row: a freed block's size is not known to the sampler.
  assert.match(md, /\| free \| any \(not known\) \| 900 \|/);
  assert.match(md, /1 in 3,640 stamped at random/);
  assert.doesNotMatch(md, /allocator per call, swapped/);
  assert.equal(timeSplitSection({}), '');
  assert.deepEqual(timeSplitLines({}), []);
});

test('timeSplitNote: the stamps’ cost where the module ran, once when pooled, and the sum against the timed pass with the pass’s drift', () => {
  const s = summaryWith('parse', 'allocator', { algorithm: 0.5, allocator: 0.41, grow: 0, glue: 0.09 });
  Object.assign(s.timeSplit.ops[0], {
    controlCallNs: 9_900,
    drift: 0.062,
    callSe: 100,
    stampContext: {
      x: { ns: 250, se: 20, source: 'context' },
      a: { ns: 1_100, se: 90, source: 'context' },
      n: { ns: 130, se: null, source: 'calibration' },
    },
  });
  const note = timeSplitNote(s);
  assert.match(
    note,
    /same call \(250 ns per export call, 1\.10 µs per stamped allocator call, 130 ns \(calibrated\) per null sample\);/,
  );
  // Two ops with the same costs (pooled): said once; with their own: each named.
  const second = { ...s.timeSplit.ops[0], op: 'cache' };
  const two = { timeSplit: { ...s.timeSplit, ops: [s.timeSplit.ops[0], second] } };
  assert.match(timeSplitNote(two), /null sample, pooled over the ops\);/);
  second.stampContext = { ...second.stampContext, x: { ns: 300, se: 20, source: 'context' } };
  assert.match(timeSplitNote(two), /\(parse: 250 ns per export call, .*; cache: 300 ns per export call, /);
  assert.match(
    note,
    /parse: 10\.00 µs ± 196 ns against 9\.80 µs timed \(its calls stamped nowhere \+6\.2 % against the timed pass's\)\.$/,
  );
});
