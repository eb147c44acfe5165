// What leaked blocks hold (docs/summary.md, "findings"): the blocks the
// worker picked in the memory whose census the verdicts read, in use at the
// end and not at the mark after warm-up, in the size classes that grew
// (src/worker/block-contents.js, ws_blocks.h), as the leak and growth
// findings show them: address, size, size class, first bytes as hex and as
// text.

// Printable ASCII, which the text form shows as is.
const PRINTABLE_FROM = 0x20;
const PRINTABLE_TO = 0x7e;
// Shortest run of printable bytes a hint quotes, and the longest it quotes.
const HINT_MIN = 4;
const HINT_MAX = 40;
// Runs a hint quotes at most.
const HINT_RUNS = 2;

const printable = (b) => b >= PRINTABLE_FROM && b <= PRINTABLE_TO;

/** The bytes of a hex string (two digits a byte). */
function bytesOf(hex) {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** bytes as text: printable ASCII as is, any other byte as ".". */
const textOf = (bytes) => Array.from(bytes, (b) => (printable(b) ? String.fromCharCode(b) : '.')).join('');

/** The runs of printable bytes in bytes, as strings. */
function printableRuns(bytes) {
  const runs = [];
  let run = '';
  for (const b of bytes) {
    if (printable(b)) run += String.fromCharCode(b);
    else if (run) {
      runs.push(run);
      run = '';
    }
  }
  if (run) runs.push(run);
  return runs;
}

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

/**
 * The text leaked blocks hold, quoted for a one-line hint ('"session-token-
 * 000123", "session-token-000871"'): the longest runs of at least HINT_MIN
 * printable bytes, one per block, at most HINT_RUNS of them, each cut to
 * HINT_MAX characters; '' when no block holds such a run.
 */
export function blocksHint(blocks) {
  const runs = [];
  for (const b of blocks ?? []) {
    const longest = printableRuns(bytesOf(b.hex)).reduce((a, r) => (r.length > a.length ? r : a), '');
    if (longest.length >= HINT_MIN && !runs.includes(longest)) runs.push(longest);
  }
  return runs
    .slice(0, HINT_RUNS)
    .map((r) => JSON.stringify(r.length > HINT_MAX ? `${r.slice(0, HINT_MAX)}…` : r))
    .join(', ');
}
