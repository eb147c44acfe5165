// The result folder, checked before any work: it exists or can be created,
// it is a folder, and a file can be written in it. Created one level at a
// time (never a recursive mkdir, which loops forever on procfs), so that
// every refusal names the path and the reason (exit 2).
import { closeSync, mkdirSync, openSync, statSync, unlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { usageError } from '../cli/exit-codes.js';

const FIX = 'Give --out a folder you can write to (or leave it out for soak-results/<name>).';

const refuse = (message) => usageError('WS_EOUTDIR', message, FIX);

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

/**
 * Makes sure dir is a writable folder, creating it and its missing parents.
 * Throws a SoakError (exit 2) naming the path and the errno otherwise.
 */
export function prepareOutDir(dir) {
  const abs = resolve(dir);
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
  for (const p of missing) {
    try {
      mkdirSync(p);
    } catch (err) {
      throw refuse(`Cannot create the result folder ${p}: ${err.code ?? err.message} (${err.message}).`);
    }
  }
  const probe = join(abs, `.wasm-soak-probe-${process.pid}`);
  try {
    closeSync(openSync(probe, 'wx'));
    unlinkSync(probe);
  } catch (err) {
    throw refuse(`Cannot write in the result folder ${dir}: ${err.code ?? err.message} (${err.message}).`);
  }
  return abs;
}
