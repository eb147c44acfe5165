// Trend verdicts: warm-up, time drift, memory growth and their classification
// into findings (docs/verdicts.md). Every statistic, threshold and the
// severity order live in C (addon/core/stats via addon/napi/verdict.c); this
// file validates options, picks the series a run has, and words the findings
// for people. The verdict is the judge's (judge.js), from every finding.
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
import { formatBytes, formatCount, formatMs, formatNs, formatPercent } from '../report/format.js';

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

// Each verdict and finding kind in a few words, for banners and tables
// (test/judge.test.js checks that every kind of C's list has an entry).
export const KIND_WORDS = Object.freeze({
  stable: 'stable',
  error: 'error',
  inconclusive: 'inconclusive',
  'memory-exhausted': 'memory exhausted',
  leak: 'leak',
  fragmentation: 'fragmentation',
  growth: 'memory growth',
  slowdown: 'slowdown',
  'js-heap-growth': 'JS heap growth',
  budget: 'allocation budget exceeded',
  'stack-drift': 'stack drift',
  'hung-call': 'hung call',
  regression: 'regression',
  expectation: 'not as expected',
});

const SERIES_WORDS = {
  memory: 'Linear memory',
  'heap-top': 'The heap top',
  'heap-bytes': 'The allocator heap',
  'live-bytes': 'Live bytes',
  'js-heap': "The worker's JS heap",
  'stack-depth': 'The shadow stack',
  'free-holes': 'Free bytes between blocks',
};

function describeProjection(p) {
  if (p == null) return '';
  const when = p.wallMs == null ? '' : ` (about ${formatMs(p.wallMs)})`;
  return ` At this pace it reaches ${formatBytes(p.limitBytes)} after about ${formatCount(p.iterations)} more calls${when}.`;
}

// The machine's own drift in words, as the control saw it: the reference
// workload's change across the run and the batches preemption disturbed.
function machineWords(t) {
  if (!t.controlled) return 'no reference workload was measured in this run';
  const disturbed =
    t.preemptedCalls > 0
      ? `; ${formatCount(t.preemptedCalls)} preempted calls left out${t.disturbedBatches > 0 ? `, ${formatCount(t.disturbedBatches)} of ${formatCount(t.batches)} batches mostly preempted` : ''}`
      : '';
  return `a reference workload timed in the same run changed by ${formatPercent(t.controlEffect)} (98 % interval ${formatPercent(t.controlLow98)} to ${formatPercent(t.controlHigh98)})${disturbed}`;
}

// The decided change with the interval that decided it (docs/verdicts.md,
// "Time against the machine"): one statistic, decided and quoted.
function decidedWords(t) {
  const against = t.adjustedEffect != null ? ' against the machine' : '';
  return `${formatPercent(t.decidedEffect)} across the run${against} (98 % interval ${formatPercent(t.decidedLow98)} to ${formatPercent(t.decidedHigh98)})`;
}

// The slowdown in words: the change that decided it with its interval (its
// low end at the threshold or above, so never spanning 0), the typical call
// of the early and late windows, and what the machine did meanwhile.
function slowdownWords(t) {
  const against = t.adjustedEffect != null ? ' against the machine' : '';
  const again = t.replica ? `, and again in a second pass of the same calls: ${decidedWords(t.replica)}` : '';
  return `Time per call rises by ${formatPercent(t.decidedEffect)} across the run${against} (98 % interval ${formatPercent(t.decidedLow98)} to ${formatPercent(t.decidedHigh98)}; typical call ${formatNs(t.earlyNs)} early, ${formatNs(t.lateNs)} late; ${machineWords(t)})${again}`;
}

