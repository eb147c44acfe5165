// Writes summary.json (docs/summary.md) into a result folder.
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes summary as dir/summary.json (pretty-printed, one trailing newline)
 * whole or not at all: into a temporary file renamed over it, so that a
 * full disk never leaves an empty or cut summary (nor spoils the one
 * there). When the folder cannot take it (a full disk, a read-only folder),
 * prints the summary on stderr with the reason instead. Returns true when
 * written.
 */
export function writeSummaryOrPrint(dir, summary) {
  const text = `${JSON.stringify(summary, null, 2)}\n`;
  const partial = join(dir, '.summary.json.partial');
  try {
    writeFileSync(partial, text);
    renameSync(partial, join(dir, 'summary.json'));
    return true;
  } catch (err) {
    rmSync(partial, { force: true });
    process.stderr.write(
      `wasm-soak: cannot write summary.json in ${dir}: ${err.message}; the summary follows.\n${text}`,
    );
    return false;
  }
}
