// The analysis of a comparison (docs/compare.md): per-arm results and the
// differences of every arm from the first, with the confounds first. Pure:
// it takes the arms' module facts, their analysed summaries and decoded
// timed logs, writes nothing and returns facts (codes and numbers), which
// src/report/compare-words.js words. The time ratio of an arm to A is the
// geometric mean of its block medians over A's in the same rounds, with a
// block-paired bootstrap interval; with several arms the intervals are one
// family, widened by Bonferroni for the number of arms compared (C:
// ws_compare_family). A difference is called real only when its interval
// lies beyond a floor: twice the spread of one arm's blocks against itself,
// at least 3 % (identical builds in their own instances differ by that) and,
// with a control arm, the control's own interval.
import { addon } from '../addon.js';
import { verdictChange } from '../analysis/against-baseline.js';
import { censusMetricsOf } from '../analysis/census-metrics.js';
import { judge } from '../analysis/judge.js';
import { beyondTolerance } from '../options/parsers.js';
import { DEFAULTS } from '../options/schema.js';
import { BOOTSTRAP, CENSUS_KIND, windowRow } from '../protocol.js';
import { compareConfounds } from './confounds.js';
import { countingCoverage, countsComparable } from './counting.js';
import { nativeYardstick, withNativeFacts } from './native-arm.js';

/** Median, p90 and p99 of the calls [from, to) of a decoded run. */
function timeOf(timed, from, to) {
  const nOps = timed.header.ops.length;
  const { n, median, p90, p99 } = windowRow(
    addon.windowStats(timed.elapsed, timed.op, from, Math.min(to, timed.calls), nOps),
    0,
  );
  return { calls: n, median, p90, p99 };
}

/** Each measured block's median time per call (blocks 1..blocks; block 0 warms up). */
function blockMedians(timed, blocks, blockCalls) {
  const out = new Float64Array(blocks);
  for (let b = 0; b < blocks; b++) out[b] = timeOf(timed, (b + 1) * blockCalls, (b + 2) * blockCalls).median;
  return out;
}

/** Allocations and bytes per call from the counting pass (exact totals over the same calls), or null. */
function countsOf(summary) {
  const a = summary.allocations;
  if (!a?.calls || !a.instrumented.some((e) => e.length > 0)) return null;
  return {
    calls: a.calls,
    allocs: a.allocs.total,
    bytes: a.bytes.total,
    allocsPerCall: a.allocs.total / a.calls,
    bytesPerCall: a.bytes.total / a.calls,
    liveEnd: a.live.end,
  };
}

const CENSUS_NAMES = Object.fromEntries(Object.entries(CENSUS_KIND).map(([name, kind]) => [kind, name]));

/**
 * What the heap census recognised during the run (the last kind the
 * censusKind series of the memory the verdicts read recorded, e.g.
 * "dlmalloc"), else before the first call,
 * or null.
 */
function censusOf(summary, timed) {
  const kinds = censusMetricsOf(timed.metrics, summary.census?.memory?.index ?? 0).censusKind?.value ?? [];
  const last = kinds.length ? kinds[kinds.length - 1] : CENSUS_KIND.none;
  if (last !== CENSUS_KIND.none) return CENSUS_NAMES[last] ?? null;
  return summary.sources?.census?.source?.split(',')[0] ?? null;
}

/** The per-arm result. */
function armResult(arm, { blocks, blockCalls }) {
  const { summary, timed, facts } = arm;
  const measured = timeOf(timed, blockCalls, (blocks + 1) * blockCalls);
  return withNativeFacts(arm, {
    name: arm.name,
    role: arm.role,
    path: arm.path,
    package: arm.package ?? null,
    sha256: facts.sha256,
    size: facts.size,
    producers: facts.producers,
    features: facts.features,
    imports: facts.imports,
    memoryLimits: facts.memories,
    allocator: { exports: facts.allocatorExports, census: censusOf(summary, timed) },
    status: summary.status,
    verdict: summary.verdict,
    findings: (summary.findings ?? []).map((f) => ({ kind: f.kind, sentence: f.sentence })),
    time: measured,
    blockMedians: Array.from(blockMedians(timed, blocks, blockCalls)),
    counts: countsOf(summary),
    counting: countingCoverage(summary),
    memory: {
      highWater: summary.memory.max,
      end: summary.memory.end,
      growthEvents: summary.memory.growthEvents,
    },
    result: arm.dir,
  });
}

/**
 * The time ratios to base (results[0]) of every result but the boundary
 * module's, judged as one family: { intervals (the correction and the
 * floors), times: Map(result → { ratio, change, low, high, level, pairs,
 * real, noiseFloor, floorFrom }) }. The family's claims are the arms after
 * base; the control is widened alike and its interval is a floor.
 */