// Why memory growth is growth, not a leak or fragmentation (GROWTH_CAUSE).
function growthWords(cause, what, rate) {
  switch (cause) {
    case 'live-peaks':
      return `${what} grows by ${rate} after warm-up; live bytes stay flat between calls but their peaks rise, so the heap grows to hold bursts of live data that are freed again — a leak in bursts cannot be told from growing bursts.`;
    case 'heap-end':
      return `${what} grows by ${rate} after warm-up while live bytes and the free bytes between blocks stay flat: the heap grew at its end (its free top chunk), to hold peaks of live bytes freed again between samples, not through fragmentation. Peaks that keep rising often come from objects freed late (a FinalizationRegistry, or a GC that runs later on a loaded machine); --count-allocs measures the peaks within calls.`;
    default:
      return `${what} grows by ${rate} after warm-up, but live bytes are not observable (the heap census recognised no allocator), so a leak cannot be told from fragmentation; --count-allocs (no rebuild), a scenario stats() returning liveBytes, or an exported mallinfo would tell.`;
  }
}

function sentence(kind, name, r, p, timeResult, memoryGrows, cause = null) {
  const what = SERIES_WORDS[name] ?? `Memory ${name.slice('memory:'.length)}`;
  const rate = r ? `${formatBytes(r.trend.slope)} per 1,000 calls` : '';
  switch (kind) {
    case 'leak':
      return `${what} grow by ${rate} after warm-up and never come back: a leak.${describeProjection(p)}`;
    case 'fragmentation':
      return `${what} grows by ${rate} while live bytes and their peaks stay flat: the allocator is fragmenting.${describeProjection(p)}`;
    case 'growth':
      return `${growthWords(cause, what, rate)}${describeProjection(p)}`;
    case 'stack-drift':
      return `The shadow stack pointer sinks by ${rate} and is never restored: something allocates on the wasm stack without giving it back, and the module will corrupt its memory or trap when the stack runs out.${p ? ` At this pace the stack pointer reaches address 0 after about ${formatCount(p.iterations)} more calls (sooner if static data lies below the stack).` : ''}`;
    case 'js-heap-growth':
      return `${what} grows by ${rate}: the JS glue keeps objects alive (often a FinalizationRegistry that never gets to run).`;
    case 'slowdown':
      return `${slowdownWords(timeResult)}${memoryGrows ? ', and memory grows as well (see the memory finding)' : ' while memory shows no sustained growth'}.`;
    default:
      return '';
  }
}

const LIVE_SOURCES =
  'live bytes: run with --count-allocs, or give the scenario a stats() returning liveBytes, or use a build whose allocator the heap census recognises';

// Growth held by peaks (objects freed late) that a second pass of the same
// calls did not show (NOT_REPLICATED on a memory series), in words. x: the
// first pass's result; again: the second's.
function peaksNotReplicatedWords(what, x, again, more) {
  const rate = (t) => `${formatBytes(t.slope)} per 1,000 calls`;
  const there = again?.trend ? `${again.pattern}, ${rate(again.trend)}` : again?.pattern;
  return `${what} grew by ${rate(x.trend)} after warm-up while live bytes stayed flat (the heap grew to hold peaks of blocks freed later), but not in a second pass of the same calls (the same seed, a fresh instance: ${there}): peaks of blocks freed late follow when the glue's garbage is collected and its finalizers run, not the calls. A longer run (${more}) would show whether it levels off.`;
}

