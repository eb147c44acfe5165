// The counting pass on builds without names: exported forwarders are
// followed to the allocator, and boundary wrappers to the allocator behind
// them (boundary wrappers alone are no evidence), and
// modules using post-MVP features instrument and load.
// The checks here run no CLI and no worker; the runs through the CLI are in
// test/e2e/long/instrument.test.js.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { glueAllocatorNames } from '../../../src/worker/allocator/glue-names.js';
import { instrumentAllocator, loadInstrumenter } from '../../../src/worker/allocator/instrument.js';
import { fixture, tempDir } from '../../helpers.js';

await loadInstrumenter();

const wasm = (name) => readFileSync(fixture('test', 'fixtures', `${name}.wasm`));

test('instrument: exported forwarders are followed to the allocator, and a bulk-memory module validates and loads', async () => {
  const r = instrumentAllocator(wasm('forwarder-alloc'));
  assert.deepEqual(r.entryPoints, ['malloc', 'free']);
  assert.equal(r.complete, true);
  for (const f of r.found) assert.match(f.how, /^export, forwarding to function \S+$/);
  await WebAssembly.compile(r.bytes);
});

test('instrument: boundary wrappers alone do not make the pass complete', () => {
  // Their callees are called from two functions, fewer than an allocator shared by the module's code.
  const r = instrumentAllocator(wasm('boundary-alloc'));
  assert.deepEqual(r.entryPoints, ['__wbindgen_malloc', '__wbindgen_free']);
  assert.equal(r.complete, false);
});

test('instrument: the allocator behind boundary wrappers (the callees passed their size and pointer) and its realloc are wrapped instead', async () => {
  const r = instrumentAllocator(wasm('behind-boundary'));
  assert.deepEqual(r.entryPoints, ['__wbindgen_malloc', '__wbindgen_free', 'realloc']);
  assert.deepEqual(
    r.found.map((f) => f.how),
    [
      'export "__wbindgen_malloc", calling function 0 with its size',
      'export "__wbindgen_free", calling function 1 with its pointer',
      'a realloc: function 2 allocates its argument 2 with function 0, copies from its argument 0 and frees it with function 1, the allocator behind the wrappers',
    ],
  );
  assert.equal(r.complete, true);
  assert.equal(r.behind, true);
  await WebAssembly.compile(r.bytes);
});

test('instrument: what the allocator behind the wrappers passes the size or pointer on to is wrapped too, a function that only reads is not', () => {
  const r = instrumentAllocator(wasm('behind-deeper'));
  assert.deepEqual(r.entryPoints, ['__wbindgen_malloc', '__wbindgen_free', 'malloc', 'free', 'realloc']);
  assert.deepEqual(
    r.found.slice(2, 4).map((f) => f.how),
    [
      'the allocator behind the wrappers, passing its size on to function 0',
      'the allocator behind the wrappers, passing its pointer on to function 1',
    ],
  );
  assert.ok(!r.found.some((f) => /function 2\b/.test(f.how)), 'the layout check (function 2) is no free');
  assert.equal(r.complete, true);
});

test('glue names: minified exports bound to _malloc/_free by the glue on the stack', () => {
  const glue = join(tempDir('wasm-soak-glue-'), 'lib.js');
  writeFileSync(
    glue,
    'var ha=k._malloc=c.La;ja=k._free=c.Ma;Module["_realloc"]=wasmExports["Zb"];k._sqlite3_free=c.S;',
  );
  const stack = `Error\n    at transform (/x/src/worker/allocator/counting.js:1:1)\n    at instantiate (${glue}:1:200)`;
  assert.deepEqual(
    [...glueAllocatorNames(stack)],
    [
      ['La', 'malloc'],
      ['Ma', 'free'],
      ['Zb', 'realloc'],
    ],
  );
  assert.equal(glueAllocatorNames('Error\n    at nowhere (/no/such/file.js:1:1)').size, 0);
});
