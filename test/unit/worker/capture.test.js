// The capture hooks are invisible to glue code: they read no import field the
// module does not declare, return and throw what the unhooked functions do,
// and leave instances and exports as they are. The hooks are installed in
// this test process with a transform (as the counting pass installs them)
// that either leaves a module alone or rewrites it, and each result is
// compared with the pristine API's.
// The checks here run no CLI and no worker; the runs through the CLI are in
// test/e2e/capture.test.js.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { installCapture } from '../../../src/worker/capture.js';
import { fixture } from '../../helpers.js';

const bytesOf = (name) => readFileSync(fixture('test', 'fixtures', `${name}.wasm`));
const NEEDS_IMPORT = bytesOf('needs-import'); // imports env.host_log, exports memory and step
const IMPORTED_MEMORY = bytesOf('imported-memory'); // imports env.memory
const NOT_WASM = readFileSync(fixture('test', 'fixtures', 'not-wasm.wasm'));

const W = globalThis.WebAssembly;
const original = {
  Module: W.Module,
  Instance: W.Instance,
  Memory: W.Memory,
  instantiate: W.instantiate,
  instantiateStreaming: W.instantiateStreaming,
  compile: W.compile,
};

const pristineGrow = Object.getOwnPropertyDescriptor(W.Memory.prototype, 'grow');
const pristineMemoryKeys = Object.getOwnPropertyNames(W.Memory.prototype).sort();
const events = { memories: [], instances: [], transformed: 0, growFailed: [], declared: [] };
let transforming = false;
// An identity rewrite with one extra import module, as the counting pass adds.
const transform = (bytes) => {
  if (!transforming) return null;
  events.transformed++;
  return { bytes: new Uint8Array(bytes), imports: { wasm_soak: { event() {} } } };
};
installCapture({
  onMemory: (memory, label, maximumPages) => events.memories.push({ memory, label, maximumPages }),
  onLabel: () => {},
  onInstance: (instance, imported) => events.instances.push({ instance, imported }),
  onGrowFailed: (memory, delta, error) => events.growFailed.push({ memory, delta, error }),
  onDeclaredSize: (memory, bytes) => events.declared.push({ memory, bytes }),
  transform,
});

// The initial size a module declares for its memory bounds where the heap
// census looks for the allocator's state (static data lies within it), also
// when the glue creates the memory larger and imports it, as napi-rs's
// wasm32-wasi loaders do (250 MiB for a module that declares 64 MB), and
// whichever way the module is compiled.
test('the declared initial size of a memory, however large the glue creates it', async () => {
  events.declared.length = 0;
  const big = new W.Memory({ initial: 40 });
  new W.Instance(new W.Module(IMPORTED_MEMORY), { env: { memory: big } });
  const other = new W.Memory({ initial: 40 });
  await W.instantiate(await W.compile(IMPORTED_MEMORY), { env: { memory: other } });
  const { instance } = await W.instantiate(bytesOf('glue-grow'), { env: { resize_heap: () => 0 } });
  assert.deepEqual(
    events.declared.map((d) => d.bytes),
    [65536, 65536, 65536],
  );
  assert.equal(events.declared[0].memory, big);
  assert.equal(events.declared[1].memory, other);
  assert.equal(events.declared[2].memory, instance.exports.memory);
  events.declared.length = 0;
  events.memories.length = 0;
});

// A memory's declared maximum is read from a Memory descriptor's own data
// property (a getter is not run again) and from the bytes of a module that
// exports its memory.
test('declared maxima: from the descriptor without running its getters again, and from module bytes', async () => {
  events.memories.length = 0;
  new W.Memory({ initial: 1, maximum: 3 });
  let reads = 0;
  new W.Memory({
    initial: 1,
    get maximum() {
      reads++;
      return 5;
    },
  });
  assert.equal(reads, 1, 'the engine read it once, the hook not at all');
  await W.instantiate(bytesOf('glue-grow'), { env: { resize_heap: () => 0 } }); // (memory 1 2) exported
  assert.deepEqual(
    events.memories.map((m) => m.maximumPages),
    [3, null, 2],
  );
  events.memories.length = 0;
});

// Memory.prototype.grow is seen when it fails, and stays what it was: the
// same results, the same error objects, the same property.
test('a failed memory.grow is seen; grow returns and throws what the original does', () => {
  const memory = new W.Memory({ initial: 1, maximum: 2 });
  assert.equal(memory.grow(1), 1);
  assert.equal(events.growFailed.length, 0, 'a grow that succeeds is not reported');
  let thrown = null;
  try {
    memory.grow(1);
  } catch (err) {
    thrown = err;
  }
  assert.ok(thrown instanceof RangeError);
  assert.equal(events.growFailed.length, 1);
  assert.equal(events.growFailed[0].memory, memory);
  assert.equal(events.growFailed[0].delta, 1);
  assert.equal(events.growFailed[0].error, thrown, 'the same error object is rethrown');
  assert.throws(() => memory.grow(-1), TypeError);
  assert.equal(events.growFailed.length, 1, 'a bad argument (TypeError) is no failed grow');
  const hooked = Object.getOwnPropertyDescriptor(W.Memory.prototype, 'grow');
  const shape = (d) => [d.writable, d.enumerable, d.configurable, d.value.name, d.value.length];
  assert.deepEqual(shape(hooked), shape(pristineGrow));
  assert.deepEqual(Object.getOwnPropertyNames(W.Memory.prototype).sort(), pristineMemoryKeys);
  events.growFailed.length = 0;
});

