// The native yardstick of a comparison (docs/compare.md, "The native
// yardstick"): a native arm is the same source built for the host, so per op
// the wasm reference's time over the native arm's says how far wasm is from
// native, and set beside the reference's allocations per call it says
// whether the gap is in allocation-heavy code. Pure: it takes the arms'
// decoded timed logs and analysed summaries, and writes nothing.
import { basename } from 'node:path';
import { addon } from '../addon.js';
import { BOOTSTRAP, windowRow } from '../protocol.js';

/**
 * What is known of a native arm's memory: { live, largest } (bytes live at
 * the end and its largest heap, from its own mallinfo2: the worker's slow
 * samples, metrics allocatorLive and allocatorHeap), or null when it has
 * none (it shares the process heap).
 */
function ownHeap(arm) {
  const live = arm.timed.metrics.allocatorLive?.value ?? [];
  const heap = arm.timed.metrics.allocatorHeap?.value ?? [];
  if (!arm.summary.sources?.native?.heap || live.length === 0) return null;
  return { live: live[live.length - 1], largest: heap.reduce((a, b) => Math.max(a, b), 0) };
}

/**
 * What a native arm's result (analyze-compare.js armResult's, result) says
 * in place of a wasm arm's: its kind, ELF facts, the malloc its buffers came
 * from, no linear memory, and what is known of its memory (ownHeap). Other arms'
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
    memory: { highWater: null, end: null, growthEvents: null, ownHeap: ownHeap(arm) },
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

/**
 * The yardstick of each native arm against the reference (arms[0], a wasm
 * module): { reference, arms: [{ arm, ownHeap, ops: [{ op, wasmMedian,
 * nativeMedian, ratio: { ratio, low, high, level, pairs } | null,
 * allocsPerCall (the reference's counting pass; null uncounted) }] }] }, or
 * null without a native arm; report/compare-words.js words its memory and
 * where the gap is. arms: as analyzeCompare
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
      return { arm: arm.name, ownHeap: ownHeap(arm), ops };
    }),
  };
}
