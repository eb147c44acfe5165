// Log round trip through the JS writer and the C reader, including a torn
// last record left by a crash and a file that is not a log, and the decode
// on another thread (decodeLogAsync) giving what decodeLog gives. Reports and
// exports of a torn log of a real run: test/e2e/log.test.js.
import assert from 'node:assert/strict';
import { statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { decodeLog, decodeLogAsync } from '../../../src/analysis/log-reader.js';
import { createLogWriter, encodeLogStart, fileSink } from '../../../src/run/log-writer.js';
import { tempDir } from '../../helpers.js';

function callRecord(i, elapsed, memory, op = 0, flags = 0) {
  const b = Buffer.alloc(32);
  b.writeUInt8(1, 0);
  b.writeUInt8(flags, 1);
  b.writeUInt16LE(op, 2);
  b.writeUInt32LE(i, 4);
  b.writeBigUInt64LE(BigInt(elapsed), 8);
  b.writeBigUInt64LE(BigInt(memory), 16);
  b.writeBigUInt64LE(BigInt(i * 1000), 24);
  return b;
}

function metricRecord(i, id, value) {
  const b = Buffer.alloc(32);
  b.writeUInt8(2, 0);
  b.writeUInt16LE(id, 2);
  b.writeUInt32LE(i, 4);
  b.writeBigUInt64LE(BigInt(value), 8);
  b.writeBigUInt64LE(BigInt(i * 1000), 24);
  return b;
}

const header = {
  format: 'wasm-soak-log',
  version: 1,
  ops: [{ name: 'a' }, { name: 'b' }],
  memories: [{ label: 'memory' }],
  config: {},
};

test('records written by the writer come back from the C reader', () => {
  const path = join(tempDir(), 'samples.wslog');
  const w = createLogWriter(fileSink(path), header);
  for (let i = 0; i < 1000; i++) {
    w.append(callRecord(i, 100 + i, i < 500 ? 65536 : 131072, i % 2, i === 500 ? 1 : 0));
    if (i % 100 === 99) w.append(Buffer.concat([metricRecord(i, 3, i * 8), metricRecord(i, 256, 65536)]));
  }
  w.close();
  const data = decodeLog(path);
  assert.deepEqual(data.header, header);
  assert.equal(data.calls, 1000);
  assert.equal(data.elapsed[999], 1099);
  assert.equal(data.op[3], 1);
  assert.equal(data.flags[500], 1);
  assert.deepEqual(Array.from(data.memory.iter), [0, 500]);
  assert.deepEqual(Array.from(data.memory.bytes), [65536, 131072]);
  assert.equal(data.metrics.liveBytes.value.length, 10);
  assert.equal(data.metrics.liveBytes.value[9], 999 * 8);
  assert.equal(data.metrics['memory:memory'].value[0], 65536);
  assert.equal(data.tornBytes, 0);
  assert.equal(data.complete, false, 'no end mark was written');
});

test('a capped log comes back with every call counted per op; an uncapped one without', () => {
  const write = (config) => {
    const path = join(tempDir(), 'samples.wslog');
    const w = createLogWriter(fileSink(path), { ...header, seed: 3, config });
    for (let i = 0; i < 1000; i++)
      w.append(callRecord(i, 100, 65536, i % 3 === 0 ? 1 : 0, (i % 7 === 0 ? 2 : 0) | (i % 100 === 0 ? 1 : 0)));
    w.close();
    return decodeLog(path);
  };
  const capped = write({ maxLogBytes: 1 << 30 });
  // What counting the decoded calls gives.
  const opCalls = [0, 0],
    opThrew = [0, 0];
  let growthEvents = 0;
  for (let i = 0; i < capped.calls; i++) {
    opCalls[capped.op[i]]++;
    if (capped.flags[i] & 2) opThrew[capped.op[i]]++;
    if (capped.flags[i] & 1) growthEvents++;
  }
  assert.deepEqual(
    {
      opCalls: Array.from(capped.callTotals.opCalls),
      opThrew: Array.from(capped.callTotals.opThrew),
      growthEvents: capped.callTotals.growthEvents,
    },
    { opCalls, opThrew, growthEvents },
  );
  assert.deepEqual(opCalls, [666, 334]);
  assert.equal(capped.thinning, null, 'counted, not thinned');
  assert.equal(write({}).callTotals, null);
});

test('a torn last record is skipped, not fatal', () => {
  const path = join(tempDir(), 'samples.wslog');
  const w = createLogWriter(fileSink(path), header);
  for (let i = 0; i < 10; i++) w.append(callRecord(i, 5, 65536));
  w.close();
  truncateSync(path, statSync(path).size - 7);
  const data = decodeLog(path);
  assert.equal(data.calls, 9);
  assert.equal(data.tornBytes, 25);
});

test('the header is padded so records start on a 32-byte boundary', () => {
  for (const name of ['', 'x', 'a much longer target name that spans lines']) {
    const start = encodeLogStart({ name });
    assert.equal(start.length % 32, 0);
    assert.equal(start.subarray(0, 8).toString('latin1'), 'WASMSOAK');
  }
});

test('a file that is not a log is refused with exit-2 error', () => {
  const path = join(tempDir(), 'samples.wslog');
  writeFileSync(path, 'hello');
  assert.throws(
    () => decodeLog(path),
    (err) => err.exitCode === 2 && /not a wasm-soak sample log/.test(err.message),
  );
});

test('a log decoded on another thread comes back as decodeLog gives it, its errors as decodeLog throws them', async () => {
  const path = join(tempDir(), 'samples.wslog');
  const w = createLogWriter(fileSink(path), { ...header, seed: 3, config: { maxLogBytes: 1 << 30 } });
  for (let i = 0; i < 5000; i++) {
    w.append(callRecord(i, 100 + (i % 17), i < 2500 ? 65536 : 131072, i % 2, i % 9 === 0 ? 2 : 0));
    if (i % 500 === 499) w.append(metricRecord(i, 3, i * 8));
  }
  w.close();
  truncateSync(path, statSync(path).size - 7);
  const async = await decodeLogAsync(path);
  assert.deepEqual(async, decodeLog(path));
  assert.equal(async.tornBytes, 25);
  assert.deepEqual(Array.from(async.callTotals.opCalls), [2500, 2500]);

  const notLog = join(tempDir(), 'samples.wslog');
  writeFileSync(notLog, 'hello');
  await assert.rejects(
    decodeLogAsync(notLog),
    (err) => err.exitCode === 2 && /not a wasm-soak sample log/.test(err.message),
  );
  await assert.rejects(
    decodeLogAsync(join(tempDir(), 'none.wslog')),
    (err) => err.exitCode === 2 && /cannot be read/.test(err.message),
  );
});
