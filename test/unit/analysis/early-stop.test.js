// The early stop of a leaking run (src/analysis/early-stop.js, docs/verdicts.md,
// "Early stop"): the live analysis run every 1 000 calls of synthetic runs of
// every kind, as the timed pass runs it, decides only where the full run's
// verdict is leak; a heap that fills a cache and levels off is never decided.
// A leaking run that stops early: test/e2e/early-stop.test.js.
import assert from 'node:assert/strict';
import test from 'node:test';
import { judgeTrends, toReplicate } from '../../../src/analysis/analyze.js';
import { decided, EARLY_STOP } from '../../../src/analysis/early-stop.js';
import { createLiveAnalysis } from '../../../src/analysis/live.js';
import { DEFAULTS } from '../../../src/options/schema.js';
import { RECORD_OFFSETS, RECORD_SIZE } from '../../../src/protocol.js';
import { earlyStopWords } from '../../../src/report/progress-words.js';
import { withSentences } from '../../../src/report/sentences.js';
import { CALLS, syntheticRecords, syntheticRun } from '../../synthetic.js';

const HEADER = { seed: 3, memories: [{ label: 'memory', initialBytes: 131072, maximumBytes: null }] };
const CFG = { warmup: 'auto', timeThreshold: DEFAULTS.timeThreshold, iterations: CALLS, durationMs: null };

/**
 * The live analysis of data's records after every `every` calls: [{ calls,
 * verdict, decided }], as the timed pass would see them with an analysis due
 * at each.
 */
function analyses(data, every = 1000) {
  const records = syntheticRecords(data);
  const view = new DataView(records.buffer, records.byteOffset, records.byteLength);
  const n = records.length / RECORD_SIZE;
  const live = createLiveAnalysis({ header: HEADER, cfg: CFG });
  const out = [];
  let k = 0;
  for (let calls = every; calls <= data.calls; calls += every) {
    let end = k;
    while (end < n && view.getUint32(end * RECORD_SIZE + RECORD_OFFSETS.iteration, true) < calls) end++;
    live.consume(records.subarray(k * RECORD_SIZE, end * RECORD_SIZE));
    k = end;
    const p = live.preliminary(true);
    out.push({ calls, verdict: p.verdict, decided: p.decided });
  }
  live.close();
  return out;
}

/**
 * A clean synthetic run whose live bytes fill a cache of capacity bytes
 * with time constant tau calls (capacity × (1 − e^(−i/tau))), linear memory
 * following the live bytes' high-water mark.
 */
function fillingCache(seed, capacity, tau) {
  const d = syntheticRun({ seed });
  const live = d.metrics.liveBytes;
  for (let k = 0; k < live.iter.length; k++) live.value[k] += capacity * (1 - Math.exp(-live.iter[k] / tau));
  const iter = [0];
  const bytes = [d.memory.bytes[0]];
  let top = 0;
  for (let k = 0; k < live.iter.length; k++) {
    top = Math.max(top, live.value[k] * 1.25);
    const b = Math.max(bytes[0], 131072 + Math.ceil(top / 65536) * 65536);
    if (b !== bytes.at(-1)) {
      iter.push(live.iter[k]);
      bytes.push(b);
    }
  }
  d.memory = { iter: Float64Array.from(iter), bytes: Float64Array.from(bytes) };
  return d;
}

const RUNS = {
  stable: syntheticRun({ seed: 2 }),
  leak: syntheticRun({ seed: 4, leak: 24 }),
  fragmentation: syntheticRun({ seed: 5, frag: 65536 / 1500 }),
  growth: syntheticRun({ seed: 6, frag: 65536 / 1500, live: false }),
  slowdown: syntheticRun({ seed: 7, drift: 0.3 }),
  'js-heap-growth': syntheticRun({ seed: 8, jsLeak: 200 }),
  'late step': syntheticRun({ seed: 10, plateau: true }),
  'start-up growth': syntheticRun({ seed: 11, startupBytes: 4 << 20 }),
  // Caches that fill in a tenth, a fifth and two fifths of the run.
  'cache τ=1000': fillingCache(2, 2 << 20, 1000),
  'cache τ=2000': fillingCache(9, 2 << 20, 2000),
  'cache τ=4000': fillingCache(2, 2 << 20, 4000),
};

