// Trend verdicts on synthetic decoded runs (docs/architecture.md), one per
// kind of finding, plus the plateau step that must stay stable.

import assert from 'node:assert/strict';
import test from 'node:test';
import { toReplicate } from '../../../src/analysis/analyze.js';
import { judge } from '../../../src/analysis/judge.js';
import { analyzeRun as analyzeFacts } from '../../../src/analysis/verdict.js';
import { FINDING_KINDS, VERDICT_DEFAULTS } from '../../../src/protocol.js';
import { withSentences } from '../../../src/report/sentences.js';
import { CALLS, syntheticRun as run } from '../../synthetic.js';

const kinds = (r) => r.findings.map((f) => f.kind);

// The trend verdicts as every output reads them: the facts, worded.
const analyzeRun = (data, options) => withSentences(analyzeFacts(data, options));

test('a stationary run is stable and reports its warm-up', () => {
  const r = analyzeRun(run({ seed: 2 }));
  assert.equal(judge(r).verdict, 'stable', JSON.stringify(r.findings));
  assert.equal(r.warmup.method, 'auto');
  assert.ok(r.warmup.iterations >= 700 && r.warmup.iterations <= CALLS / 2, `warm-up ${r.warmup.iterations}`);
  assert.ok(r.series.some((s) => s.name === 'time' && s.tested));
});

test('one late plateau step of linear memory stays stable', () => {
  const r = analyzeRun(run({ seed: 3, plateau: true }));
  assert.equal(judge(r).verdict, 'stable', JSON.stringify(r.findings));
  assert.notEqual(r.series.find((s) => s.name === 'memory').pattern, 'sustained');
});

test('growing live bytes are a leak with a rate, interval and projection', () => {
  const r = analyzeRun(run({ seed: 4, leak: 16 }));
  assert.equal(judge(r).verdict, 'leak');
  const f = r.findings[0];
  assert.equal(f.series, 'live-bytes');
  assert.ok(f.slope.low < 16000 && f.slope.high > 16000, JSON.stringify(f.slope));
  assert.ok(f.pValue < 0.01);
  assert.ok(f.projection.iterations > 0 && f.projection.limitBytes === 4294967296);
  assert.match(f.sentence, /KiB per 1,000 calls/);
});

test('memory growth with flat live bytes is fragmentation', () => {
  const r = analyzeRun(run({ seed: 5, frag: 65536 / 1500 }));
  assert.deepEqual(kinds(r), ['fragmentation']);
});

test('memory growth without live bytes is growth, and says what would tell', () => {
  const r = analyzeRun(run({ seed: 6, frag: 65536 / 1500, live: false }));
  assert.deepEqual(kinds(r), ['growth']);
  assert.match(r.findings[0].sentence, /liveBytes|mallinfo/);
});

test('a +20 % drift in time per call is a slowdown', () => {
  const r = analyzeRun(run({ seed: 7, drift: 0.2 }));
  assert.deepEqual(kinds(r), ['slowdown']);
  assert.ok(r.findings[0].effect.relative > 0.1);
  assert.match(r.findings[0].sentence, /^Time per call rises by .* while memory shows no sustained growth\.$/);
});

