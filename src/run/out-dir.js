// The result folder, checked before any work: it exists or can be created,
// it is a folder, and this run can lock it (folder-lock.js), which also
// proves a file can be written in it. Created one level at a time (never a
// recursive mkdir, which loops forever on procfs), so that every refusal
// names the path and the reason (exit 2). A folder that holds a previous
// result has it moved aside, never written over, unless --force; and a run
// that ends in a usage error undoes all of it (discard). Only a folder
// wasm-soak made has anything moved out of it: each result folder it makes
// (or finds empty) gets a marker file (MARKER), checked before anything is
// moved; the current directory or one of its parents is never a result
// folder.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { usageError } from '../errors.js';
import { writeResultFile } from '../result-file.js';
import { LOCK_FILE, lockedBy, lockFolder } from './folder-lock.js';

const FIX = 'Give --out a folder you can write to (or leave it out for soak-results/<name>).';

const refuse = (message) => usageError('WS_EOUTDIR', message, FIX);

/** The marker of a result folder wasm-soak made: the only kind it moves anything out of. */
export const MARKER = '.wasm-soak.result';

const MARKER_TEXT =
  'This folder is a wasm-soak result folder. A new run into it moves what it holds into the first free FOLDER.1, FOLDER.2, ...\n';

/** True when dir carries MARKER (a file, not a link). */
const marked = (dir) => lstatSync(join(dir, MARKER), { throwIfNoEntry: false })?.isFile() ?? false;

/** The exit-2 error when abs (dir as the user named it) is the current directory or one of its parents, else null. */
function holdsCwd(dir, abs) {
  let real;
  let cwd;
  try {
    real = realpathSync(abs);
    cwd = realpathSync(process.cwd());
  } catch {
    return null; // it does not exist yet, so it cannot hold the current directory (or there is none)
  }
  if (cwd !== real && !cwd.startsWith(real.endsWith(sep) ? real : real + sep)) return null;
  const what = cwd === real ? 'the current directory' : `a parent of the current directory (${cwd})`;
  return usageError(
    'WS_EOUTDIR',
    `The result folder ${dir} is ${what}: wasm-soak moves a previous result out of its result folder and removes what a failed run wrote there, so it never uses a folder that holds your work.`,
    'Give --out a folder of its own, a new one inside this one for example (--out soak-results/NAME).',
  );
}

/** The exit-2 error for a folder dir that holds a result but no MARKER: wasm-soak did not make it, so it moves nothing out of it. */
function notMade(dir) {
  return usageError(
    'WS_EOUTDIR',
    `The result folder ${dir} holds files that look like a result (a summary.json, samples.wslog or junit.xml), but wasm-soak did not make it (it has no ${MARKER} file), so it moves nothing out of it.`,
    `Give --out a new folder, or move or remove ${dir} yourself (a result written by a wasm-soak without markers has none either); --force writes the new result into it, over files of the same names.`,
  );
}

/** The files a run's result folder always has once its run started. */
const RESULT_FILES = ['summary.json', 'samples.wslog'];

/** True when dir holds a run's result (one of RESULT_FILES, as a file). */
const holdsRun = (dir) =>
  RESULT_FILES.some((f) => statSync(join(dir, f), { throwIfNoEntry: false })?.isFile() ?? false);

/** True when dir holds a suite's result: its junit.xml or suite-result.json, or a target's result folder. */
export function holdsSuite(dir) {
  if (['junit.xml', 'suite-result.json'].some((f) => existsSync(join(dir, f)))) return true;
  return readdirSync(dir, { withFileTypes: true }).some((e) => e.isDirectory() && holdsRun(join(dir, e.name)));
}

/** Returns the nearest existing ancestor of path (path itself included) and its stat. */
function nearestExisting(path) {
  for (let p = path; ; p = dirname(p)) {
    try {
      return { path: p, stat: statSync(p) };
    } catch (err) {
      if (err.code !== 'ENOENT' && err.code !== 'ENOTDIR') throw refuse(`Cannot use ${p}: ${err.message}.`);
      if (dirname(p) === p) throw refuse(`Cannot use ${path}: no part of it exists.`);
    }
  }
}

/** Creates path.1 (or the first free path.2, …) as an empty folder; returns it. */
function claimAsideFolder(dir, path) {
  for (let n = 1; ; n++) {
    try {
      mkdirSync(`${path}.${n}`);
      return `${path}.${n}`;
    } catch (err) {
      if (err.code !== 'EEXIST')
        throw refuse(`Cannot move the previous result ${dir} aside: ${err.code ?? err.message}.`);
    }
  }
}

/** Moves the entries names from folder from into folder to, each on its own; returns the names moved. */
function moveEntries(from, to, names) {
  const moved = [];
  for (const name of names) {
    renameSync(join(from, name), join(to, name));
    moved.push(name);
  }
  return moved;
}

/**
 * Moves what the folder path holds (all but its lock, which keeps the folder
 * this run's) into the first free path.1, path.2, …; returns that folder.
 */
function moveAside(dir, path) {
  const aside = claimAsideFolder(dir, path);
  const names = readdirSync(path).filter((name) => name !== LOCK_FILE);
  try {
    moveEntries(path, aside, names);
  } catch (err) {
    putBack(aside, path);
    throw refuse(`Cannot move the previous result ${dir} aside to ${aside}: ${err.code ?? err.message}.`);
  }
  return aside;
}

