// Synthetic runs for the node:test suites: decoded runs with known drift,
// leak and fragmentation (the shape decodeLog returns), and their raw records
// as the ring would carry them.
import { readFileSync } from 'node:fs';
import { FLAG, METRIC, RECORD_OFFSETS, RECORD_SIZE, RECORD_TYPE } from '../src/protocol.js';

export const CALLS = 20000;
const EVERY = 100;

// Seeded uniform numbers in (0, 1) (mulberry32).
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
}

// Builds a decoded run: lognormal times with an early tier-up, linear memory
// in 64 KiB pages, and optional slow-cadence metrics. Live bytes: liveBase
// plus a wander of standard deviation about wander, leak bytes per call and
// sample noise; startupBytes of linear memory grown in pages over the first
// startupCalls calls (a start-up that auto warm-up absorbs); burstBytes of
// live bytes gathered over every burstEvery calls and then freed at once
// (a sawtooth: finalizers that run now and then).
// control: the machine's control samples every 50 calls (a reference
// workload of 5.6 µs); slowed: { from, to, by } slows the machine (calls and
// control alike) by a factor 1 + by over calls [from, to) (ramp: rising to
// it linearly); preempted: { from, to, share }: that share of the calls in
// [from, to) wait 3 ms more and are flagged preempted.
export function syntheticRun({
  seed = 1,
  drift = 0,
  leak = 0,
  frag = 0,
  plateau = false,
  jsLeak = 0,
  live = true,
  js = true,
  liveBase = (1 << 20) * 0.8,
  wander: wanderScale = 16384,
  noise = 2048,
  startupBytes = 0,
  startupCalls = 4000,
  burstBytes = 0,
  burstEvery = 2000,
  control = false,
  slowed = null,
  preempted = null,
} = {}) {
  const within = (x, i) => x != null && i >= x.from && i < x.to;
  const machine = (i) => {
    if (!within(slowed, i)) return 1;
    return 1 + (slowed.ramp ? (slowed.by * (i - slowed.from)) / (slowed.to - slowed.from) : slowed.by);
  };
  const machineSamples = { iter: [], ns: [] };
  const flags = new Uint8Array(CALLS);
  const u = rng(seed);
  const normal = () => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
  const elapsed = new Float32Array(CALLS);
  const memIter = [0];
  const memBytes = [131072 + 65536 * 16];
  const samples = { iter: [], live: [], js: [] };
  let top = 1 << 20;
  let wander = 0;
  for (let i = 0; i < CALLS; i++) {
    elapsed[i] = 800 * Math.exp(0.25 * normal()) * (1 + (drift * i) / CALLS) * (i < 800 ? 1.8 : 1) * machine(i);
    if (within(preempted, i) && u() < preempted.share) {
      // A preempted call waits out another thread's time slice (3 ms).
      elapsed[i] += 3e6;
      flags[i] = FLAG.preempted;
    }
    if (control && i % 50 === 0) {
      machineSamples.iter.push(i);
      machineSamples.ns.push(5600 * Math.exp(0.02 * normal()) * machine(i));
    }
    wander = 0.99 * wander + 0.14 * wanderScale * normal();
    const liveBytes = liveBase + wander + leak * i + (burstBytes * (i % burstEvery)) / burstEvery;
    top = Math.max(top, liveBytes * 1.25 + frag * i);
    let bytes = 131072 + Math.ceil(top / 65536) * 65536;
    bytes += Math.floor((startupBytes * Math.min(i + 1, startupCalls)) / startupCalls / 65536) * 65536;
    if (plateau && i >= 14000) bytes += 65536;
    if (bytes !== memBytes[memBytes.length - 1]) {
      memIter.push(i);
      memBytes.push(bytes);
    }
    if (i % EVERY === EVERY - 1) {
      samples.iter.push(i);
      samples.live.push(liveBytes + noise * normal());
      samples.js.push((6 << 20) + ((i * 977) % (2 << 20)) * 0.5 + jsLeak * i);
    }
  }
  const metric = (values) => ({
    iter: Float64Array.from(samples.iter),
    tMs: Float64Array.from(samples.iter, (x) => x / 10),
    value: Float64Array.from(values),
  });
  const metrics = {};
  if (live) metrics.liveBytes = metric(samples.live);
  if (js) metrics.jsHeap = metric(samples.js);
  if (control) {
    const at = (values) => ({
      iter: Float64Array.from(machineSamples.iter),
      tMs: Float64Array.from(machineSamples.iter, (x) => x / 10),
      value: Float64Array.from(values),
    });
    metrics.controlNs = at(machineSamples.ns);
  }
  return {
    header: { seed, memories: [{ label: 'memory', initialBytes: 131072, maximumBytes: null }] },
    calls: CALLS,
    elapsed,
    flags,
    memory: { iter: Float64Array.from(memIter), bytes: Float64Array.from(memBytes) },
    metrics,
    durationMs: 2000,
  };
}

