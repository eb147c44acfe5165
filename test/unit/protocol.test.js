// Unit tests of the boundary: the constants come from C and are consistent,
// the record decoder reads what C writes, the layouts of the statistics the
// addon returns are read by name, and the argument trampoline passes each
// value type as the slots hold it and drives a batch.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { addon } from '../../src/addon.js';
import * as protocol from '../../src/protocol.js';
import { buildTrampoline, SLOT_BYTES } from '../../src/worker/targets/trampoline.js';
import { inspectModule } from '../../src/worker/targets/wasm-info.js';
import { fixture } from '../helpers.js';

test('protocol: every list is exported by the addon, with distinct values', () => {
  for (const name of [
    'RECORD_TYPE',
    'FLAG',
    'METRIC',
    'MARK',
    'COUNTER',
    'CTL',
    'STATUS',
    'ARG_KIND',
    'VALUE_TYPE',
    'ROLE',
    'CENSUS_KIND',
    'UNDECIDED_REASON',
  ]) {
    const values = Object.values(protocol[name]);
    assert.ok(values.length > 0, name);
    assert.equal(new Set(values).size, values.length, `${name} values are distinct`);
    assert.ok(Object.isFrozen(protocol[name]));
  }
  assert.equal(protocol.RECORD_SIZE, 32);
  assert.deepEqual(Object.keys(protocol.RECORD_OFFSETS), ['type', 'flags', 'op', 'iteration', 'a', 'b', 't']);
  assert.equal(protocol.RING_HEADER_BYTES, protocol.CTL_WORDS * 4);
  assert.deepEqual(
    protocol.FINDING_KINDS.slice(0, 3),
    ['memory-exhausted', 'stack-drift', 'leak'],
    'most severe first',
  );
  assert.equal(protocol.WASM32_MAX_BYTES, 4294967296);
  assert.equal(protocol.LOG_MAGIC, 'WASMSOAK');
  assert.deepEqual(Object.keys(protocol.ARG_KIND), ['iter', 'random', 'buf', 'const']);
  assert.equal(protocol.CENSUS_KIND.none, 0);
  assert.equal(protocol.METRIC.censusClass16, protocol.METRIC_CENSUS_CLASS_BASE + 4, 'class k is base + k');
  assert.ok(Object.values(protocol.METRIC).every((id) => id < protocol.METRIC_MEMORY_BASE));
});

// A census kind's id is in every log's censusKind series: WS_CENSUS_FAMILIES
// may gain rows and move them, never renumber a kind (new kinds take new ids).
test('protocol: the census kinds keep their ids, and each has its description', () => {
  const kept = { none: 0, dlmalloc: 1, dlmallocRust: 2, dlmallocOther: 3, emmalloc: 4, tlsf: 5, bump: 6, weeAlloc: 7 };
  for (const [name, id] of Object.entries(kept)) assert.equal(protocol.CENSUS_KIND[name], id, name);
  assert.deepEqual(
    Object.keys(protocol.CENSUS_KIND_TEXT).map(Number),
    Object.values(protocol.CENSUS_KIND).sort((a, b) => a - b),
    'a text for every kind, none for another id',
  );
  assert.match(protocol.CENSUS_KIND_TEXT[protocol.CENSUS_KIND.dlmallocRust], /Rust crate/);
});

test('protocol: recordView reads each field at the offsets C exports', () => {
  const bytes = new Uint8Array(protocol.RECORD_SIZE * 2);
  const view = new DataView(bytes.buffer);
  const at = protocol.RECORD_SIZE;
  const o = protocol.RECORD_OFFSETS;
  view.setUint8(at + o.type, protocol.RECORD_TYPE.call);
  view.setUint8(at + o.flags, protocol.FLAG.grew | protocol.FLAG.threw);
  view.setUint16(at + o.op, 513, true);
  view.setUint32(at + o.iteration, 4000000000, true);
  view.setBigUint64(at + o.a, 123456789012345n, true);
  view.setBigUint64(at + o.b, 2n ** 40n, true);
  view.setBigUint64(at + o.t, 7n, true);
  const r = protocol.recordView(bytes);
  assert.equal(r.count, 2);
  assert.deepEqual(
    [r.type(1), r.flags(1), r.op(1), r.iteration(1), r.a(1), r.b(1), r.t(1)],
    [protocol.RECORD_TYPE.call, 3, 513, 4000000000, 123456789012345, 2 ** 40, 7],
  );
});