test('the time effect is the interval that decided, quoted by the sentence; the windows describe', () => {
  const r = analyzeRun(run({ seed: 7, drift: 0.2 }));
  const f = r.findings[0];
  const t = r.series.find((s) => s.name === 'time');
  const e = f.effect;
  // No control in a synthetic run: the calls' own trend decides, at 98 %.
  assert.equal(e.method, 'trend');
  assert.equal(e.level, 0.98);
  assert.deepEqual(t.effect, e);
  assert.ok(e.low < e.relative && e.relative < e.high, JSON.stringify(e));
  assert.ok(e.low >= 0.1 && e.low < 0.2 && e.high > 0.2, JSON.stringify(e));
  assert.equal(f.machine.controlled, false);
  assert.deepEqual(f.machine.callsAlone, { relative: e.relative, low: e.low, high: e.high });
  // The early-vs-late window change stays a description of the series.
  assert.equal(t.windowsEffect.method, 'windows, moving-block bootstrap');
  assert.equal(t.windowsChange, t.windowsEffect.relative);
  assert.equal(f.windowsEffect, undefined);
  // Windows: the first and last fifth of the batches after the time warm-up.
  const w = f.windows;
  assert.equal(w.early.from, f.window.from);
  assert.equal(w.late.to, f.window.to);
  assert.ok(w.early.to < w.late.from && w.batches === 12 && w.blockBatches === 3, JSON.stringify(w));
  assert.ok(Math.abs(w.late.ns / w.early.ns - 1 - t.windowsEffect.relative) < 1e-9);
  // The sentence quotes the interval that decided (three significant digits,
  // as every percentage of the reports: format.js), never another one.
  const pct = (v) => String(Number((v * 100).toPrecision(3))).replace('.', '\\.');
  assert.match(
    f.sentence,
    new RegExp(
      `^Time per call rises by \\+${pct(e.relative)} % across the run \\(98 % interval \\+${pct(e.low)} % to \\+${pct(e.high)} %; typical call`,
    ),
  );
  assert.doesNotMatch(f.sentence, /95 %/);
});

test('the window interval is reproducible from the seed and moves with it', () => {
  const data = run({ seed: 13, drift: 0.2 });
  const a = analyzeRun(data).series.at(-1).windowsEffect;
  assert.deepEqual(analyzeRun(data).series.at(-1).windowsEffect, a);
  const b = analyzeRun(data, { seed: 14 }).series.at(-1).windowsEffect;
  assert.equal(b.relative, a.relative);
  assert.ok(b.low !== a.low || b.high !== a.high);
});

test('a stationary run reports a window change whose interval covers 0', () => {
  const t = analyzeRun(run({ seed: 2 })).series.at(-1);
  assert.ok(t.windowsEffect.low < 0 && t.windowsEffect.high > 0, JSON.stringify(t.windowsEffect));
  assert.ok(t.trendEffect.low < 0 && t.trendEffect.high > 0, JSON.stringify(t.trendEffect));
});

test('too short a run for a window interval gives null bounds', () => {
  const data = run({ seed: 2 });
  const short = { ...data, calls: 150, elapsed: data.elapsed.slice(900, 1050), metrics: {} };
  const t = analyzeRun(short, { warmup: 0 }).series.at(-1);
  assert.ok(t.tested);
  assert.equal(t.windowsEffect.low, null);
  assert.equal(t.windowsEffect.high, null);
  assert.ok(Number.isFinite(t.windowsEffect.relative));
});

test('a slowdown next to memory growth says that memory grows too, and explains it (not timed again)', () => {
  const r = analyzeRun(run({ seed: 11, drift: 0.2, frag: 65536 / 1500 }));
  assert.deepEqual(kinds(r), ['fragmentation', 'slowdown']);
  assert.match(
    r.findings[1].sentence,
    /rises by .*, as memory grows with the calls \(see the memory finding\): the growing heap explains it/,
  );
  assert.doesNotMatch(r.findings[1].sentence, /flat|no sustained growth/);
});

test('the seed defaults to the run header and is validated', () => {
  const data = run({ seed: 12 });
  assert.deepEqual(analyzeRun(data), analyzeRun(data, { seed: 12 }));
  assert.throws(() => analyzeRun(data, { seed: -1 }), { code: 'WS_EINVAL' });
});

test('a growing worker JS heap is js-heap-growth', () => {
  const r = analyzeRun(run({ seed: 8, jsLeak: 200 }));
  assert.deepEqual(kinds(r), ['js-heap-growth']);
});

test('a fixed warm-up is used as given', () => {
  const r = analyzeRun(run({ seed: 9 }), { warmup: 3000 });
  assert.equal(r.warmup.method, 'fixed');
  assert.equal(r.warmup.iterations, 3000);
  assert.throws(() => analyzeRun(run(), { warmup: -1 }), { code: 'WS_EINVAL' });
});

