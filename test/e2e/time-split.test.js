// --time-split end to end: the pass's stamps on a raw module's allocator
// (the churn fixture on dlmalloc: 4 allocations per call, every call) and
// on a scenario whose module grows its memory, the four parts adding up to
// the pass's call time, and the section in summary.md and report.html; the
// allocator swap leaving out an op that keeps blocks between calls, and on
// the allocator fixtures' op that frees all it allocates, measured beside
// the stamped part. Only what holds at any load is asserted: whether the
// two measures agree is a timing claim, checked in bench/time-split.js.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fixture, runToSummary } from '../helpers.js';

const PARTS = ['algorithm', 'allocator', 'grow', 'glue'];

test('--time-split on a raw module: the allocator stamped, its allocations per call exact, the parts adding up', async () => {
  const { out, summary } = await runToSummary([
    'run',
    fixture('soak/modules/alloc-dlmalloc.wasm'),
    '--call',
    'step',
    '-n',
    '1000',
    '--time-split',
    '--format',
    'html,md',
  ]);
  const t = summary.timeSplit;
  assert.ok(t, 'summary.timeSplit');
  assert.deepEqual(t.parts, PARTS);
  assert.ok(t.stamped[0].entryPoints.includes('malloc') && t.stamped[0].entryPoints.includes('free'));
  const o = t.ops[0];
  assert.equal(o.op, 'step');
  // churn.h: 4 turns per call, each one allocation (the counting pass's median and p99 are 4).
  assert.equal(o.allocsPerCall, 4);
  // Every allocator call counted, a sample of them stamped.
  assert.ok(o.sampling.rate > 1 && o.sampling.sampled > 0, JSON.stringify(o.sampling));
  assert.ok(o.sampling.sampled < o.eventsPerCall * o.calls);
  assert.ok(o.calls > 0);
  const sum = PARTS.reduce((a, p) => a + o.ns[p], 0);
  assert.ok(Math.abs(sum - o.callNs) <= 1e-6 * o.callNs, `${sum} = ${o.callNs}`);
  assert.ok(o.allocatorShare.low <= o.allocatorShare.share && o.allocatorShare.share <= o.allocatorShare.high);
  for (const k of ['a', 'g', 'x']) assert.ok(t.stampCost[k].outer > 0 && t.stampCost[k].inner > 0, k);
  assert.ok(o.classes.alloc.reduce((a, c) => a + c.events, 0) > 0);
  // step keeps its blocks in a table between calls: the swap leaves it out.
  assert.equal(t.swap.ops[0].status, 'keeps-memory');
  assert.ok(t.swap.ops[0].keptCalls > 0);
  assert.ok(existsSync(join(out, 'time-split.json')));
  const md = readFileSync(join(out, 'summary.md'), 'utf8');
  assert.match(md, /\*\*Where the time goes\*\*/);
  assert.match(md, /\| step \| left out: \d+ calls? kept blocks past the call/);
  assert.match(readFileSync(join(out, 'report.html'), 'utf8'), /<section id="where-time-goes">/);
});

for (const allocator of ['dlmalloc', 'firstfit'])
  test(`--time-split on ${allocator}'s scratch: the swap measured beside the stamped allocator part`, async () => {
    const { out, summary } = await runToSummary([
      'run',
      fixture(`soak/modules/alloc-${allocator}.wasm`),
      '--call',
      'scratch',
      '-n',
      '20000',
      '--time-split',
      '--format',
      'html,md',
    ]);
    const { swap } = summary.timeSplit;
    assert.equal(swap.status, 'measured');
    const o = swap.ops[0];
    assert.equal(o.status, 'measured');
    assert.ok(o.low <= o.allocatorNs && o.allocatorNs <= o.high, JSON.stringify(o));
    for (const x of [o.allocatorNs, o.low, o.high, o.stamped.ns, o.stamped.low, o.stamped.high])
      assert.ok(Number.isFinite(x), JSON.stringify(o));
    assert.ok(o.stamped.low <= o.stamped.ns && o.stamped.ns <= o.stamped.high, JSON.stringify(o.stamped));
    // Whether they agree depends on the machine's load: its accuracy is bench/time-split.js's target.
    assert.equal(typeof o.agree, 'boolean');
    assert.match(readFileSync(join(out, 'report.html'), 'utf8'), /<table class="grid" id="allocator-swap">/);
    assert.match(
      readFileSync(join(out, 'summary.md'), 'utf8'),
      /\| op \| allocator per call, swapped \(95 %\) \| stamped \(95 %\) \| agree \|\n[^\n]*\n\| scratch \| /,
    );
  });

test('without --time-split: no pass, no time-split.json, summary.timeSplit null', async () => {
  const { out, summary } = await runToSummary([
    'run',
    fixture('soak/modules/alloc-dlmalloc.wasm'),
    '--call',
    'step',
    '-n',
    '200',
    '--format',
    'md',
  ]);
  assert.equal(summary.timeSplit, null);
  assert.ok(!existsSync(join(out, 'time-split.json')));
  assert.doesNotMatch(readFileSync(join(out, 'summary.md'), 'utf8'), /Where the time goes/);
});

test('--time-split on a scenario: its exports stamped, and the module’s memory.grow seen in its calls', async () => {
  const { summary } = await runToSummary([
    'run',
    fixture('test/scenarios/census-leak.mjs'),
    '-n',
    '2000',
    '--time-split',
    // The subject is the pass, not the leak's verdict (decided or not in 2,000 calls).
    '--fail-on',
    'none',
    '--format',
    'md',
  ]);
  const t = summary.timeSplit;
  assert.ok(t.stamped.some((m) => m.exports > 0));
  const grows = t.ops.reduce((a, o) => a + o.grow.warmup.grows + o.grow.steady.grows, 0);
  assert.ok(grows > 0, 'a leaking module grows its memory inside its calls');
});
