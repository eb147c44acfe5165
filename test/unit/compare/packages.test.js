// Versions of an npm package as compare arms (src/compare/packages.js):
// exact versions only, the arms' default names, an entry of the package
// cache that wasm-soak did not make left alone, and no registry as a clear
// exit-2 error that leaves nothing behind. The installs themselves, from
// the registry, are in test/e2e/long/compare-versions.test.js.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ensurePackage, packageArmNames } from '../../../src/compare/packages.js';
import { parsePackage } from '../../../src/options/package-spec.js';
import { tempDir } from '../../helpers.js';

/** The exit-2 error parsePackage throws for text, as { code, message }. */
function refusal(text) {
  try {
    parsePackage(text);
  } catch (err) {
    return { code: err.exitCode, message: err.message };
  }
  assert.fail(`parsePackage accepted ${text}`);
}

test('--package takes [ARM=]NAME@VERSION with an exact version, scoped names too', () => {
  assert.deepEqual(parsePackage('lz4-wasm-nodejs@0.9.2'), { arm: null, name: 'lz4-wasm-nodejs', version: '0.9.2' });
  assert.deepEqual(parsePackage('old=@bokuweb/zstd-wasm@0.0.22'), {
    arm: 'old',
    name: '@bokuweb/zstd-wasm',
    version: '0.0.22',
  });
  assert.deepEqual(parsePackage('x@1.0.0-rc.1').version, '1.0.0-rc.1');
});

test('--package refuses a range, a tag, no version, a bad name and a bad arm name (exit 2)', () => {
  for (const range of ['^1.2.3', '1.2', 'latest', '>=1.0.0', '1.x']) {
    const r = refusal(`lz4-wasm-nodejs@${range}`);
    assert.equal(r.code, 2);
    assert.match(r.message, /is not an exact version/);
  }
  assert.match(refusal('lz4-wasm-nodejs').message, /must be \[ARM=\]NAME@VERSION/);
  assert.match(refusal('Not A Name@1.0.0').message, /is not an npm package name/);
  assert.match(refusal('../x=lz4-wasm-nodejs@0.9.2').message, /the arm name "..\/x" contains a path separator/);
  assert.match(refusal('control=lz4-wasm-nodejs@0.9.2').message, /compare's own control arm/);
});

test('arms are named by their version, by NAME-VERSION across packages, or as given', () => {
  const specs = (...texts) => texts.map((t) => parsePackage(t));
  assert.deepEqual(packageArmNames(specs('@s/p@1.0.0', '@s/p@1.1.0+build.7')), ['1.0.0', '1.1.0_build.7']);
  assert.deepEqual(packageArmNames(specs('@s/p@1.0.0', 'q@1.0.0')), ['s-p-1.0.0', 'q-1.0.0']);
  assert.deepEqual(packageArmNames(specs('old=q@1.0.0', 'q@2.0.0')), ['old', '2.0.0']);
});

test('a cache entry wasm-soak did not make is exit 2 and left as it is', () => {
  const cache = tempDir();
  const entry = join(cache, '@s+p@1.0.0');
  mkdirSync(entry);
  writeFileSync(join(entry, 'mine.txt'), 'not wasm-soak’s');
  assert.throws(
    () => ensurePackage(parsePackage('@s/p@1.0.0'), cache),
    (err) => err.exitCode === 2 && /is not a package folder wasm-soak made/.test(err.message),
  );
  assert.deepEqual(readdirSync(entry), ['mine.txt']);
  assert.equal(readFileSync(join(entry, 'mine.txt'), 'utf8'), 'not wasm-soak’s');
});

test('no registry and the version not in npm’s cache is exit 2 saying so, and leaves no folder behind', () => {
  const home = tempDir();
  const cache = join(home, 'packages');
  const saved = { ...process.env };
  // A registry nobody listens on, an empty npm cache, no retries: npm fails at once.
  Object.assign(process.env, {
    npm_config_registry: 'http://127.0.0.1:9/',
    npm_config_cache: join(home, 'npm-cache'),
    npm_config_fetch_retries: '0',
  });
  try {
    assert.throws(
      () => ensurePackage(parsePackage('lz4-wasm-nodejs@0.9.2'), cache),
      (err) =>
        err.exitCode === 2 &&
        /npm could not reach the registry \(ECONNREFUSED\) and lz4-wasm-nodejs@0\.9\.2 is not in npm's cache/.test(
          err.message,
        ),
    );
  } finally {
    for (const k of ['npm_config_registry', 'npm_config_cache', 'npm_config_fetch_retries']) {
      if (k in saved) process.env[k] = saved[k];
      else delete process.env[k];
    }
  }
  assert.deepEqual(readdirSync(cache), [], 'the temporary install folder is removed');
  assert.equal(existsSync(join(cache, 'lz4-wasm-nodejs@0.9.2')), false);
});