// A retained JS heap that rises steadily by about 96 KiB across the run:
// sustained by the trend tests, but below C's practical threshold.
function smallJsRise() {
  const data = run({ seed: 12, js: false });
  const iter = Float64Array.from({ length: 16 }, (_, i) => (i + 1) * 1176);
  const value = Float64Array.from(iter, (_, i) => 6e6 + 6400 * i + (i % 3) * 300);
  return { ...data, metrics: { ...data.metrics, jsHeap: { iter, tMs: iter, value } } };
}

test('the JS heap threshold is decided in C and reported below it', () => {
  assert.equal(VERDICT_DEFAULTS.jsHeapThreshold, 256 * 1024);
  const r = analyzeRun(smallJsRise(), { warmup: 0 });
  assert.equal(judge(r).verdict, 'stable', JSON.stringify(r.findings));
  const js = r.series.find((x) => x.name === 'js-heap');
  assert.equal(js.pattern, 'sustained');
  assert.equal(js.belowThreshold.thresholdBytes, VERDICT_DEFAULTS.jsHeapThreshold);
  const grown = (js.slope.perKiloIterations * (js.window.to - js.window.from)) / 1000;
  assert.ok(Math.abs(js.belowThreshold.grownBytes - grown) < 1e-6 * grown, JSON.stringify(js.belowThreshold));
  // The threshold is C's option: lowered, the same trend is a finding.
  const low = analyzeRun(smallJsRise(), { warmup: 0, jsHeapThreshold: 64 * 1024 });
  assert.deepEqual(kinds(low), ['js-heap-growth']);
  assert.equal(low.series.find((x) => x.name === 'js-heap').belowThreshold, undefined);
  assert.throws(() => analyzeRun(smallJsRise(), { jsHeapThreshold: -1 }), { code: 'WS_EINVAL' });
});

test('one verdict rule: the most severe finding in C order, budget last', () => {
  assert.deepEqual(FINDING_KINDS, [
    'memory-exhausted',
    'stack-drift',
    'leak',
    'unfreed-objects',
    'fragmentation',
    'growth',
    'js-heap-growth',
    'slowdown',
    'budget',
  ]);
  const verdictOf = (findings, inconclusive = []) => judge({ findings, inconclusive }).verdict;
  assert.equal(verdictOf([]), 'stable');
  assert.equal(verdictOf([], [{ reason: 'late-step' }]), 'inconclusive');
  assert.equal(verdictOf([{ kind: 'slowdown' }], [{ reason: 'late-step' }]), 'slowdown');
  assert.equal(verdictOf([{ kind: 'budget' }]), 'budget');
  assert.equal(verdictOf([{ kind: 'budget' }, { kind: 'slowdown' }, { kind: 'growth' }]), 'growth');
  assert.equal(verdictOf([{ kind: 'growth' }, { kind: 'unfreed-objects' }]), 'unfreed-objects');
  assert.equal(verdictOf([{ kind: 'unfreed-objects' }, { kind: 'leak' }]), 'leak');
  // The analysis's findings are judged by the same rule.
  for (const r of [analyzeRun(run({ seed: 11, drift: 0.2, frag: 65536 / 1500 })), analyzeRun(run({ seed: 2 }))])
    assert.equal(
      verdictOf(r.findings, r.inconclusive),
      r.findings[0]?.kind ?? (r.inconclusive.length ? 'inconclusive' : 'stable'),
    );
});

test('the early and late windows are the time test windows, tested or not', () => {
  const r = analyzeRun(run({ seed: 7, drift: 0.2 }));
  const t = r.series.find((s) => s.name === 'time');
  assert.deepEqual(r.windows, {
    early: { from: t.windows.early.from, to: t.windows.early.to },
    late: { from: t.windows.late.from, to: t.windows.late.to },
  });
  // Too few calls for the time test: the windows are still defined.
  const data = run({ seed: 2 });
  const short = { ...data, calls: 60, elapsed: data.elapsed.slice(0, 60), metrics: {} };
  const s = analyzeRun(short, { warmup: 0 });
  assert.equal(s.series.at(-1).tested, false);
  assert.deepEqual(s.windows, { early: { from: 0, to: 10 }, late: { from: 50, to: 60 } });
});

