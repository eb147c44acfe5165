// src/worker/memories.js: the memories and instances a worker tracks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMemories, distinctLabel } from '../../../src/worker/memories.js';

test('a label another memory has gets the next free #n', () => {
  const entries = [{ label: 'memory' }, { label: 'memory#2' }, { label: 'heap' }];
  assert.equal(distinctLabel(entries, 'other'), 'other');
  assert.equal(distinctLabel(entries, 'memory'), 'memory#3');
  assert.equal(distinctLabel(entries, 'heap', entries[2]), 'heap', 'its own label is not taken');
});

test('before the loop memories are tracked at once; once it runs they wait for addLate', () => {
  const posted = [];
  const m = createMemories({ post: (x) => posted.push(x), pageBytes: 65536 });
  const a = new WebAssembly.Memory({ initial: 1, maximum: 2 });
  m.onMemory(a, 'memory', 2, 'a.js');
  assert.deepEqual(
    { ...m.tracked[0], ref: undefined },
    { ref: undefined, label: 'memory', shared: false, initialBytes: 65536, maximumBytes: 131072, module: 'a.js' },
  );
  m.start();
  const b = new WebAssembly.Memory({ initial: 2 });
  m.onMemory(b, 'memory', null, 'b.js');
  assert.equal(m.censused(), 1, 'the late memory has no census until the runner has it');
  const added = [];
  m.addLate((memory, shared) => {
    added.push([memory, shared]);
    return 1; // the runner's index of the memory
  });
  assert.deepEqual(added, [[b, false]]);
  assert.deepEqual(posted, [{ type: 'memory', index: 1, label: 'memory#2', initialBytes: 131072 }]);
  assert.equal(m.censused(), 2);
  m.onLabel(a, 'wasm', 'c.js');
  assert.deepEqual(posted.at(-1), { type: 'label', index: 0, label: 'wasm' });
});

test('past 64 memories new ones are counted, not tracked', () => {
  const m = createMemories({ post: () => {}, pageBytes: 65536 });
  const memory = new WebAssembly.Memory({ initial: 0 });
  for (let i = 0; i < 66; i++) m.onMemory(memory, `m${i}`, null, null);
  assert.deepEqual([m.tracked.length, m.untracked()], [64, 2]);
});
