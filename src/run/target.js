// Identifies a target (raw module or scenario) and fingerprints its file,
// or a module's bytes given without one (the library's soak({ bytes })).

import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import { usageError } from '../cli/exit-codes.js';

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

/** Returns { kind, path, name, module | scenario: { path, sha256, size } }. */
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
  const kind = SCENARIO_EXTENSIONS.has(ext) ? 'scenario' : 'module';
  if (kind === 'module' && ext !== '.wasm' && bytes.subarray(0, 4).toString('latin1') !== '\0asm') {
    throw usageError(
      'WS_ETARGET',
      `${path} is neither a .wasm module nor a scenario (.mjs/.js).`,
      'Give a compiled .wasm module or an ES module scenario.',
    );
  }
  const fingerprint = { path: resolve(path), ...fingerprintOf(bytes) };
  return {
    kind,
    path: resolve(path),
    name: basename(path, ext),
    module: kind === 'module' ? fingerprint : null,
    scenario: kind === 'scenario' ? fingerprint : null,
  };
}
