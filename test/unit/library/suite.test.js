// A suite's shares (src/library/suite.js shardOf) and their merge
// (src/library/merge.js mergeResults) on results built by hand: every
// target in one shard, the same on every run; shares that do not make one
// suite refused. Suites run, sharded and merged: test/e2e/suite.test.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mergeResults } from '../../../src/library/merge.js';
import { shardOf } from '../../../src/library/suite.js';

test('shardOf: every target in exactly one shard, the same one on every run', () => {
  const targets = Array.from({ length: 7 }, (_, i) => ({ name: `t${i}` }));
  const shares = [1, 2, 3].map((k) => shardOf(targets, { k, n: 3 }).map((t) => t.name));
  assert.deepEqual(shares, [
    ['t0', 't3', 't6'],
    ['t1', 't4'],
    ['t2', 't5'],
  ]);
});

test('merge refuses shards that do not make one suite', () => {
  const part = (name, k, n, cases = []) => ({
    name,
    shard: { k, n },
    cases,
    hosts: ['h'],
    startedAt: '2026-01-01T00:00:00Z',
    wallMs: 1,
  });
  const refuses = (results, pattern) =>
    assert.throws(
      () =>
        mergeResults(
          results,
          results.map((_, i) => `d${i + 1}`),
        ),
      (err) => err.exitCode === 2 && pattern.test(err.message),
    );
  refuses([part('a', 1, 2), part('b', 2, 2)], /shards of different suites \(a, b\)/);
  refuses([part('a', 1, 2), part('a', 1, 2)], /Shard 1\/2 is given twice \(d2\)/);
  refuses([part('a', 1, 2), part('a', 2, 3)], /different splits \(1\/2, 2\/3\)/);
  refuses(
    [part('a', 1, 2, [{ name: 't', index: 0 }]), part('a', 2, 2, [{ name: 't', index: 1 }])],
    /"t" is in both d1 and d2/,
  );
  const merged = mergeResults(
    [part('a', 2, 2, [{ name: 'y', index: 1 }]), part('a', 1, 2, [{ name: 'x', index: 0 }])],
    ['d1', 'd2'],
  );
  assert.deepEqual(
    merged.cases.map((c) => c.name),
    ['x', 'y'],
    'suite order',
  );
});
