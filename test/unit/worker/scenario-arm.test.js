// ctx.arm under compare --package (src/worker/targets/scenario.js): its
// import() and require() load the package from the arm's own folder of the
// package cache, never from wasm-soak's node_modules.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { IMPORTER, IMPORTER_SOURCE } from '../../../src/compare/packages.js';
import { CTL_WORDS } from '../../../src/protocol.js';
import { createContext } from '../../../src/worker/targets/scenario.js';
import { tempDir } from '../../helpers.js';

/** A cache entry as packages.js leaves it, holding a package NAME whose exports say which copy it is. */
function entry(name, copy) {
  const root = tempDir();
  const dir = join(root, 'node_modules', name);
  mkdirSync(join(dir, 'sub'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', main: 'index.js' }));
  writeFileSync(join(dir, 'index.js'), `module.exports = { copy: ${JSON.stringify(copy)} };`);
  writeFileSync(join(dir, 'sub', 'part.js'), `module.exports = { part: ${JSON.stringify(copy)} };`);
  writeFileSync(join(root, IMPORTER), IMPORTER_SOURCE);
  return {
    name,
    version: '1.0.0',
    integrity: null,
    resolved: null,
    root,
    dir,
    importer: pathToFileURL(join(root, IMPORTER)).href,
  };
}

const ctxOf = (arm) =>
  createContext({ seed: 1, control: new Int32Array(new SharedArrayBuffer(CTL_WORDS * 4)), track() {}, arm });

test("ctx.arm.import() and require() load the arm's own copy of the package, a subpath too", async () => {
  // The same name in two entries, as two versions of one package: each arm sees its own.
  const a = ctxOf({ name: 'a', path: 'a.wasm', package: entry('wasm-soak-fake-pkg', 'a') });
  const b = ctxOf({ name: 'b', path: 'b.wasm', package: entry('wasm-soak-fake-pkg', 'b') });
  assert.equal((await a.arm.import()).default.copy, 'a');
  assert.equal((await b.arm.import()).default.copy, 'b');
  assert.equal(b.arm.require().copy, 'b');
  assert.equal((await a.arm.import('wasm-soak-fake-pkg/sub/part.js')).default.part, 'a');
  assert.equal(a.arm.package.version, '1.0.0');
  assert.equal('importer' in a.arm.package, false);
});

test('ctx.arm of a module arm is { name, path } alone', () => {
  const ctx = ctxOf({ name: 'x', path: 'x.wasm' });
  assert.deepEqual({ ...ctx.arm }, { name: 'x', path: 'x.wasm' });
  assert.equal(ctxOf(null).arm, null);
});