/**
 * An import object in the style of Emscripten's dynamic-linking glue: the
 * module objects are Proxies whose get traps create an entry for any name
 * (a side effect) and record every name read, key listing and descriptor
 * query. Returns { imports, reads }.
 */
function proxyImports(fields) {
  const reads = [];
  const trap = (module, target) =>
    new Proxy(target, {
      get(t, key) {
        reads.push(`${module}.${String(key)}`);
        if (!(key in t)) t[key] = new original.Memory({ initial: 1 }); // a GOT-like side effect
        return t[key];
      },
      ownKeys(t) {
        reads.push(`${module}:ownKeys`);
        return Reflect.ownKeys(t);
      },
      getOwnPropertyDescriptor(t, key) {
        reads.push(`${module}:describe ${String(key)}`);
        return Reflect.getOwnPropertyDescriptor(t, key);
      },
    });
  const top = { env: trap('env', { ...fields, unrelated: 1, __indirect_function_table: {} }) };
  const imports = new Proxy(top, {
    get(t, key) {
      reads.push(String(key));
      return t[key];
    },
    ownKeys(t) {
      reads.push(':ownKeys');
      return Reflect.ownKeys(t);
    },
  });
  return { imports, reads };
}

// Outcome of a call, comparable between hooked and pristine: the value's
// shape, or the error's class and message.
async function outcome(fn) {
  try {
    const value = await fn();
    return { ok: true, kind: Object.prototype.toString.call(value), keys: Object.keys(value ?? {}) };
  } catch (err) {
    return { ok: false, name: err.constructor.name, message: err.message };
  }
}