// ---- Time against the machine (docs/verdicts.md, "Time against the machine") ----

test('a machine that slows through the run is machine noise, never a slowdown', () => {
  // The measured case: +44 % on a clean module, the machine's doing.
  for (const seed of [21, 22, 23]) {
    const r = analyzeRun(run({ seed, control: true, slowed: { from: 0, to: CALLS, by: 0.44, ramp: true } }));
    assert.equal(judge(r).verdict, 'inconclusive', JSON.stringify(r.inconclusive));
    const u = r.inconclusive.find((x) => x.series === 'time');
    assert.equal(u.reason, 'machine-noise');
    assert.match(
      u.sentence,
      /rose by \+[\d.]+ % across the run .* a reference workload timed in the same run changed by \+[\d.]+ %/,
    );
    assert.match(u.sentence, /quieter machine .* wasm-soak compare/);
    const t = r.series.find((s) => s.name === 'time');
    assert.ok(t.machine.controlled && t.machine.noise);
    assert.ok(t.machine.change.low > 0.1, JSON.stringify(t.machine.change));
  }
});

test('a machine slowed from mid-run, or for a stretch, is no finding', () => {
  for (const [seed, slowed] of [
    [24, { from: 9000, to: 15000, by: 0.6 }],
    [25, { from: 12000, to: CALLS, by: 0.44 }],
    [26, { from: 14000, to: CALLS, by: 1 }],
  ]) {
    const r = analyzeRun(run({ seed, control: true, slowed }));
    assert.ok(['stable', 'inconclusive'].includes(judge(r).verdict), judge(r).verdict);
    assert.deepEqual(kinds(r), []);
  }
});

