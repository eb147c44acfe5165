// The progress line's preliminary verdict: the final analysis's own trend
// verdicts (judgeTrends, i.e. C's analyzeRun with the run's options and C's
// thresholds) on the run so far. The main thread feeds every drained chunk
// into a bounded copy kept in C (addon/core/ws_live.c): per-call times thinned
// by a stride that doubles whenever its buffer fills, memory and slow metrics
// kept, iterations counted in kept calls. An analysis runs at most every few
// seconds and never takes more than BUDGET of the wall time (docs/verdicts.md,
// "Preliminary verdict").
import { addon } from '../addon.js';
import { judgeTrends, LIVE_SOURCE } from './analyze.js';
import { decided, grownOf, leakOf } from './early-stop.js';
import { judge } from './judge.js';
import { decodedRun } from './log-reader.js';
import { explainedByObjects, objectsSummary, unfreedSoFar } from './objects.js';
import { memoryAt } from './summary.js';

/** Per-call times kept (4 bytes each); the stride doubles past it. */
const LIVE_CAPACITY = 1 << 16;
/** Most of the wall time the analyses may take, and the least gap between two. */
const BUDGET = 0.02;
const MIN_GAP_MS = 2000;

/**
 * Creates the live analysis of one run. header: the log header (ops,
 * memories, seed); cfg: the run's options (warmup, timeThreshold). now: a
 * clock in ms (tests pass their own). Returns { consume(chunk), analyze(),
 * preliminary(force), close(), cost }: consume takes drained raw records;
 * analyze() returns the trend verdicts of the run so far (analyzeRun's
 * result, with calls seen, the stride, and the objects by class since
 * warm-up), its verdict the judge's once the glue's objects explained its
 * memory findings, as the final analysis does (objects.js
 * explainedByObjects); preliminary() what the progress
 * line says of them (src/report/progress-words.js words it), running an
 * analysis when one is due (force: now) and else repeating the last: null
 * before the first, { error } once the copy broke, else { tested, verdict,
 * countingFollows, memoryChange, sinceWarmup, decided, unfreed }
 * (memoryChange in bytes, null before any memory sample; decided:
 * early-stop.js's facts when the run so far is a leak beyond doubt that the
 * rule lets end the run, else null; unfreed: objects.js unfreedSoFar's
 * classes since warm-up, from the glue's object counts the worker sends at
 * each held sample, given to objects()). objects(msg) takes one such
 * message ({ iteration, classes }, src/worker/held.js).
 * Long: one closure over the copy, its clock and its last facts, whose
 * functions (consume, analyze, factsOf, preliminary) are each short.
 */
export function createLiveAnalysis({ header, cfg, capacity = LIVE_CAPACITY, now = () => performance.now() }) {
  const live = addon.liveCreate(capacity);
  const started = now();
  let nextAt = started + MIN_GAP_MS;
  let last = null;
  const cost = { runs: 0, totalMs: 0, maxMs: 0 };
  // A copy that could not take a chunk stops there: the progress line must
  // never stop the run.
  let broken = null;
  // The first analysis since which each found a leak: its calls and growth (early-stop.js).
  let first = null;
  // The glue's object counts by class: every held sample's, as objects.json keeps them, and the last.
  const snapshots = [];
  let classes = [];

  function objects(msg) {
    classes = msg.classes;
    snapshots.push({
      iteration: msg.iteration,
      classes: msg.classes.map((c) => [c.name, c.created, c.freed, c.reclaimed, c.collected]),
    });
  }

  // The objects by class since warm-up (warm: its calls), in kept calls' units as the copy counts.
  function objectsSince(warm, stride) {
    const counts = classes.map((c) => ({ ...c, held: c.created - c.freed - c.reclaimed - c.collected }));
    return objectsSummary({ classes: counts, snapshots }, warm * stride);
  }

  function consume(chunk) {
    if (broken) return;
    try {
      addon.liveAdd(live, chunk);
    } catch (err) {
      broken = err;
    }
  }

  function analyze() {
    const raw = addon.liveSnapshot(live);
    const data = decodedRun(raw, header);
    // A fixed warm-up counts calls; the copy counts kept calls.
    const warmup = Number.isInteger(cfg.warmup) ? Math.floor(cfg.warmup / raw.stride) : cfg.warmup;
    const { trend, liveSource, censusMemory } = judgeTrends(data, { ...cfg, warmup });
    // What the glue's objects say of the findings, as the final analysis asks it (analyze.js).
    const objects = objectsSince(trend.warmup.iterations, raw.stride);
    const heldLive = liveSource === LIVE_SOURCE.censusHeld;
    const explained = explainedByObjects(trend, data, { objects, censusMemory, heldLive });
    const { verdict } = judge({ findings: explained.findings, inconclusive: trend.inconclusive });
    return { ...trend, verdict, objects, calls: raw.callsSeen, stride: raw.stride, memory: data.memory };
  }

  // What the line says of an analysis r: facts, worded by the report.
  // t: when the analysis began (the clock is read once per analysis).
  function factsOf(r, t) {
    // The counting pass runs after this one: its live bytes and budgets are not in yet.
    const facts = {
      tested: r.series.some((x) => x.tested),
      verdict: r.verdict,
      countingFollows: Boolean(cfg.countAllocs),
      memoryChange: null,
      sinceWarmup: false,
      decided: null,
      unfreed: unfreedSoFar(r.objects),
    };
    const f = leakOf(r);
    first = f ? (first ?? { calls: r.calls, ...grownOf(f, r.stride) }) : null;
    const plan = { iterations: cfg.iterations ?? null, durationMs: cfg.durationMs ?? null, elapsedMs: t - started };
    facts.decided = decided(f, { calls: r.calls, first, stride: r.stride, plan });
    const { iter, bytes } = r.memory;
    if (iter.length === 0) return facts;
    const warm = r.warmup.iterations;
    facts.memoryChange = bytes[bytes.length - 1] - memoryAt(r.memory, Math.max(0, warm - 1));
    facts.sinceWarmup = warm > 0;
    return facts;
  }

  function preliminary(force = false) {
    const t0 = now();
    if (broken) return { error: broken.message };
    if (!force && t0 < nextAt) return last;
    try {
      last = factsOf(analyze(), t0);
    } catch (err) {
      last = { error: err.message };
    }
    const ms = now() - t0;
    cost.runs++;
    cost.totalMs += ms;
    cost.maxMs = Math.max(cost.maxMs, ms);
    nextAt = now() + Math.max(MIN_GAP_MS, ms / BUDGET);
    return last;
  }

  return {
    consume,
    objects,
    analyze,
    preliminary,
    /** Frees the copy (in C); consume, analyze and preliminary are unusable after. */
    close() {
      addon.liveClose(live);
      broken ??= new Error('the live analysis is closed');
    },
    /** Analyses run, their total and longest time (ms), and the wall time since creation. */
    get cost() {
      return { ...cost, wallMs: now() - started };
    },
  };
}
