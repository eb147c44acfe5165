// compare of two versions of one real npm package (compare --package):
// @bokuweb/zstd-wasm 0.0.22 and 0.0.27 (Emscripten), each installed by npm
// into the package cache and imported by its own arm
// (soak/scenarios/compare-zstd-versions.mjs). The versions come from the
// registry, or from npm's cache when both are there; a version the
// registry lacks is exit 2 before anything runs. Writes only the result
// folder and the cache the command names.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ensurePackage, MARKER } from '../../../src/compare/packages.js';
import { parsePackage } from '../../../src/options/package-spec.js';
import { fixture, runCli, tempDir } from '../../helpers.js';

const PKG = '@bokuweb/zstd-wasm';
const VERSIONS = ['0.0.22', '0.0.27'];
const scenario = fixture('soak', 'scenarios', 'compare-zstd-versions.mjs');
const dir = tempDir('wasm-soak-versions-');
after(() => rmSync(dir, { recursive: true, force: true }));

test('compare --package: two versions of one package, each arm its own copy, integrity recorded', async () => {
  const r = await runCli(
    [
      'compare',
      scenario,
      ...VERSIONS.flatMap((v) => ['--package', `${PKG}@${v}`]),
      '--package-cache',
      'cache',
      '-o',
      'out',
      '--blocks',
      '4',
      '--block-calls',
      '200',
      '--fail-if-slower',
      'none',
      '--format',
      'md',
      '--seed',
      '7',
    ],
    { cwd: dir },
  );
  assert.equal(r.code, 0, r.stderr);
  for (const v of VERSIONS) assert.match(r.stderr, new RegExp(`${PKG}@${v} installed into .*\\(sha512-`));
  const result = JSON.parse(readFileSync(join(dir, 'out', 'compare.json'), 'utf8'));
  assert.deepEqual(
    result.arms.map((a) => [a.name, a.package.name, a.package.version]),
    VERSIONS.map((v) => [v, PKG, v]),
  );
  for (const a of result.arms) {
    assert.match(a.package.integrity, /^sha512-[A-Za-z0-9+/]+=*$/);
    assert.ok(a.path.startsWith(join(dir, 'cache', `${PKG.replace('/', '+')}@${a.name}`)), a.path);
    assert.equal(a.status, 'completed');
  }
  assert.notEqual(result.arms[0].sha256, result.arms[1].sha256, 'each arm ran its own version’s module');
  assert.equal(result.differences.length, 1);
  // Nothing written beside the result folder and the cache; the cache holds one marked folder per version.
  assert.deepEqual(readdirSync(dir).sort(), ['cache', 'out']);
  const entries = readdirSync(join(dir, 'cache')).sort();
  assert.deepEqual(
    entries,
    VERSIONS.map((v) => `${PKG.replace('/', '+')}@${v}`),
  );
  for (const [i, e] of entries.entries()) {
    const marker = JSON.parse(readFileSync(join(dir, 'cache', e, MARKER), 'utf8'));
    assert.equal(marker.version, VERSIONS[i]);
    assert.equal(marker.integrity, result.arms[i].package.integrity);
  }
  // A later comparison finds the versions where this one put them: no npm.
  const again = ensurePackage(parsePackage(`${PKG}@${VERSIONS[0]}`), join(dir, 'cache'));
  assert.equal(again.installed, false);
  assert.equal(again.integrity, result.arms[0].package.integrity);
});

test('compare --package of a version the registry lacks is exit 2 before anything runs', async () => {
  const r = await runCli(
    [
      'compare',
      scenario,
      '--package',
      `${PKG}@${VERSIONS[0]}`,
      '--package',
      `${PKG}@0.0.99`,
      '--package-cache',
      'cache-missing',
      '-o',
      'out-missing',
      '-q',
    ],
    { cwd: dir },
  );
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /@bokuweb\/zstd-wasm has no version 0\.0\.99 on the registry/);
  // The first version is installed; the missing one leaves no folder, and no result folder is made.
  assert.deepEqual(readdirSync(join(dir, 'cache-missing')), [`${PKG.replace('/', '+')}@${VERSIONS[0]}`]);
  assert.ok(!readdirSync(dir).includes('out-missing'));
});