test('a module that slows on a steady machine is a slowdown against the machine', () => {
  const r = analyzeRun(run({ seed: 7, drift: 0.2, control: true }));
  assert.deepEqual(kinds(r), ['slowdown']);
  const f = r.findings[0];
  assert.equal(f.effect.method, 'trend against the machine');
  assert.ok(f.effect.low >= 0.1, JSON.stringify(f.effect));
  assert.match(f.sentence, /across the run against the machine \(98 % interval \+/);
  assert.match(f.sentence, /reference workload timed in the same run changed by/);
});

test('a slowdown is found when the module slows on a machine that slows too', () => {
  // +60 % of the module's own on top of a machine 10 % slower from mid-run.
  const r = analyzeRun(run({ seed: 8, drift: 0.6, control: true, slowed: { from: 10000, to: CALLS, by: 0.1 } }));
  assert.deepEqual(kinds(r), ['slowdown']);
  assert.ok(r.findings[0].effect.low >= 0.1, JSON.stringify(r.findings[0].effect));
});

test('calls flagged preempted leave the time test; mostly preempted batches are disturbed', () => {
  // Load from mid-run preempts 30 % of the calls (each waits 3 ms more): the
  // calls' times alone would climb, the calls that ran undisturbed do not.
  const data = run({ seed: 25, control: true, preempted: { from: 12000, to: CALLS, share: 0.3 } });
  const r = analyzeRun(data);
  assert.deepEqual(kinds(r), []);
  const t = r.series.find((s) => s.name === 'time');
  assert.ok(t.machine.preemptedCalls > 2000, JSON.stringify(t.machine));
  assert.equal(t.machine.disturbedBatches, 0);
  const unflagged = analyzeRun({ ...data, flags: new Uint8Array(CALLS) });
  assert.ok(unflagged.series.find((s) => s.name === 'time').machine.callsAlone.relative > 0.1);
  // 90 % preempted: the batch keeps every call and counts as disturbed.
  const most = analyzeRun(run({ seed: 26, control: true, preempted: { from: 15000, to: CALLS, share: 0.9 } }));
  assert.ok(most.series.find((s) => s.name === 'time').machine.disturbedBatches > 5);
});

test('a slowdown never quotes an interval that includes 0', () => {
  for (const seed of [7, 8, 9, 10]) {
    for (const control of [false, true]) {
      const r = analyzeRun(run({ seed, drift: 0.3, control }));
      for (const f of r.findings.filter((x) => x.kind === 'slowdown')) {
        assert.ok(f.effect.low > 0, JSON.stringify(f.effect));
        const quoted = [...f.sentence.matchAll(/interval ([+−-][\d.]+) %/g)].map((m) => m[1]);
        for (const q of quoted.slice(0, 1)) assert.ok(!q.startsWith('−') && !q.startsWith('-'), f.sentence);
      }
    }
  }
});

test('a control that speeds up under flat calls is machine noise, never stable nor a slowdown', () => {
  // The reference workload gets 30 % faster through the run, the calls stay
  // level: against the machine they slow, on their own they do not.
  for (const seed of [41, 42]) {
    const data = run({ seed, control: true });
    const c = data.metrics.controlNs;
    for (let k = 0; k < c.value.length; k++) c.value[k] *= 1 - (0.3 * c.iter[k]) / CALLS;
    const r = analyzeRun(data);
    assert.deepEqual(kinds(r), []);
    const u = r.inconclusive.find((x) => x.series === 'time');
    assert.equal(u?.reason, 'machine-noise', JSON.stringify(r.inconclusive));
    const t = r.series.find((s) => s.name === 'time');
    assert.equal(t.effect.method, 'trend against the machine');
    assert.match(
      u.sentence,
      /^Against the machine, time per call rose by \+[\d.]+ % .* but the calls' own time did not show it/,
    );
    assert.match(u.sentence, /got faster/);
  }
});

test('a module that slows on a machine that wanders, which the control sees, is a slowdown against the machine', () => {
  // The calls slow by 20 % on a machine that wanders (a sine of three
  // periods, 10 %) and the control sees the wander: the calls' own interval
  // spans the threshold, the one against the machine clears it and decides.
  const data = run({ seed: 43, control: true });
  const wander = (i) => 1 + 0.1 * Math.sin((2 * Math.PI * 3 * i) / CALLS);
  for (let i = 0; i < CALLS; i++) data.elapsed[i] *= (1 + (0.2 * i) / CALLS) * wander(i);
  const c = data.metrics.controlNs;
  for (let k = 0; k < c.value.length; k++) c.value[k] *= wander(c.iter[k]);
  const r = analyzeRun(data);
  assert.deepEqual(kinds(r), ['slowdown']);
  const f = r.findings[0];
  assert.equal(f.effect.method, 'trend against the machine');
  assert.ok(f.effect.low >= 0.1, JSON.stringify(f.effect));
  assert.ok(f.machine.callsAlone.low < 0.1, JSON.stringify(f.machine.callsAlone));
});

test('a rise in one half of the run only is unsustained, not a slowdown', () => {
  // Flat through the first half of the tested calls (2 000 to 20 000), then
  // +100 % over the second: the whole run's trend shows it, the first half
  // alone does not rise.
  for (const seed of [31, 32, 33]) {
    const data = run({ seed, control: true });
    for (let i = 11000; i < CALLS; i++) data.elapsed[i] *= 1 + (i - 11000) / (CALLS - 11000);
    const r = analyzeRun(data, { warmup: 2000 });
    assert.deepEqual(kinds(r), []);
    assert.equal(judge(r).verdict, 'inconclusive');
    const u = r.inconclusive.find((x) => x.series === 'time');
    assert.equal(u.reason, 'unsustained');
    assert.match(u.sentence, /the first half alone implies [+−-]?[\d.]+ %, the second half \+[\d.]+ %/);
  }
  // A rise spread over the whole run is a slowdown.
  assert.deepEqual(kinds(analyzeRun(run({ seed: 31, control: true, drift: 0.3 }), { warmup: 2000 })), ['slowdown']);
});

test('a slowdown that a second pass of the same calls does not show is not-replicated, not a finding', () => {
  // The first pass rises 30 % through the run; the second (same calls, a
  // fresh instance: its log says the first's seed; synthetic seed 45 draws
  // its noise) stays flat: the rise was that run's own wander.
  const second = (options) => {
    const d = run({ seed: 45, control: true, ...options });
    return { ...d, header: { ...d.header, seed: 44 } };
  };
  const data = { ...run({ seed: 44, control: true, drift: 0.3 }), replica: second() };
  const r = analyzeRun(data, { warmup: 2000 });
  assert.deepEqual(kinds(r), []);
  assert.equal(judge(r).verdict, 'inconclusive');
  const u = r.inconclusive.find((x) => x.series === 'time');
  assert.equal(u.reason, 'not-replicated');
  assert.match(u.sentence, /a second pass of the same calls .* did not: [+−-]?[\d.]+ % across the run/);
  const time = r.series.find((s) => s.name === 'time');
  assert.equal(time.replica.confirmed, false);
  assert.ok(time.replica.effect.low < 0.1, JSON.stringify(time.replica));
  // A second pass that rises as well confirms it, and the finding says so.
  const again = analyzeRun({ ...data, replica: second({ drift: 0.3 }) }, { warmup: 2000 });
  assert.deepEqual(kinds(again), ['slowdown']);
  assert.equal(again.findings[0].replica.confirmed, true);
  assert.match(again.findings[0].sentence, /and again in a second pass of the same calls: \+[\d.]+ %/);
  // Memory asked for the second run (another seed): the sentence says so.
  const other = analyzeRun({ ...data, replica: run({ seed: 45, control: true }) }, { warmup: 2000 });
  assert.equal(other.series.find((s) => s.name === 'time').replica.sameCalls, false);
  assert.match(other.inconclusive[0].sentence, /but a second run with another seed \(seed 45\) did not:/);
});

test('growth held by peaks that a second run with another seed does not show is not-replicated, not a finding', () => {
  // The heap grows at its end (live bytes and the holes between blocks flat),
  // as it does when blocks are freed late by finalizers: in the first pass
  // only, then in both.
  const withHeap = (data, grows) => {
    const live = data.metrics.liveBytes;
    const at = (values) => ({ ...live, value: Float64Array.from(values) });
    const heap = Array.from(live.iter, (i) => 1.2e6 + (grows ? (0.8e6 * i) / CALLS : 0) + ((i * 37) % 4096));
    const holes = Array.from(live.iter, (i) => 2e5 + ((i * 53) % 2048));
    return { ...data, metrics: { ...data.metrics, heapBytes: at(heap), censusFree: at(holes) } };
  };
  const first = withHeap(run({ seed: 46, control: true }), true);
  const alone = analyzeRun(first);
  assert.deepEqual(
    alone.findings.map((f) => [f.kind, f.cause]),
    [['growth', 'heap-end']],
  );
  const r = analyzeRun({ ...first, replica: withHeap(run({ seed: 47, control: true }), false) });
  assert.deepEqual(kinds(r), []);
  assert.equal(judge(r).verdict, 'inconclusive');
  const u = r.inconclusive.find((x) => x.series === 'heap-bytes');
  assert.equal(u.reason, 'not-replicated');
  assert.match(u.sentence, /but not in a second run with another seed \(seed 47, a fresh instance: flat/);
  assert.equal(r.series.find((s) => s.name === 'heap-bytes').replica.confirmed, false);
  const again = analyzeRun({ ...first, replica: withHeap(run({ seed: 47, control: true }), true) });
  assert.deepEqual(kinds(again), ['growth']);
  assert.equal(again.findings[0].replica.confirmed, true);
});

// Live bytes sampled every 100 calls over base's 20 000 calls, alone beside
// a flat linear memory: a level of 300 kB, `grow` bytes more at the run's
// end (shape 'step': a 60 kB step at 30 % of the run first) and 30 kB of
// xorshift32 noise from seed (test/c/test_verdict.c wander_series).
function wander(base, grow, seed, shape = 'line') {
  let x = seed;
  const iter = Float64Array.from({ length: 200 }, (_, i) => (i + 1) * 100 - 1);
  const value = iter.map((i) => {
    x = (x ^ (x << 13)) >>> 0;
    x = (x ^ (x >>> 17)) >>> 0;
    x = (x ^ (x << 5)) >>> 0;
    const t = i / CALLS;
    return 3e5 + (shape === 'step' && t > 0.3 ? 60000 : 0) + grow * t + 30000 * (x / 2 ** 32 - 0.5);
  });
  return {
    ...base,
    header: { ...base.header, seed },
    memory: { iter: new Float64Array([0]), bytes: new Float64Array([1 << 20]) },
    metrics: { liveBytes: { iter, tMs: iter, value } },
  };
}

test('a leak a wander could explain must recur in a second run with another seed', () => {
  const base = run({ seed: 50 });
  const first = wander(base, 20000, 2);
  const cfg = { warmup: 2000, timeThreshold: VERDICT_DEFAULTS.timeThreshold };
  const alone = analyzeRun(first, { warmup: 2000 });
  assert.deepEqual(kinds(alone), ['leak']);
  assert.ok(alone.findings[0].pValue > 1e-4 && alone.mustRecur);
  assert.equal(toReplicate(first, cfg), 'memory');
  // Another seed's run stays flat: not-replicated, and the sentence says why.
  const r = analyzeRun({ ...first, replica: wander(base, 0, 1) }, { warmup: 2000 });
  assert.deepEqual(kinds(r), []);
  assert.equal(judge(r).verdict, 'inconclusive');
  const u = r.inconclusive.find((x) => x.series === 'live-bytes');
  assert.equal(u.reason, 'not-replicated');
  assert.match(u.sentence, /but not in a second run with another seed \(seed 1, a fresh instance: flat/);
  assert.match(u.sentence, /this run's wander|is that wander, not a leak of the code/);
  // Another seed's run rises significantly too: the leak stands, and says so.
  const again = analyzeRun({ ...first, replica: wander(base, 20000, 7) }, { warmup: 2000 });
  assert.deepEqual(kinds(again), ['leak']);
  assert.equal(again.findings[0].replica.confirmed, true);
  assert.match(
    again.findings[0].sentence,
    /It recurred in a second run with another seed \(seed 7, a fresh instance: step/,
  );
  // Beyond doubt (p <= 1e-4): no second run.
  const sure = wander(base, 20000, 5);
  assert.ok(analyzeRun(sure, { warmup: 2000 }).findings[0].pValue <= 1e-4);
  assert.equal(toReplicate(sure, cfg), null);
});

test('a still-rising series that a second run with another seed does not repeat is stable, with a note', () => {
  const base = run({ seed: 50 });
  const first = wander(base, 20000, 5, 'step');
  const alone = analyzeRun(first, { warmup: 2000 });
  assert.deepEqual(
    alone.inconclusive.map((u) => [u.reason, u.series]),
    [['still-rising', 'live-bytes']],
  );
  assert.equal(alone.mustRecur, true);
  const r = analyzeRun({ ...first, replica: wander(base, 0, 1) }, { warmup: 2000 });
  assert.equal(judge(r).verdict, 'stable');
  assert.deepEqual(
    r.notes.map((n) => [n.kind, n.series]),
    [['rise-not-repeated', 'live-bytes']],
  );
  assert.match(
    r.notes[0].sentence,
    /rose .* after warm-up in this run without levelling off \(p = [\d.e-]+\), but not in a second run with another seed \(seed 1, a fresh instance: flat/,
  );
  // Still rising there: the question stays, and says that it rose again.
  const open = analyzeRun({ ...first, replica: wander(base, 20000, 6, 'step') }, { warmup: 2000 });
  assert.equal(judge(open).verdict, 'inconclusive');
  assert.equal(open.series.find((x) => x.name === 'live-bytes').replica.confirmed, true);
  assert.match(
    open.inconclusive[0].sentence,
    /have not levelled off, and still rose in a second run with another seed \(seed 6, a fresh instance: step/,
  );
  assert.deepEqual(open.notes, []);
});
