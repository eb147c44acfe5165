// init on Emscripten glue with WebIDL bindings end to end (in test/e2e/
// for its cost, about 19 s: it builds the scenario from the glue and from
// the module and runs both). CI runs it (npm run test:e2e).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { glueKind } from '../../../src/module-kind.js';
import { fixture } from '../../helpers.js';
import { initAndRun } from '../../init-helpers.js';

test('init on Emscripten glue with WebIDL bindings: its classes listed, what it makes freed with Module.destroy', async () => {
  // test/fixtures/webidl-counter.cjs: Debian's emcc and webidl_binder, MODULARIZE (soak/build.js).
  const glue = fixture('test', 'fixtures', 'webidl-counter.cjs');
  assert.deepEqual(glueKind(readFileSync(glue, 'utf8')), { kind: 'emscripten', flavour: 'webidl' });
  for (const operand of [glue, fixture('test', 'fixtures', 'webidl-counter.wasm')]) {
    const { text } = await initAndRun(operand);
    const header = text.replace(/\n\/\/ /g, ' ');
    assert.match(header, /an Emscripten MODULARIZE factory \(given the module as wasmBinary\), with WebIDL bindings\./);
    assert.match(text, /^\/\/ {3}new api\.Counter\(\w+\) … api\.destroy\(made\) {2}1 parameter, types not declared/m);
    assert.match(text, /^\/\/ {5}methods: add, get, checksum$/m);
    assert.doesNotMatch(
      text,
      /api\.(wrapPointer|getCache|WrapperObject|VoidPtr)\b/,
      "the binder's helpers are not the API",
    );
    assert.match(text, /const made = new api\.Counter\(.*\);\n\s+api\.destroy\(made\);/, 'the op frees what it makes');
  }
});
