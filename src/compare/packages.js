// Versions of an npm package as compare arms (`wasm-soak compare
// scenario.mjs --package NAME@VERSION --package NAME@VERSION`): each exact
// version is installed once, by npm, into a folder of its own in wasm-soak's
// package cache (--package-cache, default $XDG_CACHE_HOME/wasm-soak/packages
// or ~/.cache/wasm-soak/packages), and each arm's scenario imports its own
// copy (ctx.arm.import(), src/worker/targets/scenario.js).
//
// An install runs in a new temporary folder inside the cache and is renamed
// to its entry (<name>@<version>, the scope's "/" as "+") only when npm
// succeeded and installed exactly the version asked for; the entry holds
// npm's own package.json and lock, wasm-soak-package.json (what was
// installed, with npm's integrity of the tarball: the marker that wasm-soak
// made the entry) and import.mjs (a dynamic import() that resolves from
// the entry). wasm-soak writes nothing else, and never moves or deletes a
// folder it did not make: an entry without its marker is an error.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { usageError } from '../errors.js';
import { writeResultFile } from '../result-file.js';

/** The marker file of a cache entry that wasm-soak made. */
export const MARKER = 'wasm-soak-package.json';
/** The module of an entry whose default export imports a specifier as seen from the entry. */
export const IMPORTER = 'import.mjs';
/** IMPORTER's text. */
export const IMPORTER_SOURCE =
  '// Written by wasm-soak: imports a specifier as resolved from this folder.\nexport default (specifier) => import(specifier);\n';

const NPM_TIMEOUT_MS = 300_000;
// npm's error codes for a registry it could not reach (and, offline, a tarball not in its cache).
const UNREACHED = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ENOTCACHED',
  'ERR_SOCKET_TIMEOUT',
]);

/** The default package cache: $XDG_CACHE_HOME/wasm-soak/packages, else ~/.cache/wasm-soak/packages. */
export const defaultPackageCache = () =>
  join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'wasm-soak', 'packages');

/**
 * The arm names of specs (parsePackage's, src/options/package-spec.js): the given one, else the version
 * when every spec names the same package, else "<name>-<version>" (the
 * scope's "@" dropped, "/" as "-"), any other character outside the folder
 * name rule as "_".
 */
export function packageArmNames(specs) {
  const one = new Set(specs.map((s) => s.name)).size === 1;
  return specs.map((s) => {
    if (s.arm) return s.arm;
    const text = one ? s.version : `${s.name.replace(/^@/, '').replace('/', '-')}-${s.version}`;
    return text.replace(/[^\w.-]/g, '_');
  });
}

/** The cache entry's folder name of NAME@VERSION. */
const entryName = ({ name, version }) => `${name.replace('/', '+')}@${version}`;

/** The package's .wasm files (nested node_modules left out), paths relative to dir, sorted. */
function wasmFiles(dir, sub = '') {
  const out = [];
  for (const e of readdirSync(join(dir, sub), { withFileTypes: true })) {
    const rel = join(sub, e.name);
    if (e.isDirectory() && e.name !== 'node_modules') out.push(...wasmFiles(dir, rel));
    else if (e.isFile() && e.name.endsWith('.wasm')) out.push(rel);
  }
  return out.sort();
}

/**
 * The module of an installed package: its .wasm file, the largest when it
 * ships several different ones (identical copies for several glues count
 * once). Exit 2 when it ships none (its wasm inlined in JavaScript).
 */
function packageModule(dir, spec) {
  const files = wasmFiles(dir);
  if (files.length === 0) {
    throw usageError(
      'WS_EPACKAGE',
      `${spec.name}@${spec.version} ships no .wasm file (its module may be inlined in its JavaScript), so compare cannot state its module's size, hash and toolchain.`,
      'Build or extract each version\'s .wasm and compare them with --arm NAME=PATH (docs/compare.md, "Versions of an npm package").',
    );
  }
  const sized = files.map((f) => ({ f, size: statSync(join(dir, f)).size }));
  const largest = sized.reduce((a, b) => (b.size > a.size ? b : a));
  const distinct = new Set(
    sized.map(({ f }) =>
      createHash('sha256')
        .update(readFileSync(join(dir, f)))
        .digest('hex'),
    ),
  );
  return { module: join(dir, largest.f), wasmFiles: files, distinctModules: distinct.size };
}

/** The last lines of npm's output, for an error that has no better words. */
const tail = (text) => text.trim().split('\n').slice(-4).join(' / ');

