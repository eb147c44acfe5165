// Writes summary.json (docs/summary.md) into a result folder.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes summary as dir/summary.json (pretty-printed, one trailing newline);
 * when the folder cannot take it (a full disk, a read-only folder), prints
 * the summary on stderr with the reason instead. Returns true when written.
 */
export function writeSummaryOrPrint(dir, summary) {
  const text = `${JSON.stringify(summary, null, 2)}\n`;
  try {
    writeFileSync(join(dir, 'summary.json'), text);
    return true;
  } catch (err) {
    process.stderr.write(
      `wasm-soak: cannot write summary.json in ${dir}: ${err.message}; the summary follows.\n${text}`,
    );
    return false;
  }
}