function timeFamily(results, seed) {
  const judged = results.filter((r) => r.role !== 'boundary');
  const rounds = judged[0].blockMedians.length;
  const x = new Float64Array(judged.length * rounds);
  judged.forEach((r, j) => {
    r.blockMedians.forEach((v, i) => {
      x[j * rounds + i] = Math.log(v);
    });
  });
  const claims = judged.filter((r, j) => j > 0 && r.role === 'arm').length;
  const f = addon.compareFamily(x, judged.length, claims, BOOTSTRAP.replicates, BOOTSTRAP.level, seed);
  const raw = new Map(judged.slice(1).map((r, j) => [r, f.changes[j]]));
  const control = judged.find((r) => r.role === 'control');
  const controlFloor = control ? Math.max(Math.abs(raw.get(control).low), Math.abs(raw.get(control).high)) : null;
  const floor = Math.max(f.floor, controlFloor ?? 0);
  const floorFrom = controlFloor !== null && controlFloor > f.floor ? 'control' : 'blocks';
  const times = new Map();
  for (const [r, w] of raw) {
    const own = r.role === 'control';
    times.set(r, {
      ratio: 1 + w.change,
      change: w.change,
      low: w.low,
      high: w.high,
      level: f.armLevel,
      pairs: rounds,
      real: isReal(w, own ? 0 : floor),
      noiseFloor: own ? null : floor,
      floorFrom: own ? null : floorFrom,
    });
  }
  const intervals = {
    correction: 'bonferroni',
    claims,
    level: BOOTSTRAP.level,
    armLevel: f.armLevel,
    widen: f.widen,
    blockSpread: f.spread,
    floorSpreads: f.floorSpreads,
    instanceFloor: f.instanceFloor,
    spreadFloor: f.floor,
    controlFloor,
  };
  return { intervals, times };
}

/** Whether an interval [low, high] of a relative change is beyond no change and the floor. */
function isReal(t, floor) {
  return t.low > floor || t.high < -floor;
}

const diff = (a, b) => (a === null || b === null || a === undefined || b === undefined ? null : a - b);

/**
 * Analyses a comparison. arms: [{ name, role ('arm' | 'control' |
 * 'boundary'), path, dir, facts (module-facts.js), summary (the arm's
 * analysed summary), timed (its decoded timed log) }], the first arm the
 * reference; design: { blocks, blockCalls, order (letters), seed };
 * outputs: { checked, mismatches: [...] }; gates: { slower (a fraction or
 * null), moreAllocs, higherWater, moreAllocsTolerance, higherWaterTolerance
 * (tolerance()'s, the options' defaults when absent) }. Returns the compare.json object of
 * facts, codes and numbers (report/compare-words.js withCompareSentences
 * words them): its regressions are findings of kind regression ({ kind,
 * arm, metric }, the numbers in the arm's difference), its exit code the
 * judge's.
 * Long: the comparison's steps in the order compare.json lists them, each a call or a commented block.
 */
export function analyzeCompare({ arms, design, outputs, gates }) {
  const results = arms.map((a) => armResult(a, design));
  const base = results[0];
  const boundary = results.find((r) => r.role === 'boundary') ?? null;
  const { intervals, times } = timeFamily(results, design.seed);
  const differences = [];
  const regressions = [];
  for (const r of results.slice(1)) {
    if (r.role === 'boundary') continue;
    const time = times.get(r);
    const d = {
      arm: r.name,
      against: base.name,
      role: r.role,
      time,
      allocsPerCall: r.counts && base.counts ? r.counts.allocsPerCall - base.counts.allocsPerCall : null,
      bytesPerCall: r.counts && base.counts ? r.counts.bytesPerCall - base.counts.bytesPerCall : null,
      allocs: r.counts && base.counts ? r.counts.allocs - base.counts.allocs : null,
      // Counts from a pass that is not complete are shown marked and never gated.
      counts: countsComparable(r, base),
      highWater: diff(r.memory.highWater, base.memory.highWater),
      growthEvents: diff(r.memory.growthEvents, base.memory.growthEvents),
      size: {
        raw: r.size.raw - base.size.raw,
        gzip: r.size.gzip - base.size.gzip,
        brotli: r.size.brotli - base.size.brotli,
      },
      verdict: verdictChange(base.verdict, r.verdict),
    };
    differences.push(d);
    if (r.role !== 'arm') continue;
    // A gate broken: its numbers are d's, r's and gates' (report/compare-words.js words them).
    const allocTol = gates.moreAllocsTolerance ?? DEFAULTS.moreAllocsTolerance;
    const waterTol = gates.higherWaterTolerance ?? DEFAULTS.higherWaterTolerance;
    const broken = [
      ['time', gates.slower !== null && time.real && time.low > gates.slower, null],
      [
        'allocations',
        gates.moreAllocs &&
          d.counts.comparable &&
          d.allocs !== null &&
          beyondTolerance(d.allocs, base.counts.allocs, allocTol),
        allocTol,
      ],
      [
        'high-water',
        gates.higherWater && d.highWater !== null && beyondTolerance(d.highWater, base.memory.highWater, waterTol),
        waterTol,
      ],
    ];
    for (const [metric, is, tolerance] of broken) {
      if (is) regressions.push({ kind: 'regression', arm: r.name, metric, ...(tolerance ? { tolerance } : {}) });
    }
  }
  for (const m of outputs.mismatches) regressions.push({ kind: 'regression', arm: m.arm, metric: 'outputs' });
  const boundaryCost = boundary
    ? {
        median: boundary.time.median,
        share: Object.fromEntries(
          results.filter((r) => r.role !== 'boundary').map((r) => [r.name, boundary.time.median / r.time.median]),
        ),
      }
    : null;
  return {
    schema: 'wasm-soak-compare',
    version: 1,
    confounds: compareConfounds(results.filter((r) => r.role !== 'boundary')),
    design: {
      blocks: design.blocks,
      blockCalls: design.blockCalls,
      warmupBlocks: 1,
      order: design.order,
      seed: design.seed,
      callsPerArm: (design.blocks + 1) * design.blockCalls,
    },
    arms: results,
    intervals,
    differences,
    boundary: boundaryCost,
    native: nativeYardstick(arms, design),
    outputs: { checked: outputs.checked, mismatches: outputs.mismatches },
    gates,
    regressions,
    exitCode: judge({ findings: regressions }).exitCode,
    reproduce: design.reproduce,
  };
}