/** The usage error (exit 2) for a failed `npm install` of spec, from npm's error code. */
function installError(spec, result) {
  const at = `${spec.name}@${spec.version}`;
  const code = /npm (?:error|ERR!) code (\S+)/.exec(result.stderr ?? '')?.[1] ?? result.error?.code ?? null;
  if (result.error?.code === 'ENOENT') {
    return usageError(
      'WS_EPACKAGE',
      `--package ${at}: npm is not on PATH.`,
      'Install Node.js with npm, or give the arms as --arm NAME=PATH.',
    );
  }
  if (code === 'E404') {
    return usageError(
      'WS_EPACKAGE',
      `--package ${at}: the registry has no package ${spec.name}.`,
      'Check the name (npm view NAME).',
    );
  }
  if (code === 'ETARGET' || code === 'ENOVERSIONS') {
    return usageError(
      'WS_EPACKAGE',
      `--package ${at}: ${spec.name} has no version ${spec.version} on the registry.`,
      `npm view ${spec.name} versions lists the versions it has.`,
    );
  }
  if (UNREACHED.has(code)) {
    return usageError(
      'WS_EPACKAGE',
      `--package ${at}: npm could not reach the registry (${code}) and ${at} is not in npm's cache.`,
      'Connect to the network (or to your registry) once; an installed version is then reused from the package cache.',
    );
  }
  if (result.signal || result.error?.code === 'ETIMEDOUT') {
    return usageError(
      'WS_EPACKAGE',
      `--package ${at}: npm install did not finish within ${NPM_TIMEOUT_MS / 60000} min.`,
      'Try again, or check the network.',
    );
  }
  return usageError(
    'WS_EPACKAGE',
    `--package ${at}: npm install failed${code ? ` (${code})` : ''}: ${tail(result.stderr ?? '')}`,
    'Run the same npm install by hand to see why.',
  );
}

/** The entry's installed package as wasm-soak-package.json records it, read from npm's lock. */
function lockedPackage(tmp, spec) {
  const lock = JSON.parse(readFileSync(join(tmp, 'package-lock.json'), 'utf8'));
  const locked = lock.packages?.[`node_modules/${spec.name}`] ?? {};
  const installed = JSON.parse(readFileSync(join(tmp, 'node_modules', spec.name, 'package.json'), 'utf8'));
  return {
    name: spec.name,
    version: installed.version,
    integrity: locked.integrity ?? null,
    resolved: locked.resolved ?? null,
  };
}

/** Reads an entry's marker: the recorded package, or null when the entry is not wasm-soak's. */
function readMarker(entry) {
  try {
    const m = JSON.parse(readFileSync(join(entry, MARKER), 'utf8'));
    return m.schema === 'wasm-soak-package' && typeof m.name === 'string' ? m : null;
  } catch {
    return null;
  }
}

/** Installs spec into a new folder of cache and renames it to entry; returns the marker written. */
function install(spec, cache, entry) {
  mkdirSync(cache, { recursive: true });
  const tmp = mkdtempSync(join(cache, `.install-${entryName(spec)}-`));
  try {
    const result = spawnSync(
      'npm',
      [
        'install',
        '--prefix',
        tmp,
        '--ignore-scripts',
        '--save-exact',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        `${spec.name}@${spec.version}`,
      ],
      { encoding: 'utf8', timeout: NPM_TIMEOUT_MS, cwd: tmp },
    );
    if (result.status !== 0) throw installError(spec, result);
    const recorded = lockedPackage(tmp, spec);
    if (recorded.version !== spec.version) {
      throw usageError(
        'WS_EPACKAGE',
        `--package ${spec.name}@${spec.version}: npm installed version ${recorded.version} instead.`,
        'Check the registry npm uses (npm config get registry).',
      );
    }
    const marker = { schema: 'wasm-soak-package', ...recorded };
    writeResultFile(join(tmp, IMPORTER), IMPORTER_SOURCE);
    writeResultFile(join(tmp, MARKER), `${JSON.stringify(marker, null, 2)}\n`);
    try {
      renameSync(tmp, entry);
    } catch (err) {
      // Another wasm-soak installed the same version meanwhile: use its entry.
      if (!readMarker(entry)) throw err;
      rmSync(tmp, { recursive: true, force: true });
    }
    return readMarker(entry);
  } catch (err) {
    if (existsSync(tmp)) rmSync(tmp, { recursive: true, force: true }); // only the folder made above
    throw err;
  }
}

/**
 * The installed package of spec (parsePackage's) in cache, installing it
 * when its entry is missing: { name, version, integrity, resolved, root
 * (the entry), dir (the package's folder), module (its .wasm), wasmFiles,
 * distinctModules, installed: true when installed now }. Exit 2 (usage
 * error) for a version the registry lacks, no registry and no copy in
 * npm's cache, or an entry that wasm-soak did not make.
 */
export function ensurePackage(spec, cache) {
  const root = join(resolve(cache), entryName(spec));
  let marker = existsSync(root) ? readMarker(root) : null;
  const installed = !existsSync(root);
  if (existsSync(root) && (!marker || marker.name !== spec.name || marker.version !== spec.version)) {
    throw usageError(
      'WS_EPACKAGE',
      `--package ${spec.name}@${spec.version}: ${root} exists but is not a package folder wasm-soak made (no matching ${MARKER}); it is left as it is.`,
      'Move it away yourself, or give another --package-cache.',
    );
  }
  if (installed) marker = install(spec, resolve(cache), root);
  const dir = join(root, 'node_modules', spec.name);
  const found = packageModule(dir, spec);
  return {
    name: marker.name,
    version: marker.version,
    integrity: marker.integrity,
    resolved: marker.resolved,
    root,
    dir,
    module: found.module,
    wasmFiles: found.wasmFiles.map((f) => relative(root, join(dir, f))),
    distinctModules: found.distinctModules,
    installed,
  };
}
