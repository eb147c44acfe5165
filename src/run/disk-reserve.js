// A disk reserve kept on the result folder's disk for the summary and the
// text reports: a file (.wasm-soak.room) of RESERVE_BYTES written as a run starts and removed just
// before they are written, so that a disk the sample log filled (ENOSPC)
// still takes the summary that names the error, and a later `wasm-soak
// report` reads that error rather than guessing from the log. Best effort:
// a disk already too full for it runs without. The file goes when the run
// ends, at the latest when the process exits (a second signal exits at
// once); one a killed run left is removed by `report` (freeReserve). The
// summary grows with the run's ops (each has its times, counts and growth
// in summary.json and a row in summary.md), so once the ops are known the
// reserve grows to their bound (reserveFor): a 1 500-op module's summary is
// about 900 KB, far past the fixed reserve.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeResultFile } from '../result-file.js';

const RESERVE_FILE = '.wasm-soak.room';

/** Enough for summary.json written twice (a temporary copy, then the rename), summary.md and junit.xml, of a few ops. */
const RESERVE_BYTES = 256 * 1024;

/**
 * An op's share of summary.json, summary.md and junit.xml, beside its name
 * (written as JSON, Markdown and in the reproduce command): its times,
 * counts and growth are about 600 bytes of pretty-printed JSON; with the
 * counting pass's counts, well under this.
 */
const BYTES_PER_OP = 1024;
const NAME_COPIES = 6;

/**
 * The reserve that the summary and the text reports of a run of ops (the log
 * header's: [{ name }]) need, in bytes: the fixed reserve and each op's bound.
 * The first summary.json is written into it; the second (with what the
 * reports wrote) replaces it only if it fits, so the reserve holds one.
 */
export function reserveFor(ops = []) {
  let bytes = RESERVE_BYTES;
  for (const op of ops) bytes += BYTES_PER_OP + NAME_COPIES * JSON.stringify(String(op?.name ?? '')).length;
  return bytes;
}

/** Removes dir's reserve file, if any; never throws. */
export function freeReserve(dir) {
  try {
    rmSync(join(dir, RESERVE_FILE), { force: true });
  } catch {}
}

/** The reserves kept by this process (their folders), freed at its exit by one listener. */
const kept = new Set();

function freeAllOnExit() {
  for (const dir of kept) freeReserve(dir);
}

/**
 * Keeps RESERVE_BYTES in dir (an existing folder this process has locked).
 * Returns { free, grow }: free() removes the file (never throws; once is
 * enough); grow(bytes) makes the reserve that large, when it is smaller and
 * the disk has the space (else the reserve stays as it was; never throws).
 */
export function keepReserve(dir) {
  let size = 0;
  const free = () => {
    if (size < 0) return;
    size = -1;
    kept.delete(dir);
    if (kept.size === 0) process.off('exit', freeAllOnExit);
    freeReserve(dir);
  };
  const grow = (bytes) => {
    if (size < 0 || bytes <= size) return;
    try {
      // A new file renamed over the old: a disk without the space keeps the old one.
      writeResultFile(join(dir, RESERVE_FILE), Buffer.alloc(bytes));
      size = bytes;
    } catch {}
  };
  try {
    writeResultFile(join(dir, RESERVE_FILE), Buffer.alloc(RESERVE_BYTES));
    size = RESERVE_BYTES;
  } catch {
    freeReserve(dir); // a disk too full for it: what was written of it goes
    return { free: () => {}, grow: () => {} };
  }
  // One listener for every reserve (concurrent soak() calls keep one each).
  if (kept.size === 0) process.on('exit', freeAllOnExit);
  kept.add(dir);
  return { free, grow };
}
