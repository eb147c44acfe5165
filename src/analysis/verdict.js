// Trend verdicts: warm-up, time drift, memory growth and their classification
// into findings (docs/verdicts.md). Every statistic, threshold and the
// severity order live in C (addon/core/stats via addon/napi/verdict.c); this
// file validates options, picks the series a run has, and returns the
// findings as facts (codes and numbers; src/report/sentences.js words them).
// The verdict is the judge's (judge.js), from every finding.
import { addon } from '../addon.js';
import {
  FINDING_KINDS,
  GROWTH_CAUSE,
  MAX_SERIES,
  NOTE_KIND,
  ROLE,
  UNDECIDED_REASON,
  VERDICT_DEFAULTS,
  WASM32_MAX_BYTES,
} from '../protocol.js';

/**
 * How a time effect was decided (summary.json's effect.method, a value of
 * its schema, docs/summary.md): the trend of the calls' times over the
 * machine's control's, or of the calls' times alone.
 */
export const TREND_METHOD = Object.freeze({ againstMachine: 'trend against the machine', calls: 'trend' });

/** The name a C list (as src/protocol.js exports it) gives value, or undefined. */
const nameOf = (list, value) => Object.keys(list).find((k) => list[k] === value);

function f64(a) {
  return a instanceof Float64Array ? a : Float64Array.from(a ?? []);
}

// Lists the series the run has, in the shape the addon takes: the machine's
// control first (the reference workload's time), then memory.
function collectSeries(data) {
  const out = [];
  const metrics = data.metrics ?? {};
  const add = (name, role, step, s, values, limit = 0) => {
    if (s?.iter && s.iter.length > 0)
      out.push({ name, role, step, iter: f64(s.iter), value: f64(values ?? s.value), limit });
  };
  add('control', ROLE.control, 0, metrics.controlNs);
  // A linear memory cannot grow past its declared maximum, else 4 GiB; the
  // total, past the sum of them.
  const memories = data.header?.memories ?? [];
  const limitOf = (m) => m.maximumBytes ?? WASM32_MAX_BYTES;
  const total = memories.length > 0 ? memories.reduce((t, m) => t + limitOf(m), 0) : WASM32_MAX_BYTES;
  if (data.memory) add('memory', ROLE.linear, 1, data.memory, data.memory.bytes, total);
  if (memories.length > 1)
    for (const m of memories)
      add(`memory:${m.label}`, ROLE.linearOne, 0, metrics[`memory:${m.label}`], undefined, limitOf(m));
  add('heap-top', ROLE.heap, 0, metrics.heapTop);
  add('heap-bytes', ROLE.heap, 0, metrics.heapBytes);
  add('live-bytes', ROLE.live, 0, metrics.liveBytes);
  // The heap census's free bytes between in-use chunks (its top excluded):
  // whether the holes account for a heap's growth.
  add('free-holes', ROLE.holes, 0, metrics.censusFree);
  add('js-heap', ROLE.jsHeap, 0, metrics.jsHeap);
  // The worker threads a scenario's target started: their heaps summed, judged apart.
  add('threads-js-heap', ROLE.jsHeap, 0, metrics.threadsJsHeap);
  // The shadow stack grows down: its depth is the first stack pointer seen
  // minus the current one, a series that rises for good when a caller
  // allocates on the stack and never restores it.
  const sp = metrics.stackPointer;
  if (sp && sp.value.length > 0)
    add(
      'stack-depth',
      ROLE.stack,
      0,
      sp,
      Float64Array.from(sp.value, (v) => sp.value[0] - v),
    );
  return out.slice(0, MAX_SERIES);
}

/**
 * A second timed pass of the run's calls (a decoded run, or null) as the
 * C analysis takes it: its per-call times and flags, its control's samples
 * and its memory series, index for index those of the first pass (series;
 * one it did not see is empty), all in its own kept calls (a thinned log
 * counts kept calls).
 */