// What the data could not decide, in words, with what would decide it.
function undecidedWords(u, name, x, t, o) {
  const what = name === 'time' ? 'the time test' : (SERIES_WORDS[name] ?? `memory ${name.slice('memory:'.length)}`);
  const more = `about ${formatCount(u.moreCalls)} more calls`;
  switch (u.reason) {
    case UNDECIDED_REASON['few-calls']:
      return `Too few calls after warm-up for ${what.toLowerCase()}: ${more} would let it decide.`;
    case UNDECIDED_REASON['few-samples']:
      return `${what} has ${formatCount(x.points)} samples after warm-up, too few to tell flat from growing: ${more} at this sampling rate (or a smaller --slow-every) would decide it.`;
    case UNDECIDED_REASON['late-step']:
      return `${what} took a large step late in the run (iteration ${formatCount(x.events.lastLarge)}; ${formatBytes(x.events.grownBytes)} over the tested window) and live bytes are not observed, so a plateau cannot yet be told from a leak under a coarse growth policy. ${more[0].toUpperCase()}${more.slice(1)} (a plateau as long as the run before the step) would decide it, or ${LIVE_SOURCES}.`;
    case UNDECIDED_REASON['still-rising']:
      return `${what} rose after warm-up (p = ${x.trend.pValue.toPrecision(2)}) but has not levelled off: ${more} would show whether it plateaus.`;
    case UNDECIDED_REASON['spans-threshold']:
      return `Time per call rises by ${decidedWords(t)}, which may or may not reach the ${formatPercent(o.timeThreshold)} threshold: ${more} would decide it.`;
    case UNDECIDED_REASON.unsustained:
      return `Time per call rises by ${decidedWords(t)}, but not through the run: the first half alone implies ${formatPercent(t.firstHalfEffect)}, the second half ${formatPercent(t.secondHalfEffect)} (each half must rise on its own, p < 0.1): a step or a stretch of the module's own wander, which a run that long again (${more}) would tell from a sustained slowdown.`;
    case UNDECIDED_REASON['not-replicated']:
      if (name !== 'time') return peaksNotReplicatedWords(what, x, u.replica, more);
      return `Time per call rose by ${decidedWords(t)}, but a second pass of the same calls (the same seed, a fresh instance) did not: ${decidedWords(t.replica)}, no significant rise that reaches the ${formatPercent(o.timeThreshold)} threshold. A rise that does not recur is this run's own wander (the module's state in that run, or the machine's), not a drift of the code: a longer run (${more}) would tell.`;
    case UNDECIDED_REASON['machine-noise']:
      if (t.adjustedLow98 >= o.timeThreshold)
        return `Against the machine, time per call rose by ${formatPercent(t.adjustedEffect)} across the run (98 % interval ${formatPercent(t.adjustedLow98)} to ${formatPercent(t.adjustedHigh98)}), but the calls' own time did not show it (${formatPercent(t.effect)}, 98 % interval ${formatPercent(t.effectLow98)} to ${formatPercent(t.effectHigh98)}), while ${machineWords(t)}. The machine got faster as the calls stayed level, or the reference workload and the module answer the machine differently: a run on a quieter machine (${more}), or the builds side by side with wasm-soak compare (ABBA blocks), would decide it.`;
      return `Time per call rose by ${formatPercent(t.effect)} across the run (98 % interval ${formatPercent(t.effectLow98)} to ${formatPercent(t.effectHigh98)}), but ${machineWords(t)}: against the machine the change is ${t.adjustedEffect != null ? `${formatPercent(t.adjustedEffect)} (98 % interval ${formatPercent(t.adjustedLow98)} to ${formatPercent(t.adjustedHigh98)})` : 'unknown (too few undisturbed batches)'}, not shown to reach the ${formatPercent(o.timeThreshold)} threshold. The machine, not the module, slowed: a run on a quieter machine (${more}), or the builds side by side with wasm-soak compare (ABBA blocks), would decide it.`;
    default:
      return '';
  }
}

// What the run shows that is no finding, in words (NOTE_KIND; the numbers
// are C's). x: the note's series result; o: the options.
function noteWords(n, name, x, o) {
  const what = SERIES_WORDS[name] ?? `Memory ${name.slice('memory:'.length)}`;
  switch (n.kind) {
    case 'below-floor': {
      const floor = `${formatBytes(o.memFloorPerCall)} per call and ${formatPercent(o.memFloorRelative).replace('+', '')}`;
      const later = Number.isFinite(n.moreCalls)
        ? ` At this rate it would pass ${formatPercent(o.memFloorRelative).replace('+', '')} after about ${formatCount(n.moreCalls)} more calls.`
        : '';
      return `${what} grew by ${formatBytes(n.perCall * 1000)} per 1,000 calls (${formatPercent(n.relative)} of ${name === 'live-bytes' ? 'their' : 'its'} level over the tested window): below the floor of ${floor}, so not a finding.${later}`;
    }
    case 'startup-growth': {
      const then = x.pattern === 'flat' ? ', then stayed flat' : x.pattern === 'step' ? ', then levelled off' : '';
      return `Memory grew ${formatBytes(n.fromBytes)} → ${formatBytes(n.toBytes)} during the first ${formatCount(n.iterations)} calls (start-up)${then}.`;
    }
    case 'sawtooth':
      return `${what} fall sharply ${formatCount(n.falls)} times after warm-up (by up to ${formatBytes(n.largestFallBytes)}, about every ${formatCount(Math.round(n.everyCalls))} calls): something frees them in bursts, likely finalizers (a FinalizationRegistry runs when the event loop turns) or a cache that is flushed.`;
    default:
      return '';
  }
}

