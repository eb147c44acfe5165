// Unit tests of the boundary: the constants come from C and are consistent,
// the record decoder reads what C writes, and the argument trampoline passes
// each value type as the slots hold it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as protocol from '../src/protocol.js';
import { buildTrampoline, SLOT_BYTES } from '../src/worker/targets/trampoline.js';
import { inspectModule } from '../src/worker/targets/wasm-info.js';
import { fixture } from './helpers.js';

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

test('trampoline: a signature it cannot pass is a TypeError', () => {
  const f = { fn: () => {}, params: ['unknown'], results: [] };
  assert.throws(() => buildTrampoline([f], null, WebAssembly), TypeError);
});