test('protocol: the statistics layouts, bootstrap settings and gate defaults come from C', () => {
  const { BAND, BAND_FIELDS, OPS_CELL, OPS_FIELDS, WINDOW_STAT, WINDOW_STAT_FIELDS } = protocol;
  for (const [fields, width] of [
    [BAND, BAND_FIELDS],
    [OPS_CELL, OPS_FIELDS],
    [WINDOW_STAT, WINDOW_STAT_FIELDS],
  ]) {
    assert.ok(Object.isFrozen(fields));
    assert.deepEqual(
      Object.values(fields).sort((a, b) => a - b),
      [...Array(width).keys()],
    );
  }
  // A window of calls 10, 20, …, 100 ns (op 0) and one op-1 call.
  const elapsed = Float32Array.from([10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 5]);
  const op = Uint16Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
  const stats = addon.windowStats(elapsed, op, 0, 11, 2);
  assert.equal(stats.length, 3 * WINDOW_STAT_FIELDS);
  assert.deepEqual(
    { ...protocol.windowRow(stats, 1), p90: null, p99: null },
    { n: 10, median: 55, p90: null, p99: null },
  );
  assert.equal(protocol.windowRow(stats, 2).n, 1);
  // The bands of 1..100 in 4 buckets: the first bucket is 1..25.
  const y = Float32Array.from({ length: 100 }, (_, i) => i + 1);
  const b = addon.decimateBands(y, 0, 100, 4, 25);
  assert.equal(b.length, 4 * BAND_FIELDS);
  assert.deepEqual([b[BAND.first], b[BAND.last], b[BAND.min], b[BAND.max], b[BAND.imax]], [0, 24, 1, 25, 24]);
  const cells = addon.decimateOps(elapsed, op, 0, 11, 2, 1);
  assert.equal(cells[OPS_FIELDS + OPS_CELL.count], 1);
  assert.equal(cells[OPS_FIELDS + OPS_CELL.median], 5);
  assert.equal(protocol.BOOTSTRAP.level, 0.95);
  assert.ok(protocol.BOOTSTRAP.replicates >= protocol.BOOTSTRAP.driftReplicates);
  assert.equal(protocol.GATE_DEFAULTS.failIfSlower, 0.05);
  assert.equal(protocol.CENSUS_CLASSES, 32);
  assert.equal(protocol.PAGE_BYTES, 65536);
});

test('trampoline: each value type reaches the export from its slot, results are dropped', () => {
  const bytes = readFileSync(fixture('test', 'fixtures', 'args.wasm'));
  const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), {});
  const sig = (name) => inspectModule(bytes).exports.find((e) => e.name === name);
  const fn = (name) => ({ fn: instance.exports[name], ...sig(name) });
  const t = buildTrampoline([fn('ranges'), fn('expect42')], { malloc: fn('malloc'), free: fn('free') }, WebAssembly);
  const slots = new DataView(t.slots);
  slots.setInt32(0, -5, true);
  slots.setBigInt64(SLOT_BYTES, 2n ** 40n + 3n, true);
  slots.setFloat32(2 * SLOT_BYTES, 2, true);
  slots.setFloat64(3 * SLOT_BYTES, -999999, true);
  assert.equal(t.calls[0](), undefined, 'the f64 result is dropped');
  slots.setFloat32(2 * SLOT_BYTES, 2.5, true);
  assert.throws(() => t.calls[0](), WebAssembly.RuntimeError, 'a value out of its range traps');
  slots.setInt32(0, 42, true);
  t.calls[1]();
  slots.setInt32(0, 41, true);
  assert.throws(() => t.calls[1](), WebAssembly.RuntimeError);
  slots.setInt32(0, 64, true);
  t.alloc();
  assert.equal(slots.getInt32(SLOT_BYTES, true), 1024, 'alloc stores the pointer in slot 1');
  assert.throws(() => t.alloc(), WebAssembly.RuntimeError, 'the fixture allows one live block');
  slots.setInt32(0, 1024, true);
  t.free();
  t.alloc();
});

test("trampoline: the driver calls the ops next() names until it says -1, storing the memories' sizes before each", () => {
  const calls = [];
  const op = (k) => ({ fn: () => calls.push(k), params: [], results: [] });
  const memories = [new WebAssembly.Memory({ initial: 2 }), new WebAssembly.Memory({ initial: 5 })];
  const picks = [1, 0, 1, -1];
  const pages = [];
  let t = null;
  const next = () => {
    const seen = new Uint32Array(t.slots, protocol.DRIVER_PAGES, 2);
    pages.push([...seen]);
    if (pages.length === 2) memories[0].grow(1);
    new Int32Array(t.slots, protocol.DRIVER_OP, 1)[0] = picks[pages.length - 1];
  };
  t = buildTrampoline([op(0), op(1)], null, WebAssembly, 0, next, memories);
  assert.deepEqual(t.sized, memories);
  t.drive();
  assert.deepEqual(calls, [1, 0, 1]);
  assert.deepEqual(pages, [
    [2, 5],
    [2, 5],
    [3, 5],
    [3, 5],
  ]);
  assert.equal(buildTrampoline([op(0)], null, WebAssembly).drive, null, 'no next, no driver');
});

test('trampoline: a signature it cannot pass is a TypeError', () => {
  const f = { fn: () => {}, params: ['unknown'], results: [] };
  assert.throws(() => buildTrampoline([f], null, WebAssembly), TypeError);
});
