// What leaked blocks hold (docs/summary.md, "findings"): the blocks the
// worker picked in the memory whose census the verdicts read, in use at the
// end and not at the mark after warm-up, in the size classes that grew
// (src/worker/block-contents.js, ws_blocks.h), as the leak and growth
// findings show them: address, size, size class, first bytes as hex and as
// text.

// Printable ASCII, which the text form shows as is.
const PRINTABLE_FROM = 0x20;
const PRINTABLE_TO = 0x7e;
/** Whether byte b is printable ASCII. */
export const printable = (b) => b >= PRINTABLE_FROM && b <= PRINTABLE_TO;

/** The bytes of a hex string (two digits a byte). */
export function bytesOf(hex) {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** bytes as text: printable ASCII as is, any other byte as ".". */
const textOf = (bytes) => Array.from(bytes, (b) => (printable(b) ? String.fromCharCode(b) : '.')).join('');

/**
 * The blocks of memory k in raw (the worker's result: { markedAt, memories:
 * [{ index, blocks }] }, or null), as findings show them: { markedAt,
 * blocks: [{ address, size, fromBytes, toBytes, hex, text }] }; null when
 * none were marked in memory k (block contents off, a run that ended
 * before the mark, or no heap recognised then).
 */
export function leakedBlocks(raw, k) {
  const m = raw?.memories?.find((x) => x.index === k);
  if (!m) return null;
  const blocks = (m.blocks ?? []).map((b) => ({
    address: b.address,
    size: b.size,
    fromBytes: 2 ** b.sizeClass,
    toBytes: 2 ** (b.sizeClass + 1),
    hex: b.hex,
    text: textOf(bytesOf(b.hex)),
  }));
  return { markedAt: raw.markedAt, blocks };
}
