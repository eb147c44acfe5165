// Room kept on the result folder's disk for the summary and the text
// reports: a file of ROOM_BYTES written as a run starts and removed just
// before they are written, so that a disk the sample log filled (ENOSPC)
// still takes the summary that names the error, and a later `wasm-soak
// report` reads that error rather than guessing from the log. Best effort:
// a disk already too full for it runs without. The file goes when the run
// ends, at the latest when the process exits (a second signal exits at
// once); one a killed run left is removed by `report` (freeRoom).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeResultFile } from '../result-file.js';

const ROOM_FILE = '.wasm-soak.room';

/** Enough for summary.json written twice (a temporary copy, then the rename), summary.md and junit.xml. */
const ROOM_BYTES = 256 * 1024;

/** Removes dir's room file, if any; never throws. */
export function freeRoom(dir) {
  try {
    rmSync(join(dir, ROOM_FILE), { force: true });
  } catch {}
}

/**
 * Keeps ROOM_BYTES in dir (an existing folder this process has locked).
 * Returns { free }: free() removes the file (never throws; once is enough).
 */
export function keepRoom(dir) {
  const free = () => {
    process.off('exit', free);
    freeRoom(dir);
  };
  try {
    writeResultFile(join(dir, ROOM_FILE), Buffer.alloc(ROOM_BYTES));
  } catch {
    freeRoom(dir); // a disk too full for it: what was written of it goes
    return { free: () => {} };
  }
  process.on('exit', free);
  return { free };
}