for (const withTransform of [false, true]) {
  // The transform leaves a module as it is (no allocator found: the path a
  // run without --count-allocs takes too) or rewrites it.
  const mode = withTransform ? 'a rewritten module' : 'a module left as it is';
  const hooked = (fn) => async () => {
    transforming = withTransform;
    try {
      return await fn();
    } finally {
      transforming = false;
    }
  };

  test(
    `${mode}: a Proxy import object is read only at the fields the module declares`,
    hooked(async () => {
      const logged = [];
      const memory = new W.Memory({ initial: 1 });
      const host_log = (x) => logged.push(x);
      for (const [bytes, fields, declared] of [
        [NEEDS_IMPORT, { host_log }, ['env', 'env.host_log']],
        [IMPORTED_MEMORY, { memory }, ['env', 'env.memory']],
      ]) {
        const { imports, reads } = proxyImports(fields);
        const before = events.instances.length;
        const { instance } = await W.instantiate(bytes, imports);
        assert.equal(events.instances.length, before + 1, 'the instance is seen');
        assert.deepEqual([...new Set(reads)].sort(), declared.sort(), `reads: ${reads.join(', ')}`);
        // The engine reads each declared field once; the hook adds at most
        // one more read of a declared memory, never another name.
        const imported = events.instances.at(-1).imported;
        if (fields.memory) assert.equal(imported.env.memory, memory);
        else assert.deepEqual(imported, {});
        assert.ok(instance instanceof W.Instance);
      }
      const { imports, reads } = proxyImports({ host_log });
      new W.Instance(new W.Module(NEEDS_IMPORT), imports);
      assert.deepEqual([...new Set(reads)].sort(), ['env', 'env.host_log']);
    }),
  );

  test(
    `${mode}: instantiate, Instance and compile return what the originals return`,
    hooked(async () => {
      const imports = { env: { host_log() {} } };
      const result = await W.instantiate(NEEDS_IMPORT, imports);
      assert.deepEqual(Object.keys(result), ['module', 'instance']);
      assert.ok(result.module instanceof W.Module && result.module instanceof original.Module);
      assert.ok(result.instance instanceof W.Instance && result.instance instanceof original.Instance);
      const again = await W.instantiate(result.module, imports);
      assert.ok(again instanceof original.Instance, 'instantiate(module) resolves to an Instance');
      const direct = new W.Instance(result.module, imports);
      const pristine = new original.Instance(new original.Module(NEEDS_IMPORT), imports);
      assert.equal(result.module.constructor, W.Module);
      for (const instance of [result.instance, again, direct]) {
        assert.equal(Object.getPrototypeOf(instance), original.Instance.prototype);
        assert.equal(instance.constructor, W.Instance);
        assert.deepEqual(Reflect.ownKeys(instance), Reflect.ownKeys(pristine));
        assert.deepEqual(Reflect.ownKeys(instance.exports), Reflect.ownKeys(pristine.exports));
        assert.ok(Object.isFrozen(instance.exports));
        assert.equal(Object.getPrototypeOf(instance.exports), null);
        assert.ok(instance.exports.memory instanceof original.Memory);
      }
      assert.equal(direct.exports.step(7), 7);
      const compiled = await W.compile(NEEDS_IMPORT);
      assert.ok(compiled instanceof original.Module);
      assert.deepEqual(W.Module.imports(compiled), original.Module.imports(new original.Module(NEEDS_IMPORT)));
      for (const name of ['instantiate', 'compile', 'instantiateStreaming']) {
        assert.equal(W[name].name, original[name].name);
        assert.equal(W[name].length, original[name].length);
      }
      assert.equal(W.Memory.name, 'Memory');
      assert.ok(new W.Memory({ initial: 1 }) instanceof original.Memory);
      assert.equal(new W.Memory({ initial: 1 }).constructor, W.Memory);
    }),
  );

  test(
    `${mode}: instantiate, Instance and compile throw what the originals throw`,
    hooked(async () => {
      const module = new original.Module(NEEDS_IMPORT);
      const cases = [
        ['bytes that are not wasm', (A) => A.instantiate(NOT_WASM, {})],
        ['a missing import', (A) => A.instantiate(NEEDS_IMPORT, { env: {} })],
        ['no import object', (A) => A.instantiate(NEEDS_IMPORT)],
        ['an import object that is not an object', (A) => A.instantiate(NEEDS_IMPORT, 5)],
        ['a module and a missing import', (A) => A.instantiate(module, { env: {} })],
        ['a source that is neither', (A) => A.instantiate('wasm', {})],
        ['compile of bytes that are not wasm', (A) => A.compile(NOT_WASM)],
        ['new Instance without imports', (A) => new A.Instance(module)],
        ['new Instance with a wrong import', (A) => new A.Instance(module, { env: { host_log: 1 } })],
        ['new Module of bytes that are not wasm', (A) => new A.Module(NOT_WASM)],
      ];
      const pristineApi = { ...W, ...original };
      for (const [what, call] of cases) {
        const mine = await outcome(() => call(W));
        const theirs = await outcome(() => call(pristineApi));
        assert.equal(theirs.ok, false, `${what}: the pristine call fails`);
        assert.deepEqual(mine, theirs, what);
      }
    }),
  );

  test(
    `${mode}: instantiateStreaming resolves and rejects as the original does`,
    hooked(async () => {
      const response = (body, type = 'application/wasm', status = 200) =>
        new Response(body, { status, headers: { 'content-type': type } });
      const imports = { env: { host_log() {} } };
      const before = events.instances.length;
      const result = await W.instantiateStreaming(response(NEEDS_IMPORT), imports);
      assert.deepEqual(Object.keys(result), ['module', 'instance']);
      assert.ok(result.instance instanceof original.Instance);
      assert.equal(events.instances.length, before + 1, 'the instance is seen');
      assert.equal(result.instance.exports.step(3), 3);
      const fromPromise = await W.instantiateStreaming(Promise.resolve(response(NEEDS_IMPORT)), imports);
      assert.ok(fromPromise.instance instanceof original.Instance);
      for (const [what, make] of [
        ['a wrong MIME type', () => response(NEEDS_IMPORT, 'text/plain')],
        ['a failed response', () => response(NEEDS_IMPORT, 'application/wasm', 404)],
        ['not a Response', () => NEEDS_IMPORT],
      ]) {
        const mine = await outcome(() => W.instantiateStreaming(make(), imports));
        const theirs = await outcome(() => original.instantiateStreaming.call(W, make(), imports));
        assert.equal(mine.ok, false, what);
        assert.equal(mine.name, theirs.name, what);
      }
    }),
  );

  test(
    `${mode}: a module instantiated twice gives two instances, each memory seen once`,
    hooked(async () => {
      const module = await W.compile(NEEDS_IMPORT);
      const imports = { env: { host_log() {} } };
      const seenBefore = events.memories.length;
      const a = await W.instantiate(module, imports);
      const b = new W.Instance(module, imports);
      assert.notEqual(a, b);
      assert.notEqual(a.exports.memory, b.exports.memory);
      const seen = events.memories.slice(seenBefore).map((m) => m.memory);
      assert.deepEqual(seen, [a.exports.memory, b.exports.memory]);
      await W.instantiate(module, imports);
      new W.Instance(module, imports);
      assert.equal(events.memories.length, seenBefore + 4);
    }),
  );
}

test('the transform sees bytes given to instantiate, compile and new Module', async () => {
  transforming = true;
  try {
    const before = events.transformed;
    await W.instantiate(NEEDS_IMPORT, { env: { host_log() {} } });
    await W.compile(NEEDS_IMPORT);
    new W.Module(NEEDS_IMPORT);
    assert.equal(events.transformed, before + 3);
  } finally {
    transforming = false;
  }
});
