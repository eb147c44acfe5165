// The evidence a finding or a note quotes beside its sentence, in words:
// the census's size classes that accumulate, the allocation sites of the
// growth, the glue's objects left unfreed or still held, the garbage they
// held. sentences.js composes them into its sentences.
import { formatBytes, formatCount } from './format.js';
import { headlineStack } from './frame-words.js';

/**
 * The sizes that accumulate, in words ("+38,000 chunks of 16 B–32 B, +1,200
 * of 64 B–128 B in use since warm-up (heap census)"), or '' when none grew.
 * growing: the census's growing classes.
 */
export function growingClassesText(growing) {
  if (!growing?.length) return '';
  const parts = growing.map(
    (c, i) =>
      `+${formatCount(c.change)}${i === 0 ? ' chunks' : ''} of ${formatBytes(c.fromBytes)}–${formatBytes(c.toBytes)}`,
  );
  return `${parts.join(', ')} in use since warm-up (heap census)`;
}

/**
 * The sentence a leak finding adds about where its live bytes were
 * allocated ("Live since warm-up by allocation site (counting pass): +48 KiB
 * in 12 blocks allocated in `copy_string` ← `intern_header` (op request),
 * 100 % of the growth."), or '' without named sites. named: the sites the
 * finding names (namedSites of the summary's sites); each stack as
 * headlineStack says it (the export and at most two more frames).
 */
export function sitesText(named) {
  if (!named?.length) return '';
  const parts = named.map(
    (s) =>
      `+${formatBytes(s.liveBytes.growth)} in ${formatCount(s.liveBlocks.growth)} blocks allocated in ${s.frames.length ? headlineStack(s.frames) : 'no wasm frame'}${s.op ? ` (op ${s.op})` : ''}, ${Math.round(s.share * 100)} % of the growth`,
  );
  return `Live since warm-up by allocation site (counting pass): ${parts.join('; ')}.`;
}

/**
 * The classes of an unfreed-objects finding or a note in words (counts
 * after warm-up): "of 16,000 `Doc` objects made in op `edit`, the
 * application freed 800 and left 15,200 to the garbage collector".
 */
export function unfreedClassesText(classes, lost) {
  return classes
    .map((c) => {
      const op = c.op ? ` made in op \`${c.op}\`` : '';
      const rest = lost
        ? `${formatCount(c.collected)} were collected with no free`
        : `left ${formatCount(c.reclaimed)} to the garbage collector`;
      return `of ${formatCount(c.created)} \`${c.name}\` objects${op}, the application freed ${formatCount(c.freed)} and ${rest}`;
    })
    .join('; ');
}

/** " Their garbage held up to 6.2 MiB of the memory's 8.0 MiB (77 %)." of garbageHeld's g, or ''. */
export function garbageText(g) {
  if (!g || !(g.peakBytes > 0)) return '';
  return ` Their garbage held up to ${formatBytes(g.peakBytes)} of the memory's ${formatBytes(g.memoryBytes)} (${Math.round(g.share * 100)} %) after warm-up, between this run's own full collections: without them it piles up higher.`;
}

/** A leak's objects still held at the end (f.objects) in words, or ''. */
export function heldObjectsText(objects) {
  if (!objects?.length) return '';
  const parts = objects.map((c) => `${formatCount(c.held)} \`${c.name}\`${c.op ? ` (made in op \`${c.op}\`)` : ''}`);
  return ` Objects made after warm-up and still held at the end (neither freed nor collected): ${parts.join(', ')}.`;
}
