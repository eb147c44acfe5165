// Every file wasm-soak writes into a result folder is written here, and never
// through a link: a result folder downloaded from CI can hold a symbolic link
// where summary.md should be, and writing through it would clobber any file
// the user can write. A file is made as a temporary file in the same folder,
// created exclusively (O_EXCL, which follows no link), and renamed over its
// name, which replaces a name and never writes through one; a link already at
// that name is refused, naming it (exit 2). Renaming also means a write that
// fails (a full disk, a file size limit) leaves the old file whole.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  createWriteStream,
  lstatSync,
  openSync,
  readlinkSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { usageError } from './errors.js';

/** The exit-2 error for a link found at path, where a result file goes. */
function linkError(path) {
  let to = '';
  try {
    to = ` (to ${readlinkSync(path)})`;
  } catch {}
  return usageError(
    'WS_ELINK',
    `${path} is a symbolic link${to} where wasm-soak writes a result file; it writes no file through a link.`,
    `Remove the link (rm ${path}) or give --out a folder of its own.`,
  );
}

/** Throws linkError when path is a symbolic link; nothing when it is anything else or absent. */
export function refuseLink(path) {
  if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) throw linkError(path);
}

/**
 * Creates a temporary file beside path, exclusively (a name nobody else
 * holds, no link followed). Returns { fd, temp }.
 */
function createTemp(path) {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}-${randomBytes(4).toString('hex')}.partial`);
  return { fd: openSync(temp, 'wx'), temp };
}

/** Renames temp over path after checking that path is no link; removes temp when it cannot. */
function renameOver(temp, path) {
  try {
    refuseLink(path);
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}

/**
 * Writes data (a string, as UTF-8, or bytes) as the file path, whole or not
 * at all: into a temporary file renamed over path. Throws WS_ELINK (exit 2)
 * when path is a symbolic link, or the write's own error (the temporary file
 * removed, an old file at path untouched).
 */
export function writeResultFile(path, data) {
  refuseLink(path);
  const { fd, temp } = createTemp(path);
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
  } catch (err) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw err;
  }
  closeSync(fd);
  renameOver(temp, path);
}

/**
 * Creates path as a new empty file and returns its file descriptor, open for
 * writing, for a file written as a run goes (a sample log, the module's
 * output): a temporary file renamed over path at once, so that what is
 * written reaches path even if the run is killed. Throws as writeResultFile.
 */
export function openResultFile(path) {
  refuseLink(path);
  const { fd, temp } = createTemp(path);
  try {
    renameOver(temp, path);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  return fd;
}

/**
 * A write stream for the file path, written into a temporary file: done()
 * ends it and renames it over path (throws as writeResultFile; on an error
 * the temporary file is removed and an old file at path stays).
 */
export function resultStream(path) {
  refuseLink(path);
  const { fd, temp } = createTemp(path);
  const stream = createWriteStream(null, { fd });
  const finished = new Promise((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
  });
  return {
    stream,
    async done() {
      stream.end();
      try {
        await finished;
        await new Promise((resolve) => (stream.closed ? resolve() : stream.once('close', resolve)));
      } catch (err) {
        rmSync(temp, { force: true });
        throw err;
      }
      renameOver(temp, path);
    },
  };
}

/**
 * Makes sure path is a regular file that a run may append to (the module's
 * output): an empty one is created when none is there. Throws WS_ELINK (exit
 * 2) when path is a symbolic link.
 */
export function ensureResultFile(path) {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (stat?.isSymbolicLink()) throw linkError(path);
  if (!stat) closeSync(openResultFile(path));
}
