// report.html's table of what leaked blocks hold, under a leak or growth
// finding: a few blocks allocated after warm-up in the sizes that
// accumulate (finding.blocks, src/analysis/blocks.js), each with its
// address, size, and first bytes as hex and as text. The bytes are the
// module's: every cell goes through the one escaper.
import { escapeMarkup as esc } from './escape.js';
import { formatBytes } from './format.js';

// Bytes per group of the hex column.
const HEX_GROUP = 4;

/** The page CSS the table needs: monospace bytes, wrapped between groups, text as is. */
export const BLOCKS_CSS = `
table.blocks{margin:6px 0}table.blocks caption{text-align:left;color:var(--muted);font-size:13px}
table.blocks td.hex{font:12px/1.4 ui-monospace,monospace;white-space:normal;max-width:28em}
table.blocks td.bytes{font:12px/1.4 ui-monospace,monospace;white-space:pre-wrap;overflow-wrap:anywhere;max-width:24em}
`;

/** hex (two digits a byte) in groups of HEX_GROUP bytes. */
const grouped = (hex) => (hex.match(new RegExp(`.{1,${2 * HEX_GROUP}}`, 'g')) ?? []).join(' ');

/** The table of finding f's blocks, or '' without any. */
export function blocksTable(f) {
  if (!f.blocks?.length) return '';
  const rows = f.blocks
    .map(
      (b) =>
        `<tr><td>0x${esc(b.address.toString(16))}</td><td>${esc(formatBytes(b.size))}</td><td class="hex">${esc(grouped(b.hex))}</td><td class="bytes">${esc(b.text)}</td></tr>`,
    )
    .join('');
  return `<div class="scroll"><table class="grid blocks"><caption>What blocks allocated after warm-up hold, in the sizes that accumulate: their first bytes (text: printable ASCII, any other byte as ".")</caption><thead><tr><th>address</th><th>size</th><th class="text">hex</th><th class="text">text</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}
