// The native yardstick of a comparison (docs/compare.md, "The native
// yardstick"): a native arm is the same source built for the host, so per op
// the wasm reference's time over the native arm's says how far wasm is from
// native, and set beside the reference's allocations per call it says
// whether the gap is in allocation-heavy code. Pure: it takes the arms'
// decoded timed logs and analysed summaries, and writes nothing.
import { basename } from 'node:path';
import { addon } from '../addon.js';
import { BOOTSTRAP, windowRow } from '../protocol.js';
import { formatBytes } from '../report/format.js';

// At most this ratio on the allocation-heavy path, a new allocator will not
// change much (the seed workflow's rule of thumb).
const ALLOCATOR_MATTERS = 1.2;

const NO_MEMORY =
  "unavailable: a native library shares the process heap, and this one defines no mallinfo2 of its own (the C library's counts the whole process)";

/**
 * What is known of a native arm's memory, in words: its own mallinfo2's
 * live bytes at the end and largest heap (the worker's slow samples,
 * metrics allocatorLive and allocatorHeap), else why nothing is.
 */
function nativeMemory(arm) {
  const live = arm.timed.metrics.allocatorLive?.value ?? [];
  const heap = arm.timed.metrics.allocatorHeap?.value ?? [];
  if (!arm.summary.sources?.native?.heap || live.length === 0) return NO_MEMORY;
  const largest = heap.reduce((a, b) => Math.max(a, b), 0);
  return `the library's own mallinfo2: ${formatBytes(live[live.length - 1])} live at the end, its heap at most ${formatBytes(largest)}`;
}

/**
 * What a native arm's result (analyze-compare.js armResult's, result) says
 * in place of a wasm arm's: its kind, ELF facts, the malloc its buffers came
 * from, no linear memory, and what is known of its memory. Other arms'
 * results get their kind only.
 */
export function withNativeFacts(arm, result) {
  const { facts, summary } = arm;
  if (facts.kind !== 'native') return { ...result, kind: facts.kind };
  const origin = summary.sources?.native?.malloc;
  const census = origin
    ? `malloc of ${basename(origin)}${basename(origin) === basename(arm.path) ? ' (its own)' : ''}`
    : 'no buffers: not observed';
  return {
    ...result,
    kind: 'native',
    toolchain: facts.toolchain,
    flags: facts.flags,
    cpu: facts.cpu,
    buildId: facts.buildId,
    allocator: { exports: facts.allocatorExports, census },
    memory: { highWater: null, end: null, growthEvents: null, native: nativeMemory(arm) },
  };
}

/** Each measured block's median time per call of each op: [op][block]. */
function opBlockMedians(timed, { blocks, blockCalls }) {
  const nOps = timed.header.ops.length;
  const out = Array.from({ length: nOps }, () => new Float64Array(blocks));
  for (let b = 0; b < blocks; b++) {
    const from = (b + 1) * blockCalls;
    const s = addon.windowStats(timed.elapsed, timed.op, from, Math.min((b + 2) * blockCalls, timed.calls), nOps);
    for (let k = 0; k < nOps; k++) out[k][b] = s[(k + 1) * 4 + 1];
  }
  return out;
}

/** Each op's median time per call over the measured blocks. */
function opMedians(timed, { blocks, blockCalls }) {
  const nOps = timed.header.ops.length;
  const s = addon.windowStats(
    timed.elapsed,
    timed.op,
    blockCalls,
    Math.min((blocks + 1) * blockCalls, timed.calls),
    nOps,
  );
  return Array.from({ length: nOps }, (_, k) => windowRow(s, k + 1).median);
}

/**
 * The wasm ÷ native ratio of paired block medians, with its interval (the
 * paired bootstrap of compare's arms, a family of one: ws_compare_family), or
 * null when an op missed a block.
 */