/**
 * The raw records of a synthetic run: one call record per call (time,
 * memory), and its liveBytes and jsHeap samples as metric records after
 * their call (jsHeap as the retained heap, jsHeapAfterGC).
 */
export function syntheticRecords(data) {
  const samples = [
    [METRIC.liveBytes, data.metrics.liveBytes],
    [METRIC.jsHeapAfterGC, data.metrics.jsHeap],
  ].filter(([, s]) => s);
  const count = data.calls + samples.reduce((n, [, s]) => n + s.iter.length, 0);
  const bytes = new Uint8Array(count * RECORD_SIZE);
  const view = new DataView(bytes.buffer);
  const O = RECORD_OFFSETS;
  let k = 0;
  const put = (type, op, iteration, a, b) => {
    const at = k++ * RECORD_SIZE;
    view.setUint8(at + O.type, type);
    view.setUint16(at + O.op, op, true);
    view.setUint32(at + O.iteration, iteration, true);
    view.setBigUint64(at + O.a, BigInt(Math.round(a)), true);
    view.setBigUint64(at + O.b, BigInt(Math.round(b)), true);
    view.setBigUint64(at + O.t, BigInt(iteration * 1000), true);
  };
  const next = samples.map(() => 0);
  let m = 0;
  for (let i = 0; i < data.calls; i++) {
    while (m + 1 < data.memory.iter.length && data.memory.iter[m + 1] <= i) m++;
    put(RECORD_TYPE.call, 0, i, data.elapsed[i], data.memory.bytes[m]);
    samples.forEach(([id, s], j) => {
      if (s.iter[next[j]] === i) put(RECORD_TYPE.metric, id, i, s.value[next[j]++], 0);
    });
  }
  return bytes.subarray(0, k * RECORD_SIZE);
}

/**
 * The JSON header and the raw records of an intact sample log
 * (docs/log-format.md): version 2's blocks without their headers.
 */
export function logRecords(path) {
  const buf = readFileSync(path);
  const length = buf.readUInt32LE(12);
  const start = Math.ceil((16 + length) / RECORD_SIZE) * RECORD_SIZE;
  const bodies = [];
  for (let at = start; at + RECORD_SIZE <= buf.length; ) {
    const n = buf.readUInt32LE(at + 8); // the block header's record count
    bodies.push(buf.subarray(at + RECORD_SIZE, at + RECORD_SIZE + n * RECORD_SIZE));
    at += RECORD_SIZE + n * RECORD_SIZE;
  }
  return {
    header: JSON.parse(buf.subarray(16, 16 + length).toString('utf8')),
    records: new Uint8Array(Buffer.concat(bodies)),
  };
}

/** Feeds records to consume(chunk) in chunks of size records. */
export function feed(records, consume, size = 997) {
  for (let off = 0; off < records.length; off += size * RECORD_SIZE)
    consume(records.subarray(off, Math.min(records.length, off + size * RECORD_SIZE)));
}
