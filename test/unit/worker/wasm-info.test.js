// WasmGC modules (issue 30, item 5): struct and array types recognised from
// the type section (src/worker/targets/wasm-info.js), their objects judged
// by the JS heap after full GCs. The fixtures (test/fixtures/wasmgc/*.wat,
// built by soak/build.js with binaryen) use the GC proposal's standard
// encoding: an engine that runs it (Node >= 22) soaks them at the defaults;
// Node 20's V8 11.3 knows only a pre-standard draft and refuses them, with
// or without --experimental-wasm-gc, so there the run must say why.
// The checks here run no CLI and no worker; the runs through the CLI are in
// test/e2e/wasmgc.test.js.
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
