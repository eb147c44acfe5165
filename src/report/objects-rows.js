// The glue's objects by class (summary.objects) as the rows of report.html's
// and summary.md's table: after warm-up, most made first, and what frees them.

// Rows shown: the classes that made the most objects.
export const OBJECT_ROWS = 8;

/** How a class's objects are freed, in words: by a finalizer, by a free method, or both. */
function freedBy(c) {
  if (c.registry && c.freeable) return 'free() or a finalizer';
  if (c.registry) return 'a finalizer only';
  return 'free() only';
}

/**
 * summary.objects as rows { name, freedBy, made, freed, reclaimed,
 * collected, held, op } (counts after warm-up; op: the op that made most of
 * them, null outside calls); [] without objects.
 */
export function objectRows(s) {
  const classes = s.objects?.classes ?? [];
  return classes
    .filter((c) => c.afterWarmup.created > 0 || c.afterWarmup.held !== 0)
    .slice(0, OBJECT_ROWS)
    .map((c) => ({
      name: c.name,
      freedBy: freedBy(c),
      made: c.afterWarmup.created,
      freed: c.afterWarmup.freed,
      reclaimed: c.afterWarmup.reclaimed,
      collected: c.afterWarmup.collected,
      held: c.afterWarmup.held,
      op: c.createdBy?.[0]?.op ?? null,
    }));
}

/** One sentence under the table: what the columns count, and the garbage the census saw. */
export function objectsNote(s, formatBytes) {
  const g = s.objects?.garbage;
  const garbage =
    g && g.peakBytes > 0
      ? ` Garbage awaiting the collector held up to ${formatBytes(g.peakBytes)} of linear memory's ${formatBytes(g.memoryBytes)} after warm-up (the heap census's live bytes minus those held after full GCs).`
      : '';
  return `Objects the glue made since warm-up, by class: freed by the application (free(), delete(), or the glue's unregister), reclaimed by the garbage collector (the glue's finalizer ran), collected with no free (no finalizer: their memory is lost), still held at the end.${garbage}`;
}