/** Moves back what moveAside moved from path to aside and removes aside; never throws. */
function putBack(aside, path) {
  try {
    moveEntries(aside, path, readdirSync(aside));
    rmdirSync(aside);
  } catch {}
}

/**
 * Creates the folders of missing (outermost first; one another run made
 * meanwhile is fine); throws a SoakError naming the one that failed.
 */
function createFolders(missing) {
  for (const p of missing) {
    try {
      mkdirSync(p);
    } catch (err) {
      if (err.code === 'EEXIST' && statSync(p).isDirectory()) continue;
      throw refuse(`Cannot create the result folder ${p}: ${err.code ?? err.message} (${err.message}).`);
    }
  }
}

/** Removes the folders of missing (innermost first) and what they hold; never throws. */
function removeFolders(missing) {
  if (!missing.length) return;
  try {
    rmSync(missing.at(-1), { recursive: true, force: true });
    for (const p of missing.slice(0, -1).reverse()) rmdirSync(p);
  } catch {}
}

/**
 * The exit-2 error for the first symbolic link in the folder path (dir as the
 * user named it), or null: a result folder's files are written without
 * following a link (src/result-file.js), and one planted where a result
 * file or a target's folder goes is refused before anything runs.
 */
function linkInside(dir, path) {
  for (const name of readdirSync(path)) {
    const file = join(path, name);
    if (!lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink()) continue;
    return usageError(
      'WS_ELINK',
      `The result folder ${dir} holds a symbolic link, ${join(dir, name)} (to ${readlinkSync(file)}); wasm-soak writes no file through a link.`,
      `Remove the link (rm ${join(dir, name)}) or give --out a folder of its own.`,
    );
  }
  return null;
}

/** The first folder in dir that a live run has locked, as its exit-2 error, or null. */
function lockedBelow(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const busy = e.isDirectory() ? lockedBy(join(dir, e.name)) : null;
    if (busy) return busy;
  }
  return null;
}

/**
 * Makes sure dir is a writable folder for a new result that this process
 * alone writes: creates it and its missing parents, then locks it
 * (folder-lock.js) before anything in it is moved or written. When it
 * holds a previous result (holds(path), default holdsRun) what it holds is
 * moved into the first free dir.1, dir.2, …, unless force, which writes
 * into it; a folder in it that another live run has locked is never moved.
 * Returns { path, movedTo, discard, release }: path is absolute; movedTo is
 * where the previous result went (or null); discard() removes everything
 * this run added (the folders it created, else the entries that were not
 * there before) and moves the previous result back, so that a usage error
 * leaves nothing on disk; release() removes the lock. Neither throws.
 * Throws a SoakError (exit 2) naming the path and the errno when the
 * folder cannot be used, or the live run that holds it; also, before
 * anything is moved, when dir is the current directory or a parent of it,
 * holds a symbolic link (src/result-file.js), or holds a previous result
 * without MARKER (a folder wasm-soak did not make). A folder this run made,
 * or found empty, gets MARKER.
 */
export function prepareOutDir(dir, { force = false, holds = holdsRun } = {}) {
  const abs = resolve(dir);
  const cwdInside = holdsCwd(dir, abs);
  if (cwdInside) throw cwdInside;
  const found = nearestExisting(abs);
  if (!found.stat.isDirectory()) {
    throw refuse(
      found.path === abs
        ? `The result folder ${dir} is a file, not a folder.`
        : `The result folder ${dir} cannot be created: ${found.path} is a file, not a folder.`,
    );
  }
  const missing = [];
  for (let p = abs; p !== found.path; p = dirname(p)) missing.unshift(p);
  createFolders(missing);
  let lock;
  try {
    lock = lockFolder(abs);
  } catch (err) {
    // A folder another run locked is that run's, even when this one made it.
    if (err.code !== 'WS_ELOCKED') removeFolders(missing);
    throw err;
  }
  let movedTo = null;
  try {
    const link = linkInside(dir, abs);
    if (link) throw link;
    if (!force && holds(abs)) {
      const busy = lockedBelow(abs);
      if (busy) throw busy;
      if (!marked(abs)) throw notMade(dir);
      movedTo = moveAside(dir, abs);
    }
  } catch (err) {
    lock.release();
    removeFolders(missing);
    throw err;
  }
  // What the folder holds once ready, so that discard removes only what
  // this run added (nothing, when it cannot be listed).
  let before = null;
  try {
    before = new Set(readdirSync(abs));
  } catch {}
  // A folder this run made, or found empty, is wasm-soak's from now on: the
  // next run may move its result aside.
  if (before && [...before].every((name) => name === LOCK_FILE || name === MARKER)) {
    try {
      if (!before.has(MARKER)) writeResultFile(join(abs, MARKER), MARKER_TEXT);
    } catch {} // the lock proved the folder writable; a marker that cannot be written only keeps it from being moved later
  }

  // Best effort, each step on its own: what is left is named by the error
  // that caused the discard.
  function discard() {
    if (missing.length) removeFolders(missing);
    else if (before) {
      try {
        for (const name of readdirSync(abs)) if (!before.has(name)) rmSync(join(abs, name), { recursive: true });
      } catch {}
    }
    if (movedTo) putBack(movedTo, abs);
  }
  return { path: abs, movedTo, discard, release: lock.release };
}
