// The arms of `compare scenario.mjs --package NAME@VERSION …`: each version
// installed (or found) in the package cache (packages.js), before anything
// runs, and given to its arm's worker as ctx.arm.package, whose import()
// loads that arm's own copy.
import { pathToFileURL } from 'node:url';
import { usageError } from '../errors.js';
import { describeRepeated, repeatedNames } from '../folder-names.js';
import { defaultPackageCache, ensurePackage, IMPORTER, packageArmNames } from './packages.js';

/** What compare.json records of an arm's package (arms[].package). */
export const packageRecord = (p) => ({
  name: p.name,
  version: p.version,
  integrity: p.integrity,
  resolved: p.resolved,
  module: p.module,
  wasmFiles: p.wasmFiles,
  cache: p.root,
});

/**
 * The arms of scenario path (its target) for cfg.package (parsePackage's
 * specs), each version installed into cfg.packageCache (or the default
 * cache) when it is not there yet; progress lines on stderr unless quiet.
 * Exit 2 for --arm given too, fewer than two versions, repeated arm names,
 * or a version that cannot be installed (packages.js).
 */
export function packageArms(path, target, cfg) {
  if (cfg.arm.length) {
    throw usageError(
      'WS_EUSAGE',
      `compare ${path} was given both --arm and --package.`,
      'Compare either modules (--arm NAME=PATH) or versions of a package (--package NAME@VERSION).',
    );
  }
  if (cfg.package.length < 2) {
    throw usageError(
      'WS_EUSAGE',
      `compare ${path} needs at least 2 --package NAME@VERSION, got ${cfg.package.length}.`,
      'Give one version per arm: --package lz4-wasm-nodejs@0.9.1 --package lz4-wasm-nodejs@0.9.2.',
    );
  }
  const names = packageArmNames(cfg.package);
  const repeated = repeatedNames(names);
  if (repeated.length) {
    throw usageError(
      'WS_EOPTION',
      `--package gives more than one arm the same name: ${describeRepeated(repeated, '--package')}.`,
      'Compare different versions, or name the arms: --package old=NAME@VERSION.',
    );
  }
  const cache = cfg.packageCache ?? defaultPackageCache();
  return cfg.package.map((spec, i) => {
    const p = ensurePackage(spec, cache);
    if (!cfg.quiet) {
      process.stderr.write(
        `compare: ${p.name}@${p.version} ${p.installed ? 'installed into' : 'found in'} ${p.root} (${p.integrity ?? 'no integrity recorded by npm'})\n`,
      );
    }
    const pkg = {
      name: p.name,
      version: p.version,
      integrity: p.integrity,
      resolved: p.resolved,
      root: p.root,
      dir: p.dir,
      importer: pathToFileURL(`${p.root}/${IMPORTER}`).href,
    };
    return {
      name: names[i],
      role: 'arm',
      path: p.module,
      package: packageRecord(p),
      target: { ...target, arm: { name: names[i], path: p.module, package: pkg } },
    };
  });
}