function replicaInput(rep, series) {
  if (!rep) return undefined;
  const own = new Map(collectSeries(rep).map((s) => [s.name, s]));
  const none = new Float64Array(0);
  const elapsed = rep.elapsed instanceof Float32Array ? rep.elapsed : Float32Array.from(rep.elapsed ?? []);
  const stride = rep.stride ?? 1;
  const control = rep.metrics?.controlNs;
  const has = control?.iter && control.iter.length > 0;
  return {
    elapsed,
    flags: rep.flags instanceof Uint8Array && rep.flags.length === elapsed.length ? rep.flags : undefined,
    controlIter: has ? Float64Array.from(control.iter, (x) => x / stride) : undefined,
    controlValue: has ? f64(control.value) : undefined,
    series: series.map((s) => {
      const r = own.get(s.name);
      return r ? { ...r, iter: r.iter.map((x) => x / stride) } : { ...s, iter: none, value: none };
    }),
  };
}

// The series a heap census can be the source of: one memory's heap.
const HEAP_SERIES = new Set(['live-bytes', 'heap-bytes', 'free-holes']);

// Returns the byte limit a series would run into.
function limitFor(s, data, options) {
  const memories = data.header?.memories ?? [];
  if (s.name.startsWith('memory:')) {
    const m = memories.find((x) => `memory:${x.label}` === s.name);
    return m?.maximumBytes ?? WASM32_MAX_BYTES;
  }
  if (options.heapMaximumBytes != null && HEAP_SERIES.has(s.name)) return options.heapMaximumBytes;
  if (options.memoryMaximumBytes != null) return options.memoryMaximumBytes;
  const declared = memories.map((m) => m.maximumBytes);
  if (declared.length > 0 && declared.every((x) => x != null)) return declared.reduce((a, b) => a + b, 0);
  return WASM32_MAX_BYTES;
}

function projection(s, r, data, options) {
  const perIter = r.trend.slope / 1000;
  if (!(perIter > 0)) return null;
  // The stack runs out when its pointer reaches address 0 (sooner when
  // static data lies below the stack): the limit is the first pointer seen.
  const sp = data.metrics?.stackPointer?.value;
  const limitBytes = s.name === 'stack-depth' ? (sp?.[0] ?? 0) : limitFor(s, data, options);
  const iterations = Math.max(0, (limitBytes - r.last) / perIter);
  const calls = data.thinning?.iterations ?? data.calls;
  const msPerCall = calls > 0 && data.durationMs ? data.durationMs / calls : null;
  return {
    limitBytes,
    iterations: Math.round(iterations),
    wallMs: msPerCall == null ? null : Math.round(iterations * msPerCall),
  };
}

function checkOptions(options) {
  const defined = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  const o = {
    warmup: 'auto',
    ...VERDICT_DEFAULTS,
    memoryMaximumBytes: null,
    heapMaximumBytes: null,
    seed: null,
    ...defined,
  };
  for (const key of ['jsHeapThreshold', 'memFloorPerCall', 'memFloorRelative'])
    if (!(o[key] >= 0)) throw Object.assign(new RangeError(`${key} must be >= 0`), { code: 'WS_EINVAL' });
  if (o.warmup !== 'auto' && !(Number.isInteger(o.warmup) && o.warmup >= 0))
    throw Object.assign(new TypeError("warmup must be 'auto' or a non-negative integer"), { code: 'WS_EINVAL' });
  if (!(o.timeThreshold >= 0)) throw Object.assign(new RangeError('timeThreshold must be >= 0'), { code: 'WS_EINVAL' });
  if (!(o.alpha > 0 && o.alpha < 1))
    throw Object.assign(new RangeError('alpha must be in (0, 1)'), { code: 'WS_EINVAL' });
  if (o.seed != null && !(Number.isSafeInteger(o.seed) && o.seed >= 0))
    throw Object.assign(new RangeError('seed must be a non-negative integer'), { code: 'WS_EINVAL' });
  return o;
}

