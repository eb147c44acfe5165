// WasmGC modules' types (issue 30, item 5): struct and array types counted
// from the type section (src/worker/targets/wasm-info.js) through a rec group
// and a sub type, exports typed. The fixtures (test/fixtures/wasmgc/*.wat)
// soaked, or refused on Node 20: test/e2e/wasmgc.test.js.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { inspectModule } from '../../../src/worker/targets/wasm-info.js';
import { fixture } from '../../helpers.js';

const gcModule = (name) => fixture('test', 'fixtures', 'wasmgc', `${name}.wasm`);
test('the type section: struct and array types counted through a rec group and a sub type, exports typed', () => {
  // keep.wat declares its three types in one rec group (0x4e), drop.wat its struct as an open sub type (0x50).
  for (const name of ['keep', 'drop']) {
    const info = inspectModule(readFileSync(gcModule(name)));
    assert.deepEqual(info.gc, { structs: 1, arrays: 2 }, name);
    assert.deepEqual(info.memories, [], name);
    const op = info.exports.find((e) => e.name === 'op');
    assert.deepEqual([op.kind, op.params, op.results], ['function', ['i32'], ['i32']], name);
  }
  // A module without GC types: gc null.
  assert.equal(inspectModule(readFileSync(fixture('soak', 'modules', 'clean.wasm'))).gc, null);
});
