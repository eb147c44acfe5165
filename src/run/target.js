// Identifies a target (raw module or scenario) and fingerprints its file,
// or a module's bytes given without one (the library's soak({ bytes })).

import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import { usageError } from '../errors.js';

const SCENARIO_EXTENSIONS = new Set(['.mjs', '.js']);

const fingerprintOf = (bytes) => ({ sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length });

/**
 * A module given as bytes (a Uint8Array) named name: { kind: 'module', path:
 * null, name, module: { path: null, sha256, size }, scenario: null }; the
 * worker checks that they are a valid module.
 */
export function describeBytes(bytes, name) {
  return { kind: 'module', path: null, name, module: { path: null, ...fingerprintOf(bytes) }, scenario: null };
}

/**
 * Returns { kind ('module', 'scenario' or 'native': an ELF file), path, name,
 * module | scenario: { path, sha256, size } } (a native library's under module).
 */
export function describeTarget(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw usageError(
      'WS_ENOENT',
      `Cannot find the target ${path}.`,
      'Give a .wasm module (with --call EXPORT) or a scenario .mjs file.',
    );
  }
  if (!stat.isFile()) {
    throw usageError('WS_ENOENT', `The target ${path} is not a file.`, 'Give a .wasm module or a scenario .mjs file.');
  }
  const ext = extname(path);
  const bytes = readFileSync(path);
  const magic = bytes.subarray(0, 4).toString('latin1');
  // A native shared library (ELF) is an arm of compare only (src/compare/native-facts.js).
  const kind = SCENARIO_EXTENSIONS.has(ext) ? 'scenario' : magic === '\x7fELF' ? 'native' : 'module';
  if (kind === 'module' && ext !== '.wasm' && magic !== '\0asm') {
    throw usageError(
      'WS_ETARGET',
      `${path} is neither a .wasm module, a scenario (.mjs/.js) nor a native shared library (ELF).`,
      'Give a compiled .wasm module or an ES module scenario (compare also takes a .so built from the same source as a wasm arm).',
    );
  }
  const fingerprint = { path: resolve(path), ...fingerprintOf(bytes) };
  return {
    kind,
    path: resolve(path),
    // init writes <name>.soak.mjs: its result folder is soak-results/<name>, as the README says.
    name: kind === 'scenario' ? basename(path, ext).replace(/\.soak$/, '') : basename(path, ext),
    module: kind === 'scenario' ? null : fingerprint,
    scenario: kind === 'scenario' ? fingerprint : null,
  };
}
