// Writes summary.json (docs/summary.md) into a result folder.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes summary as dir/summary.json (pretty-printed, one trailing newline). */
export function writeSummary(dir, summary) {
  writeFileSync(join(dir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
}
