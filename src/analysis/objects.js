// The glue's objects by class (objects.json, src/worker/objects.js) as the
// summary takes them, and what they say of a memory finding
// (docs/verdicts.md, "Memory that JS objects own"): a heap that grows while
// the live bytes the application holds stay flat, and objects the
// application never freed were reclaimed by the garbage collector, is
// memory left to the collector (`unfreed-objects`); live bytes that rise
// while objects of a class the application never frees are collected
// without a free (a glue with no finalizer) is that class leaking. Codes
// and numbers only: src/report/sentences.js words them.

// A class counts once this many of its objects were made after warm-up.
const MIN_OBJECTS = 32;
// Objects left to the collector: at least this share of those made after warm-up.
const MIN_LEFT_SHARE = 0.01;
// A class "never freed" by the application: at most this share freed.
const MAX_FREED_SHARE = 0.01;
// Classes a finding or note names, largest first.
const NAMED = 3;

import { censusMetricsOf } from './census-metrics.js';

// Garbage worth a finding: at its peak after warm-up it held at least this
// share of its memory, and at least GARBAGE_MIN_BYTES.
const GARBAGE_MIN_SHARE = 0.1;
const GARBAGE_MIN_BYTES = 1 << 20;

// The memory findings the objects may explain.
const MEMORY_KINDS = new Set(['leak', 'fragmentation', 'growth']);

/** The counts [created, freed, reclaimed, collected] of class name at the last snapshot at or before iteration (zeros before any). */
function countsAt(objects, name, iteration) {
  let at = [0, 0, 0, 0];
  for (const s of objects.snapshots ?? []) {
    if (s.iteration > iteration) break;
    const row = s.classes.find((c) => c[0] === name);
    if (row) at = row.slice(1);
  }
  return at;
}

/**
 * objects.json as the summary's `objects`: { classes: [{ name, registry,
 * freeable, created, freed, reclaimed, collected, held, createdBy,
 * afterWarmup: { created, freed, reclaimed, collected, held } }] } largest
 * first (by objects made after warm-up), or null without objects.
 */
export function objectsSummary(objects, warmupIteration) {
  if (!objects?.classes?.length) return null;
  const classes = objects.classes.map((c) => {
    const [created, freed, reclaimed, collected] = countsAt(objects, c.name, warmupIteration);
    const heldAt = created - freed - reclaimed - collected;
    return {
      ...c,
      afterWarmup: {
        created: c.created - created,
        freed: c.freed - freed,
        reclaimed: c.reclaimed - reclaimed,
        collected: c.collected - collected,
        held: c.held - heldAt,
      },
    };
  });
  classes.sort((a, b) => b.afterWarmup.created - a.afterWarmup.created || b.created - a.created);
  return { classes };
}

/** The value of series s (iter, value) at iteration x: linear between its points, its ends beyond them. */
function valueAt(s, x) {
  const n = s.iter.length;
  if (x <= s.iter[0]) return s.value[0];
  if (x >= s.iter[n - 1]) return s.value[n - 1];
  let i = 1;
  while (s.iter[i] < x) i++;
  const t = (x - s.iter[i - 1]) / (s.iter[i] - s.iter[i - 1]);
  return s.value[i - 1] + t * (s.value[i] - s.value[i - 1]);
}

/**
 * How much garbage the heap census saw in one memory after warm-up: live
 * bytes as sampled (garbage awaiting the collector included) minus the live
 * bytes the application held (sampled after full GCs, between them
 * interpolated). { peakBytes, atIteration, memoryBytes (the memory's size
 * at the end), share (peak / memoryBytes) }, or null without both series.
 * census: that memory's census series (censusLive, censusLiveHeld); memory:
 * its linear memory's series { iter, value }.
 */
export function garbageHeld(census, memory, fromIteration) {
  const live = census.censusLive;
  const held = census.censusLiveHeld;
  if (!live?.iter.length || !held?.iter.length || !memory?.value.length) return null;
  let peakBytes = 0;
  let atIteration = null;
  for (let i = 0; i < live.iter.length; i++) {
    if (live.iter[i] < fromIteration) continue;
    const garbage = live.value[i] - valueAt(held, live.iter[i]);
    if (garbage > peakBytes) {
      peakBytes = garbage;
      atIteration = live.iter[i];
    }
  }
  const memoryBytes = memory.value[memory.value.length - 1];
  return { peakBytes, atIteration, memoryBytes, share: memoryBytes > 0 ? peakBytes / memoryBytes : 0 };
}

/** Whether garbage (garbageHeld's) held enough of its memory to be a finding. */
const materialGarbage = (g) => Boolean(g && g.peakBytes >= GARBAGE_MIN_BYTES && g.share >= GARBAGE_MIN_SHARE);

/** A class as a finding or note names it: its name, counts after warm-up and the op that made most of them. */
const named = (c) => ({
  name: c.name,
  created: c.afterWarmup.created,
  freed: c.afterWarmup.freed,
  reclaimed: c.afterWarmup.reclaimed,
  collected: c.afterWarmup.collected,
  held: c.afterWarmup.held,
  op: c.createdBy?.[0]?.op ?? null,
});

/** Classes whose objects, made after warm-up, the application left to the garbage collector's finalizers. */
function leftToCollector(summary, freeable) {
  return summary.classes.filter((c) => {
    const a = c.afterWarmup;
    return (
      c.registry &&
      c.freeable === freeable &&
      a.created >= MIN_OBJECTS &&
      a.reclaimed >= MIN_OBJECTS &&
      a.reclaimed >= MIN_LEFT_SHARE * a.created
    );
  });
}