test('only a leak the full run finds is decided early, and only once the rule allows', () => {
  const decidedRuns = [];
  for (const [name, data] of Object.entries(RUNS)) {
    const full = judgeTrends(data, CFG).trend.verdict;
    const seen = analyses(data);
    const first = seen.find((a) => a.decided);
    if (!first) continue;
    decidedRuns.push(name);
    assert.equal(full, 'leak', `${name}: decided at ${first.calls} calls, but the full run says ${full}`);
    const d = first.decided;
    assert.equal(d.calls, first.calls);
    assert.ok(d.share >= EARLY_STOP.minShare, `${name}: ${d.share}`);
    assert.ok(d.pValue <= EARLY_STOP.pValue && d.low >= EARLY_STOP.lowShare * d.slope, JSON.stringify(d));
    // The leak held from an analysis of at most half the calls on.
    const since = seen.filter((a) => a.calls * 2 <= first.calls).at(-1);
    assert.ok(seen.filter((a) => a.calls >= since.calls && a.calls <= first.calls).every((a) => a.verdict === 'leak'));
  }
  assert.deepEqual(decidedRuns, ['leak']);
  assert.match(
    earlyStopWords(analyses(RUNS.leak).find((a) => a.decided).decided),
    /^the leak was decided after [\d,]+ of 20,000 calls \(live bytes \+[\d.]+ (B|KiB|MiB) per 1,000 calls, interval .+, p = .+\), so the run ended there; --full-run runs every planned call\.$/,
  );
});

test('no early stop where a full run would reach the memory limit, nor before an eighth of the plan', () => {
  const leak = {
    kind: 'leak',
    series: 'live-bytes',
    pValue: 1e-6,
    slope: { perKiloIterations: 24000, low: 23000, high: 25000 },
    window: { from: 500, to: 10000 },
    projection: { limitBytes: 1 << 30, iterations: 1e6, wallMs: 1e6 },
  };
  const first = { calls: 5000, grown: 24 * 4500, from: 500, to: 5000 };
  const plan = { iterations: 20000, durationMs: null, elapsedMs: 1000 };
  const at = (f, p = plan, calls = 10000) => decided(f, { calls, first, plan: p });
  assert.equal(at(leak).calls, 10000);
  assert.equal(
    at({ ...leak, projection: { ...leak.projection, iterations: 9000 } }),
    null,
    'memory-exhausted comes first',
  );
  // A thinned copy's projection counts kept calls.
  assert.equal(
    decided(
      { ...leak, projection: { ...leak.projection, iterations: 2500 } },
      { calls: 10000, first, stride: 4, plan },
    ),
    null,
  );
  assert.equal(at(leak, { iterations: 200000, durationMs: null, elapsedMs: 1000 }), null, 'a twentieth of the plan');
  assert.equal(at(leak, { iterations: null, durationMs: 60000, elapsedMs: 9000 })?.share, 0.15, 'by --duration');
  assert.equal(at({ ...leak, pValue: 1e-3 }), null, 'p not strict enough');
  assert.equal(at({ ...leak, slope: { ...leak.slope, low: 10000 } }), null, 'the interval reaches towards zero');
  assert.equal(at(leak, plan, 9000), null, 'the run has not doubled since the leak was first found');
  // The bytes grew at a quarter of their pace since: a heap levelling off.
  assert.equal(at({ ...leak, slope: { ...leak.slope, perKiloIterations: 14000, low: 13000 } }), null);
});

test("a slowdown beside a leak is the growing heap's: not timed again, and worded so", () => {
  const cfg = { warmup: 'auto', timeThreshold: DEFAULTS.timeThreshold };
  assert.equal(toReplicate(syntheticRun({ seed: 7, drift: 0.3 }), cfg), 'slowdown');
  const both = syntheticRun({ seed: 7, drift: 0.3, leak: 24 });
  const { findings, series } = judgeTrends(both, cfg).trend;
  assert.deepEqual(findings.map((f) => f.kind).sort(), ['leak', 'slowdown']);
  assert.equal(toReplicate(both, cfg), null);
  const slowdown = withSentences({ findings, series }).findings.find((f) => f.kind === 'slowdown');
  assert.match(
    slowdown.sentence,
    /as memory grows with the calls \(see the memory finding\): the growing heap explains it, and it recurs with the heap, so the calls were not timed again\.$/,
  );
});