/**
 * Puts a verdict computed on a thinned run (one call kept per stride
 * iterations, every x in kept calls) back in iterations: positions times
 * stride, slopes per 1 000 positions divided by it. Changes r in place.
 */
function inIterations(r, stride) {
  const slope = (t) => {
    if (!t) return;
    t.slope /= stride;
    t.low /= stride;
    t.high /= stride;
  };
  for (const key of ['iterations', 'time', 'memory']) r.warmup[key] *= stride;
  for (const x of r.replicaSeries) slope(x.trend);
  for (const x of r.series) {
    x.from *= stride;
    x.to *= stride;
    slope(x.trend);
    slope(x.peak);
  }
  for (const key of ['from', 'to', 'earlyTo', 'lateFrom']) r.time[key] *= stride;
  slope(r.time.trend);
  for (const n of r.notes) {
    if (n.perCall !== undefined) n.perCall /= stride;
    for (const key of ['moreCalls', 'iterations', 'everyCalls']) if (n[key] !== undefined) n[key] *= stride;
  }
}

/**
 * Analyses a decoded run (docs/architecture.md) and returns { warmup, series,
 * findings, inconclusive, notes, severityOrder, windows } as in
 * docs/summary.md. Options:
 * warmup ('auto' or N), timeThreshold, jsHeapThreshold, memFloorPerCall,
 * memFloorRelative, alpha (undefined: C's defaults), memoryMaximumBytes,
 * heapMaximumBytes (the limit of the live, heap and holes series when they
 * are one memory's; null: that of all memories), seed (default: the run
 * header's).
 */
export function analyzeRun(data, options = {}) {
  const o = checkOptions(options);
  const { r, series } = judgeInC(data, o);
  const slopeOf = (t, unit) => t && { perKiloIterations: t.slope, low: t.low, high: t.high, unit };
  // The memory findings and questions that must recur, tested again on the
  // second run (C's replicate_memory): by series index, with that run's seed.
  const secondSeed = data.replica?.header?.seed ?? null;
  const again = Object.fromEntries(
    r.replicaSeries.map((x) => [
      x.series,
      { pattern: x.pattern, slope: slopeOf(x.trend, 'bytes'), confirmed: x.recurred, seed: secondSeed },
    ]),
  );
  const { outSeries, notes } = memoryFacts(r, series, again, o, slopeOf);
  const time = timeFacts(r.time, data, o, slopeOf);
  const t = r.time;
  return {
    warmup: {
      method: o.warmup === 'auto' ? 'auto' : 'fixed',
      iterations: r.warmup.iterations,
      time: r.warmup.time,
      memory: r.warmup.memory,
      startupGrowthBytes: r.warmup.startupGrowthBytes,
    },
    series: [...outSeries.filter(Boolean), time],
    findings: r.findings.map((f) => findingFacts(f, { r, series, data, o, again, time, slopeOf })),
    inconclusive: r.undecided.map((u) => ({
      reason: nameOf(UNDECIDED_REASON, u.reason),
      series: u.series < 0 ? 'time' : series[u.series].name,
      moreCalls: u.moreCalls,
    })),
    notes,
    // A memory finding or question that must recur in a second run (another
    // seed) before it stands; run.js runs it (analyze.js toReplicate).
    mustRecur: r.mustRecur,
    severityOrder: FINDING_KINDS,
    // The early and late windows (C's ws_time_windows), also when the time
    // test had too few calls: the summary's time rows and the figures use them.
    windows: { early: { from: t.from, to: t.earlyTo }, late: { from: t.lateFrom, to: t.to } },
  };
}

/**
 * C's verdict analysis (addon verdictAnalyzeRun) of a decoded run under
 * checked options o: { r, series } with r in iterations (a thinned run is
 * judged in kept calls, stride iterations each, then put back) and series
 * the run's series as collected.
 */