function ratioOf(wasm, native, seed) {
  const rounds = wasm.length;
  const x = new Float64Array(2 * rounds);
  for (let i = 0; i < rounds; i++) {
    x[i] = Math.log(native[i]);
    x[rounds + i] = Math.log(wasm[i]);
  }
  if (!x.every(Number.isFinite)) return null;
  const f = addon.compareFamily(x, 2, 1, BOOTSTRAP.replicates, BOOTSTRAP.level, seed);
  const w = f.changes[0];
  return { ratio: 1 + w.change, low: 1 + w.low, high: 1 + w.high, level: f.armLevel, pairs: rounds };
}

const times = (r) => `${r.ratio.toFixed(2)}× native (95 %: ${r.low.toFixed(2)}–${r.high.toFixed(2)}×)`;
const perCall = (n) =>
  n === null ? 'uncounted' : n === 0 ? 'no allocation' : `${n.toFixed(n >= 10 ? 0 : 2)} allocations per call`;

/**
 * The sentence that answers "is the wasm slowdown mostly allocation?" for
 * ops [{ op, ratio, allocsPerCall }]: the op with the most allocations per
 * call against the one with the fewest, the gap placed only when their
 * intervals do not overlap. null with fewer than two counted ops that
 * differ in allocations.
 */
export function gapSentence(ops) {
  const counted = ops.filter((o) => o.ratio && o.allocsPerCall !== null);
  if (counted.length < 2) return null;
  const heavy = counted.reduce((a, b) => (b.allocsPerCall > a.allocsPerCall ? b : a));
  const light = counted.reduce((a, b) => (b.allocsPerCall < a.allocsPerCall ? b : a));
  if (heavy.allocsPerCall === light.allocsPerCall) return null;
  const said = `${heavy.op} is ${times(heavy.ratio)} at ${perCall(heavy.allocsPerCall)}, ${light.op} ${times(light.ratio)} at ${perCall(light.allocsPerCall)}`;
  let where;
  if (heavy.ratio.low > light.ratio.high) where = 'the gap is in allocation-heavy code';
  else if (heavy.ratio.high < light.ratio.low)
    where = 'the allocation-heavy op is the closer to native: the gap is not in allocation';
  else where = 'their intervals overlap: this comparison cannot tell whether allocation is the difference';
  const allocator =
    heavy.ratio.ratio <= ALLOCATOR_MATTERS
      ? `; at ${ALLOCATOR_MATTERS}× or less on the allocation-heavy path, a new allocator will not change much`
      : '';
  return `${said}: ${where}${allocator}.`;
}

/**
 * The yardstick of each native arm against the reference (arms[0], a wasm
 * module): { reference, arms: [{ arm, memory, ops: [{ op, wasmMedian,
 * nativeMedian, ratio: { ratio, low, high, level, pairs } | null,
 * allocsPerCall (the reference's counting pass; null uncounted) }],
 * sentence }] }, or null without a native arm. arms: as analyzeCompare
 * takes them; design: { blocks, blockCalls, seed }.
 */
export function nativeYardstick(arms, design) {
  const natives = arms.filter((a) => a.facts.kind === 'native');
  if (natives.length === 0) return null;
  const base = arms[0];
  const names = base.timed.header.ops.map((o) => o.name);
  const baseMedians = opBlockMedians(base.timed, design);
  const baseTime = opMedians(base.timed, design);
  const counted = base.summary.allocations?.ops ?? null;
  return {
    reference: base.name,
    arms: natives.map((arm) => {
      const medians = opBlockMedians(arm.timed, design);
      const time = opMedians(arm.timed, design);
      const ops = names.map((op, k) => {
        const c = counted?.find((o) => o.name === op);
        return {
          op,
          wasmMedian: baseTime[k],
          nativeMedian: time[k],
          ratio: ratioOf(baseMedians[k], medians[k], design.seed),
          allocsPerCall: c?.calls ? c.allocs.total / c.calls : null,
        };
      });
      return { arm: arm.name, memory: nativeMemory(arm), ops, sentence: gapSentence(ops) };
    }),
  };
}