/** Classes the application never frees whose objects were collected with no free (a glue without finalizers): their blocks are lost. */
function lostClasses(summary) {
  return summary.classes.filter((c) => {
    const a = c.afterWarmup;
    return (
      c.freeable && a.created >= MIN_OBJECTS && a.collected >= MIN_OBJECTS && a.freed <= MAX_FREED_SHARE * a.created
    );
  });
}

/** Classes with more objects still reachable at the end than at warm-up's end: what a leak holds. */
function stillHeld(summary) {
  return summary.classes.filter((c) => c.afterWarmup.held >= MIN_OBJECTS);
}

/**
 * What the progress line says of the objects so far: { left, lost } (each
 * at most NAMED classes as findings name them, largest first): classes
 * whose objects the application could have freed but left to the garbage
 * collector's finalizers, and classes collected without any free (their
 * blocks lost). summary: objectsSummary's of the counts so far.
 */
export function unfreedSoFar(summary) {
  if (!summary) return { left: [], lost: [] };
  return {
    left: leftToCollector(summary, true).slice(0, NAMED).map(named),
    lost: lostClasses(summary).slice(0, NAMED).map(named),
  };
}

/**
 * The memory findings (and notes) with what the objects say of them:
 * { findings, notes }. summary: objectsSummary's; heldLive: whether the
 * live bytes judged were sampled after GC (the held series): only then can
 * a flat live series be called "held by the application".
 * - live bytes leak and a class the application never frees was collected
 *   without a free: one `unfreed-objects` finding (lost: true) in its place;
 * - live bytes leak otherwise: the leak names the classes still held;
 * - objects the application could have freed were reclaimed by the
 *   collector, and either the heap or memory grows while held live bytes do
 *   not, or their garbage held a material share of the memory (garbage:
 *   garbageHeld's): one `unfreed-objects` finding in place of the memory
 *   findings;
 * - likewise, but the objects have no free (the glue frees them only by
 *   finalizers): the growth is a note (`gc-garbage`), not a finding;
 * - no memory finding, objects left to the collector: a note
 *   (`objects-left-to-gc`).
 */
export function withObjects(findings, notes, summary, heldLive, garbage = null) {
  if (!summary) return { findings, notes };
  const memory = findings.filter((f) => MEMORY_KINDS.has(f.kind));
  const rest = findings.filter((f) => !MEMORY_KINDS.has(f.kind));
  const leak = memory.find((f) => f.kind === 'leak' && f.series === 'live-bytes');
  const freeable = leftToCollector(summary, true);
  if (leak) {
    const lost = lostClasses(summary);
    if (lost.length > 0) {
      const f = { ...leak, kind: 'unfreed-objects', lost: true, classes: lost.slice(0, NAMED).map(named) };
      return { findings: [...rest, f, ...memory.filter((x) => x !== leak && x.series !== 'live-bytes')], notes };
    }
    const held = stillHeld(summary);
    const withHeld = held.length ? { ...leak, objects: held.slice(0, NAMED).map(named) } : leak;
    return { findings: findings.map((f) => (f === leak ? withHeld : f)), notes };
  }
  if (heldLive && freeable.length > 0 && (memory.length > 0 || materialGarbage(garbage))) {
    const { cause: _, ...first } = memory[0] ?? { series: 'memory' };
    const f = { ...first, kind: 'unfreed-objects', lost: false, classes: freeable.slice(0, NAMED).map(named), garbage };
    // The memory that grew while the garbage piled up was no start-up cost.
    return { findings: [...rest, f], notes: notes.filter((n) => n.kind !== 'startup-growth') };
  }
  const unfreeable = leftToCollector(summary, false);
  if (memory.length > 0 && heldLive && unfreeable.length > 0) {
    const garbage = memory.map((f) => ({
      kind: 'gc-garbage',
      series: f.series,
      perKiloCalls: f.slope?.perKiloIterations ?? null,
      classes: unfreeable.slice(0, NAMED).map(named),
    }));
    return { findings: rest, notes: [...notes, ...garbage] };
  }
  if (freeable.length > 0) {
    const note = { kind: 'objects-left-to-gc', series: null, classes: freeable.slice(0, NAMED).map(named), garbage };
    return { findings, notes: [...notes, note] };
  }
  return { findings, notes };
}

/**
 * What the glue's objects say of a run's trend verdicts, as the summary and
 * the progress line's preliminary verdict both take it: withObjects's
 * { findings, notes } with the garbage its census saw (garbageHeld's, or
 * null). trend: judgeTrends's (findings, notes, warmup); data: the decoded
 * run; objects: objectsSummary's, or null; censusMemory: the memory whose
 * census the verdicts read (-1 for none); heldLive: whether they read the
 * live bytes sampled after full GCs.
 */
export function explainedByObjects(trend, data, { objects, censusMemory, heldLive }) {
  const judged = (data.header.memories ?? [])[censusMemory];
  const garbage =
    objects && judged
      ? garbageHeld(
          censusMetricsOf(data.metrics, censusMemory),
          data.metrics[`memory:${judged.label}`],
          trend.warmup.iterations,
        )
      : null;
  return { ...withObjects(trend.findings, trend.notes, objects, heldLive, garbage), garbage };
}
