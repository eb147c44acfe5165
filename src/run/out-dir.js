// The result folder, checked before any work: it exists or can be created,
// it is a folder, and a file can be written in it. Created one level at a
// time (never a recursive mkdir, which loops forever on procfs), so that
// every refusal names the path and the reason (exit 2). A folder that holds
// a previous result is moved aside, never written over, unless --force; and
// a run that ends in a usage error undoes all of it (discard).
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { usageError } from '../cli/exit-codes.js';

const FIX = 'Give --out a folder you can write to (or leave it out for soak-results/<name>).';

const refuse = (message) => usageError('WS_EOUTDIR', message, FIX);

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

/** The first of path.1, path.2, … that does not exist. */
function asideName(path) {
  for (let n = 1; ; n++) if (!existsSync(`${path}.${n}`)) return `${path}.${n}`;
}

/** Creates the folders of missing (outermost first); throws a SoakError naming the one that failed. */
function createFolders(missing) {
  for (const p of missing) {
    try {
      mkdirSync(p);
    } catch (err) {
      throw refuse(`Cannot create the result folder ${p}: ${err.code ?? err.message} (${err.message}).`);
    }
  }
}

/**
 * Makes sure dir is a writable folder for a new result, creating it and its
 * missing parents. When it holds a previous result (holds(path), default
 * holdsRun) it is renamed to the first free dir.1, dir.2, … and a fresh
 * folder made in its place, unless force, which writes into it. Returns {
 * path, movedTo, discard }: path is absolute; movedTo is where the previous
 * result went (or null); discard() removes everything this run added (the
 * folders it created, else the entries that were not there before) and
 * moves the previous result back, so that a usage error leaves nothing on
 * disk; it never throws. Throws a SoakError (exit 2) naming the path and the
 * errno when the folder cannot be used.
 */
export function prepareOutDir(dir, { force = false, holds = holdsRun } = {}) {
  const abs = resolve(dir);
  const found = nearestExisting(abs);
  if (!found.stat.isDirectory()) {
    throw refuse(
      found.path === abs
        ? `The result folder ${dir} is a file, not a folder.`
        : `The result folder ${dir} cannot be created: ${found.path} is a file, not a folder.`,
    );
  }
  let movedTo = null;
  const missing = [];
  for (let p = abs; p !== found.path; p = dirname(p)) missing.unshift(p);
  if (found.path === abs && !force && holds(abs)) {
    movedTo = asideName(abs);
    try {
      renameSync(abs, movedTo);
    } catch (err) {
      throw refuse(`Cannot move the previous result ${dir} aside to ${movedTo}: ${err.code ?? err.message}.`);
    }
    missing.push(abs);
  }
  // What an existing folder held, so that discard removes only what this
  // run added (nothing, when it cannot be listed).
  const created = missing.length > 0;
  let before = null;
  if (!created) {
    try {
      before = new Set(readdirSync(abs));
    } catch {}
  }
  try {
    createFolders(missing);
    const probe = join(abs, `.wasm-soak-probe-${process.pid}`);
    try {
      closeSync(openSync(probe, 'wx'));
      unlinkSync(probe);
    } catch (err) {
      throw refuse(`Cannot write in the result folder ${dir}: ${err.code ?? err.message} (${err.message}).`);
    }
  } catch (err) {
    undo();
    throw err;
  }

  // Best effort, each step on its own: what is left is named by the error
  // that caused the discard.
  function undo() {
    const attempt = (step) => {
      try {
        step();
      } catch {}
    };
    if (created) {
      attempt(() => rmSync(abs, { recursive: true, force: true }));
      for (const p of missing.slice(0, -1).reverse()) attempt(() => rmdirSync(p));
    } else if (before) {
      attempt(() => {
        for (const name of readdirSync(abs)) if (!before.has(name)) rmSync(join(abs, name), { recursive: true });
      });
    }
    if (movedTo) attempt(() => renameSync(movedTo, abs));
  }
  return { path: abs, movedTo, discard: undo };
}
