// Writes summary.json (docs/summary.md) into a result folder.
import { join } from 'node:path';
import { writeResultFile } from '../result-file.js';

/**
 * Writes summary as dir/summary.json (pretty-printed, one trailing newline)
 * whole or not at all, never through a link (src/result-file.js): into a
 * temporary file renamed over it, so that a full disk never leaves an empty
 * or cut summary (nor spoils the one there). When the folder cannot take it
 * (a full disk, a read-only folder, a link at summary.json), prints the
 * summary on stderr with the reason instead. kept: a summary.json this
 * run wrote earlier is in place (the rewrite that adds what the reports
 * wrote), so a failed write says it stays, in one line. Returns null when
 * written, else the error (code WS_ELINK for a link: an input error, exit 2).
 */
export function writeSummaryOrPrint(dir, summary, { kept = false } = {}) {
  const text = `${JSON.stringify(summary, null, 2)}\n`;
  try {
    writeResultFile(join(dir, 'summary.json'), text);
    return null;
  } catch (err) {
    if (kept && err.code !== 'WS_ELINK') {
      process.stderr.write(
        `wasm-soak: cannot update summary.json in ${dir} with what the reports wrote: ${err.message}; the summary written before them is kept.\n`,
      );
      return err;
    }
    process.stderr.write(
      `wasm-soak: cannot write summary.json in ${dir}: ${err.message}; the summary follows.\n${text}`,
    );
    return err;
  }
}