function judgeInC(data, o) {
  const elapsed = data.elapsed instanceof Float32Array ? data.elapsed : Float32Array.from(data.elapsed ?? []);
  const stride = data.stride ?? 1;
  const series = collectSeries(data);
  const judged = stride > 1 ? series.map((s) => ({ ...s, iter: s.iter.map((x) => x / stride) })) : series;
  // The run's own seed by default, so that a run's verdict (the time
  // windows' bootstrap interval) is reproducible from its log.
  const headerSeed = data.header?.seed;
  const seed = o.seed ?? (Number.isSafeInteger(headerSeed) && headerSeed >= 0 ? headerSeed : 1);
  const r = addon.verdictAnalyzeRun(
    elapsed,
    judged,
    {
      warmup: o.warmup === 'auto' ? -1 : Math.floor(o.warmup / stride),
      timeThreshold: o.timeThreshold,
      jsHeapThreshold: o.jsHeapThreshold,
      // Per call of the judged run: a thinned run's kept call stands for stride calls.
      memFloorPerCall: o.memFloorPerCall * stride,
      memFloorRelative: o.memFloorRelative,
      alpha: o.alpha,
      seed,
    },
    // Each call's flags: preempted calls leave the time test.
    data.flags instanceof Uint8Array && data.flags.length === elapsed.length ? data.flags : undefined,
    // A flagged slowdown must recur in the second timed pass, when one ran.
    replicaInput(data.replica, series),
  );
  if (stride > 1) inIterations(r, stride);
  return { r, series };
}

/**
 * The memory series' facts (null for the control, which is no memory) and
 * C's notes: a series below the memory floor, or the JS heap below its
 * threshold, carries its numbers. again: the second pass's results by
 * series index.
 */
function memoryFacts(r, series, again, o, slopeOf) {
  const outSeries = series.map((s, i) => {
    const x = r.series[i];
    if (s.role === ROLE.control) return null;
    return {
      name: s.name,
      tested: x.pattern !== 'untested',
      pattern: x.pattern,
      window: { from: x.from, to: x.to },
      slope: slopeOf(x.trend, 'bytes'),
      pValue: x.trend ? x.trend.pValue : null,
      start: x.start,
      end: x.end,
      peakGrows: x.peakGrows,
      points: x.points,
      ...(x.events ? { events: x.events } : {}),
      ...(again[i] ? { replica: again[i] } : {}),
    };
  });
  // A JS heap trend that C dismissed as below its practical threshold.
  if (r.belowThreshold >= 0)
    outSeries[r.belowThreshold].belowThreshold = {
      grownBytes: r.series[r.belowThreshold].grownBytes,
      thresholdBytes: r.jsHeapThreshold,
    };
  const notes = r.notes.map((n) => {
    const kind = nameOf(NOTE_KIND, n.kind);
    const { kind: _, series: i, ...numbers } = n;
    if (kind === 'below-floor')
      outSeries[i].belowFloor = {
        grownBytes: n.grownBytes,
        perCall: n.perCall,
        relative: n.relative,
        floorPerCall: o.memFloorPerCall,
        floorRelative: o.memFloorRelative,
      };
    return { kind, series: series[i].name, ...numbers };
  });
  return { outSeries, notes };
}

/**
 * The time series' facts from C's time result t: the effect that decides
 * (the trend's change across the run with its 98 % interval, against the
 * machine's control when the run measured one; docs/verdicts.md, "Time
 * against the machine"), what the machine did, the descriptions (windows,
 * trend), each half's own change, the threshold, and the second pass's test.
 */
