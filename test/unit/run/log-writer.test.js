// Bounded disk (--max-log-bytes): a capped log stays under its cap however
// long the run, is thinned past half of it (docs/log-format.md, "Thinned
// logs"), and the analysis gets the same verdict, counts and slopes from it.
// The checks here run no CLI and no worker; the runs through the CLI are in
// test/e2e/log-cap.test.js.
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { decodeLog } from '../../../src/analysis/log-reader.js';
import { RECORD_SIZE, RECORD_TYPE } from '../../../src/protocol.js';
import { createLogWriter, fileSink, memorySink } from '../../../src/run/log-writer.js';
import { tempDir } from '../../helpers.js';

const MiB = 1024 * 1024;

test('a log capped at 1 MiB stays under it over 20 M calls (19 calls per byte of cap; 2 h at 5 M calls/s under 2 GiB is 17), in a file and in memory alike', () => {
  const path = join(tempDir(), 'samples.wslog');
  const header = {
    format: 'wasm-soak-log',
    seed: 5,
    ops: [{ name: 'a' }, { name: 'b' }],
    config: { maxLogBytes: MiB },
  };
  const w = createLogWriter(fileSink(path), header, { maxBytes: MiB });
  // The library's in-memory log (soak() without out): the same writer into a buffer.
  const memory = memorySink({ limit: MiB });
  const m = createLogWriter(memory, header, { maxBytes: MiB });
  const per = 4096;
  const chunk = Buffer.alloc(per * RECORD_SIZE);
  const N = per * 4883; // about 20 M, whole chunks
  for (let k = 0; k < per; k++) chunk[k * RECORD_SIZE] = RECORD_TYPE.call;
  for (let first = 0; first < N; first += per) {
    for (let k = 0; k < per; k++) {
      const o = k * RECORD_SIZE;
      const i = first + k;
      chunk.writeUInt16LE(i % 3 === 0 ? 1 : 0, o + 2);
      chunk.writeUInt32LE(i, o + 4);
      chunk.writeUInt32LE(100 + (i % 7), o + 8); // elapsed ns
      chunk.writeUInt32LE(65536 + 65536 * Math.floor(i / 10_000_000), o + 16); // memory bytes
      chunk[o + 1] = i % 10_000_000 === 0 && i > 0 ? 1 : 0; // grew
    }
    w.append(chunk);
    m.append(chunk);
  }
  w.close();
  m.close();
  assert.ok(statSync(path).size <= MiB, `${statSync(path).size} bytes`);
  assert.ok(w.thinning.stride > 1 && w.thinning.droppedAtCap === 0, JSON.stringify(w.thinning));
  assert.ok(Buffer.from(memory.bytes).equals(readFileSync(path)), 'the memory sink holds the bytes of the file');
  assert.ok(
    memory.bytes.buffer.byteLength <= MiB,
    `the buffer never grows past the cap: ${memory.bytes.buffer.byteLength}`,
  );
  const data = decodeLog(path);
  const fromMemory = decodeLog(memory.bytes);
  assert.deepEqual(fromMemory, data, 'the reader decodes the bytes in memory as it decodes the file');
  assert.equal(data.thinning.iterations, N, 'every call is counted');
  assert.equal(data.thinning.opCalls[1], Math.ceil(N / 3));
  const steps = Math.floor((N - 1) / 10_000_000); // memory grows at every 10 M-th call
  assert.equal(data.thinning.growthEvents, steps);
  assert.ok(Math.abs(data.calls * data.stride - N) <= data.stride, `${data.calls} kept at stride ${data.stride}`);
  // One kept call per block of stride iterations, in order.
  for (let k = 1; k < data.gapIter.length; k++) {
    const block = Math.floor(data.gapIter[k] / data.stride);
    assert.equal(block, Math.floor(data.gapIter[k - 1] / data.stride) + 1);
  }
  // Each change is seen at the first kept call after it (the last may fall
  // after the last kept call).
  const { iter, bytes } = data.memory;
  assert.ok(bytes.length >= steps, `${bytes.length} memory steps`);
  for (let k = 0; k < bytes.length; k++) {
    assert.equal(bytes[k], 65536 * (k + 1));
    assert.ok(iter[k] >= 10_000_000 * k && iter[k] < 10_000_000 * k + 2 * data.stride, `step ${k} at ${iter[k]}`);
  }
});

test('a drain that alone crosses half the cap (a fast export, a small cap, a main thread kept from draining) keeps a full prefix and thins the rest to fit: nothing dropped, the whole run covered', () => {
  const N = 4_000_000;
  for (const per of [40_000, 262_144]) {
    const memory = memorySink({ limit: MiB });
    const header = { format: 'wasm-soak-log', seed: 5, ops: [{ name: 'a' }], config: { maxLogBytes: MiB } };
    const w = createLogWriter(memory, header, { maxBytes: MiB });
    const chunk = Buffer.alloc(per * RECORD_SIZE);
    for (let first = 0; first < N; first += per) {
      const n = Math.min(per, N - first);
      for (let k = 0; k < n; k++) {
        chunk[k * RECORD_SIZE] = RECORD_TYPE.call;
        chunk.writeUInt32LE(first + k, k * RECORD_SIZE + 4);
        chunk.writeUInt32LE(100, k * RECORD_SIZE + 8);
      }
      w.append(chunk.subarray(0, n * RECORD_SIZE));
    }
    w.close();
    assert.ok(memory.bytes.length <= MiB, `${memory.bytes.length} bytes`);
    assert.equal(w.thinning.droppedAtCap, 0, JSON.stringify(w.thinning));
    assert.ok(w.thinning.fullIterations > 1000, `the first ${w.thinning.fullIterations} calls logged in full`);
    const data = decodeLog(memory.bytes);
    assert.equal(data.thinning.iterations, N, 'every call is counted');
    assert.equal(data.thinning.from, w.thinning.fullIterations, 'the reader sees where thinning began');
    assert.ok(
      data.gapIter.at(-1) >= N - 2 * data.stride,
      `the last kept call, ${data.gapIter.at(-1)}, is near the end`,
    );
  }
});
