// The glue's objects by class (src/worker/objects.js), in a worker thread of
// their own (the tracker replaces that thread's FinalizationRegistry and
// Object.create): registrations, unregistrations and finalizers counted per
// class and op, embind's objects seen as embind makes them, the glue's
// callbacks and values unchanged, and Node's own registries left alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';

const TRACKER = new URL('../../../src/worker/objects.js', import.meta.url).href;

/** Runs body (the source of an async function of { tracker, control, gc, settle }) in a worker; resolves what it returns. */
function inWorker(body) {
  const source = `
    import { parentPort } from 'node:worker_threads';
    import { setFlagsFromString } from 'node:v8';
    import { runInNewContext } from 'node:vm';
    import { installObjectTracker } from ${JSON.stringify(TRACKER)};
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc');
    const control = new Int32Array(8);
    const tracker = installObjectTracker({ control, callWord: 6 });
    // Until a canary's finalizer ran and the glue's stopped coming (or 500 turns).
    const canaries = { n: 0 };
    const canary = new (Object.getPrototypeOf(FinalizationRegistry))(() => canaries.n++);
    const settle = async () => {
      const want = canaries.n + 1;
      (() => canary.register(new Array(1), null))();
      gc();
      let last = tracker.cleanups(), quiet = 0;
      for (let turn = 0; turn < 500 && !(canaries.n >= want && quiet >= 2); turn++) {
        await new Promise((r) => setImmediate(r));
        quiet = tracker.cleanups() === last ? quiet + 1 : 0;
        last = tracker.cleanups();
      }
    };
    const result = await (${body})({ tracker, control, gc, settle });
    parentPort.postMessage(result);
  `;
  return new Promise((resolve, reject) => {
    const w = new Worker(source, { eval: true, type: 'module' });
    w.once('message', resolve);
    w.once('error', reject);
    w.once('exit', (code) => code !== 0 && reject(new Error(`worker exited ${code}`)));
  });
}

test('registry glue: created by op, freed by the application (unregister), reclaimed by the collector', async () => {
  const r = await inWorker(`async ({ tracker, control, settle }) => {
    const freedPtrs = [];
    const registry = new FinalizationRegistry((ptr) => freedPtrs.push(ptr));
    class Doc {
      constructor(ptr) { this.ptr = ptr; registry.register(this, ptr, this); }
      free() { return registry.unregister(this); }
    }
    const kept = [];
    const call = (i) => { const d = new Doc(i); if (i % 4 === 0) d.free(); else if (i % 4 === 1) kept.push(d); };
    control[6] = 1; // op 0 running
    for (let i = 0; i < 100; i++) call(i);
    control[6] = 2; // op 1
    for (let i = 100; i < 110; i++) new Doc(i).free();
    control[6] = 0;
    await settle();
    await settle();
    tracker.snapshot(110);
    return { result: tracker.result(['edit', 'sync']), freedPtrs: freedPtrs.length, kept: kept.length,
      isRegistry: registry instanceof FinalizationRegistry, name: FinalizationRegistry.name };
  }`);
  const [doc] = r.result.classes;
  assert.equal(doc.name, 'Doc');
  assert.equal(doc.registry, true);
  assert.equal(doc.freeable, true);
  assert.equal(doc.created, 110);
  assert.equal(doc.freed, 35);
  assert.equal(doc.reclaimed, 50, 'the 50 dropped without free() were finalized');
  assert.equal(doc.held, 25, 'the kept ones');
  assert.deepEqual(doc.createdBy, [
    { op: 'edit', count: 100 },
    { op: 'sync', count: 10 },
  ]);
  assert.equal(r.freedPtrs, 50, "the glue's callback got its own held values");
  assert.equal(r.isRegistry, true);
  assert.equal(r.name, 'FinalizationRegistry');
  assert.deepEqual(r.result.snapshots, [{ iteration: 110, classes: [['Doc', 110, 35, 50, 0]] }]);
});

test('a registration without an unregister token is not freeable (the glue frees it only by finalizers)', async () => {
  const r = await inWorker(`async ({ tracker }) => {
    const registry = new FinalizationRegistry(() => {});
    class Buffer {}
    const kept = new Buffer();
    registry.register(kept, 1);
    return { result: tracker.result([]), keep: Boolean(kept) };
  }`);
  assert.equal(r.result.classes[0].freeable, false);
});

test("embind's objects: made by Object.create with a record, freed by a free method, collected with no free", async () => {
  const r = await inWorker(`async ({ tracker, settle }) => {
    function ClassHandle() {}
    Object.assign(ClassHandle.prototype, { isAliasOf() {}, clone() {}, delete() {}, isDeleted() { return false; } });
    const Node = (() => function () {})(); // embind's minified glue: a class function with no name
    Node.prototype = Object.create(ClassHandle.prototype, { constructor: { value: Node } });
    Node.prototype.free = function () { this.gone = true; };
    const record = { ptrType: { registeredClass: { name: 'Node' }, name: 'Node*' } };
    const make = () => Object.create(Node.prototype, { $$: { value: record } });
    const kept = [];
    const call = (i) => { const n = make(); if (i < 5) n.free(); else if (i < 8) kept.push(n); };
    for (let i = 0; i < 20; i++) call(i);
    const plain = Object.create(Object.prototype, { x: { value: 1 } }); // not embind's
    await settle();
    await settle();
    return { result: tracker.result([]), plain: plain.x, kept: kept.length };
  }`);
  assert.equal(r.plain, 1);
  assert.equal(r.result.classes.length, 1);
  const [node] = r.result.classes;
  assert.equal(node.name, 'Node', "the class name embind keeps, its constructor's being empty");
  assert.equal(node.registry, false);
  assert.equal(node.created, 20);
  assert.equal(node.freed, 5);
  assert.equal(node.collected, 12);
  assert.equal(node.held, 3);
});

test("Node's own registries are left alone", async () => {
  const r = await inWorker(`async ({ tracker }) => {
    await fetch('data:text/plain,x').then((res) => res.text()); // undici registers its Response objects
    return tracker.result([]);
  }`);
  assert.equal(r, null);
});