function timeFacts(t, data, o, slopeOf) {
  const finite = (v) => (Number.isFinite(v) ? v : null);
  const tested = (make) => (t.tested ? make() : null);
  return {
    name: 'time',
    tested: t.tested,
    pattern: !t.tested ? 'untested' : t.flagged ? 'sustained' : 'flat',
    window: { from: t.from, to: t.to },
    slope: t.trend ? slopeOf(t.trend, 'ln(ns)') : null,
    pValue: t.trend ? t.trend.pValue : null,
    effect: tested(() => ({
      relative: t.decidedEffect,
      low: t.decidedLow98,
      high: t.decidedHigh98,
      level: 0.98,
      method: t.adjustedEffect != null ? TREND_METHOD.againstMachine : TREND_METHOD.calls,
    })),
    // The control's own change, the batches preemption disturbed, and the calls' own trend before the control.
    machine: tested(() => ({
      controlled: t.controlled,
      controlBatches: t.controlBatches,
      disturbedBatches: t.disturbedBatches,
      preemptedCalls: t.preemptedCalls,
      batches: t.batches,
      change: t.controlled ? { relative: t.controlEffect, low: t.controlLow98, high: t.controlHigh98 } : null,
      callsAlone: { relative: t.effect, low: t.effectLow98, high: t.effectHigh98 },
      noise: t.machineNoise,
    })),
    // The early-vs-late window change with its bootstrap interval (null
    // bounds when the windows are too short), and the trend's 95 %
    // interval: descriptions, never the decision.
    windowsEffect: tested(() => ({
      relative: t.windowsChange,
      low: finite(t.windowsLow),
      high: finite(t.windowsHigh),
      method: 'windows, moving-block bootstrap',
    })),
    trendEffect: tested(() => ({ relative: t.effect, low: t.effectLow, high: t.effectHigh, method: 'trend' })),
    windows: tested(() => ({
      early: { from: t.from, to: t.earlyTo, ns: t.earlyNs },
      late: { from: t.lateFrom, to: t.to, ns: t.lateNs },
      batches: t.windowBatches,
      blockBatches: t.windowsBlock,
    })),
    windowsChange: t.tested ? t.windowsChange : null,
    // Each half's own implied change (an unsustained rise), and the threshold judged against.
    halves: tested(() => ({ first: finite(t.firstHalfEffect), second: finite(t.secondHalfEffect) })),
    threshold: o.timeThreshold,
    // The second timed pass's test, when the first flagged a slowdown and one
    // ran: the same calls (the same seed), unless memory asked for the second
    // run too (another seed).
    replica: t.replica
      ? {
          calls: data.replica.calls,
          effect: { relative: t.replica.decidedEffect, low: t.replica.decidedLow98, high: t.replica.decidedHigh98 },
          pValue: t.replica.decidedP,
          confirmed: !t.unreplicated,
          seed: data.replica.header?.seed ?? null,
          sameCalls: data.replica.header?.seed === data.header?.seed,
        }
      : null,
  };
}

/** One of C's findings f as facts: a memory that reached its limit, a slowdown (the time facts), or a memory trend. */
function findingFacts(f, { r, series, data, o, again, time, slopeOf }) {
  if (f.kind === 'memory-exhausted') {
    const s = series[f.series];
    const i = f.iteration;
    const op = data.op && i < data.op.length ? (data.header?.ops?.[data.op[i]]?.name ?? null) : null;
    return { kind: f.kind, series: s.name, iteration: i, op, bytes: f.bytes, limitBytes: s.limit };
  }
  if (f.kind === 'slowdown') {
    const { window, slope, pValue, effect, machine, windows, replica } = time;
    return { kind: f.kind, series: 'time', window, slope, pValue, effect, machine, windows, replica, projection: null };
  }
  const s = series[f.series];
  const x = r.series[f.series];
  const span = (x.to - x.from) / 1000;
  const base = x.start > 0 ? x.start : 1;
  const cause = f.cause ? nameOf(GROWTH_CAUSE, f.cause) : null;
  return {
    kind: f.kind,
    ...(cause ? { cause } : {}),
    series: s.name,
    window: { from: x.from, to: x.to },
    slope: slopeOf(x.trend, 'bytes'),
    pValue: x.trend.pValue,
    effect: {
      relative: (x.trend.slope * span) / base,
      low: (x.trend.low * span) / base,
      high: (x.trend.high * span) / base,
    },
    projection: projection(s, x, data, o),
    ...(again[f.series] ? { replica: again[f.series] } : {}),
  };
}