function exhaustedWords(name, f, op, limitBytes) {
  const what = SERIES_WORDS[name] ?? `Memory ${name.slice('memory:'.length)}`;
  const limit =
    limitBytes >= WASM32_MAX_BYTES ? 'the 4 GiB limit of wasm32' : `its declared maximum (${formatBytes(limitBytes)})`;
  return `${what} reached ${formatBytes(f.bytes)} at iteration ${formatCount(f.iteration)}${op != null ? ` (op ${op})` : ''}: ${limit}. From there every memory.grow fails, so the module's allocations fail.`;
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
  const elapsed = data.elapsed instanceof Float32Array ? data.elapsed : Float32Array.from(data.elapsed ?? []);
  // A thinned run is judged in kept calls (stride iterations each), then put back in iterations.
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
  const warmup = {
    method: o.warmup === 'auto' ? 'auto' : 'fixed',
    iterations: r.warmup.iterations,
    time: r.warmup.time,
    memory: r.warmup.memory,
    startupGrowthBytes: r.warmup.startupGrowthBytes,
  };
  const slopeOf = (t, unit) => t && { perKiloIterations: t.slope, low: t.low, high: t.high, unit };
  // Growth held by peaks, tested again on the second timed pass: by series index.
  const again = Object.fromEntries(
    r.replicaSeries.map((x) => [
      x.series,
      { pattern: x.pattern, slope: slopeOf(x.trend, 'bytes'), confirmed: x.pattern === 'sustained' },
    ]),
  );
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
  // What the run shows that is no finding (C's notes), in words; a series
  // below the memory floor also carries its numbers, as the JS heap does.
  const notes = r.notes.map((n) => {
    const kind = nameOf(NOTE_KIND, n.kind);
    const { kind: _, series: i, ...numbers } = n;
    const name = series[i].name;
    if (kind === 'below-floor')
      outSeries[i].belowFloor = {
        grownBytes: n.grownBytes,
        perCall: n.perCall,
        relative: n.relative,
        floorPerCall: o.memFloorPerCall,
        floorRelative: o.memFloorRelative,
      };
    return { kind, series: name, ...numbers, sentence: noteWords({ ...n, kind }, name, r.series[i], o) };
  });
  const t = r.time;
  const finite = (v) => (Number.isFinite(v) ? v : null);
  // The time effect that decides, quoted everywhere: the trend's change
  // across the run with its 98 % interval, against the machine's control
  // when the run measured one (docs/verdicts.md, "Time against the machine").
  const timeEffect = t.tested
    ? {
        relative: t.decidedEffect,
        low: t.decidedLow98,
        high: t.decidedHigh98,
        level: 0.98,
        method: t.adjustedEffect != null ? 'trend against the machine' : 'trend',
      }
    : null;
  // What the machine did: the control's own change, the batches preemption
  // disturbed, and the calls' own trend before the control.
  const machine = t.tested
    ? {
        controlled: t.controlled,
        controlBatches: t.controlBatches,
        disturbedBatches: t.disturbedBatches,
        preemptedCalls: t.preemptedCalls,
        change: t.controlled ? { relative: t.controlEffect, low: t.controlLow98, high: t.controlHigh98 } : null,
        callsAlone: { relative: t.effect, low: t.effectLow98, high: t.effectHigh98 },
        noise: t.machineNoise,
      }
    : null;
  // The early-vs-late window change with its bootstrap interval (null bounds
  // when the windows are too short), and the trend's 95 % interval:
  // descriptions, never the decision.
  const windowsEffect = t.tested
    ? {
        relative: t.windowsChange,
        low: finite(t.windowsLow),
        high: finite(t.windowsHigh),
        method: 'windows, moving-block bootstrap',
      }
    : null;
  const trendEffect = t.tested ? { relative: t.effect, low: t.effectLow, high: t.effectHigh, method: 'trend' } : null;
  const windows = t.tested
    ? {
        early: { from: t.from, to: t.earlyTo, ns: t.earlyNs },
        late: { from: t.lateFrom, to: t.to, ns: t.lateNs },
        batches: t.windowBatches,
        blockBatches: t.windowsBlock,
      }
    : null;
  // The second timed pass's test, when the first flagged a slowdown and one ran.
  const replica = t.replica
    ? {
        calls: data.replica.calls,
        effect: { relative: t.replica.decidedEffect, low: t.replica.decidedLow98, high: t.replica.decidedHigh98 },
        pValue: t.replica.decidedP,
        confirmed: !t.unreplicated,
      }
    : null;
  outSeries.push({
    name: 'time',
    tested: t.tested,
    pattern: !t.tested ? 'untested' : t.flagged ? 'sustained' : 'flat',
    window: { from: t.from, to: t.to },
    slope: t.trend ? slopeOf(t.trend, 'ln(ns)') : null,
    pValue: t.trend ? t.trend.pValue : null,
    effect: timeEffect,
    machine,
    windowsEffect,
    trendEffect,
    windows,
    windowsChange: t.tested ? t.windowsChange : null,
    replica,
  });
  const memoryGrows = r.findings.some((f) => f.kind !== 'slowdown');
  const opName = (i) => (data.op && i < data.op.length ? (data.header?.ops?.[data.op[i]]?.name ?? null) : null);
  const findings = r.findings.map((f) => {
    if (f.kind === 'memory-exhausted') {
      const s = series[f.series];
      const op = opName(f.iteration);
      return {
        kind: f.kind,
        series: s.name,
        iteration: f.iteration,
        op,
        bytes: f.bytes,
        limitBytes: s.limit,
        sentence: exhaustedWords(s.name, f, op, s.limit),
      };
    }
    if (f.kind === 'slowdown') {
      return {
        kind: f.kind,
        series: 'time',
        window: { from: t.from, to: t.to },
        slope: slopeOf(t.trend, 'ln(ns)'),
        pValue: t.trend.pValue,
        effect: timeEffect,
        machine,
        windows,
        replica,
        projection: null,
        sentence: sentence(f.kind, 'time', null, null, t, memoryGrows),
      };
    }
    const s = series[f.series];
    const x = r.series[f.series];
    const span = (x.to - x.from) / 1000;
    const base = x.start > 0 ? x.start : 1;
    const p = projection(s, x, data, o);
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
      projection: p,
      ...(again[f.series] ? { replica: again[f.series] } : {}),
      sentence: sentence(f.kind, s.name, x, p, t, false, cause),
    };
  });
  const inconclusive = r.undecided.map((u) => {
    const name = u.series < 0 ? 'time' : series[u.series].name;
    const reason = nameOf(UNDECIDED_REASON, u.reason);
    const replica = r.replicaSeries.find((x) => x.series === u.series);
    return {
      reason,
      series: name,
      moreCalls: u.moreCalls,
      sentence: undecidedWords({ ...u, replica }, name, u.series < 0 ? null : r.series[u.series], t, o),
    };
  });
  return {
    warmup,
    series: outSeries.filter(Boolean),
    findings,
    inconclusive,
    notes,
    severityOrder: FINDING_KINDS,
    // The early and late windows (C's ws_time_windows), also when the time
    // test had too few calls: the summary's time rows and the figures use them.
    windows: { early: { from: t.from, to: t.earlyTo }, late: { from: t.lateFrom, to: t.to } },
  };
}
