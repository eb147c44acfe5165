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
 * The memory findings (and notes) with what the objects say of them:
 * { findings, notes }. summary: objectsSummary's; heldLive: whether the
 * live bytes judged were sampled after GC (the held series): only then can
 * a flat live series be called "held by the application".
 * - live bytes leak and a class the application never frees was collected
 *   without a free: one `unfreed-objects` finding (lost: true) in its place;
 * - live bytes leak otherwise: the leak names the classes still held;
 * - the heap or memory grows, held live bytes do not, and objects the
 *   application could have freed were reclaimed by the collector: one
 *   `unfreed-objects` finding in place of those findings;
 * - likewise, but the objects have no free (the glue frees them only by
 *   finalizers): the growth is a note (`gc-garbage`), not a finding;
 * - no memory finding, objects left to the collector: a note
 *   (`objects-left-to-gc`).
 */
export function withObjects(findings, notes, summary, heldLive) {
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
  if (memory.length > 0 && heldLive && freeable.length > 0) {
    const first = memory[0];
    const f = { ...first, kind: 'unfreed-objects', lost: false, classes: freeable.slice(0, NAMED).map(named) };
    delete f.cause;
    return { findings: [...rest, f], notes };
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
  if (freeable.length > 0)
    return {
      findings,
      notes: [...notes, { kind: 'objects-left-to-gc', series: null, classes: freeable.slice(0, NAMED).map(named) }],
    };
  return { findings, notes };
}
