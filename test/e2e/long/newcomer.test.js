// A newcomer's path, end to end, as the README's first screen tells it: the
// packed tarball installed into a scratch project with --ignore-scripts
// (the addon comes from its prebuilds/), two real npm packages installed
// beside it (a Rust/wasm-bindgen one and an Emscripten one), `npx wasm-soak
// init` on each and `npx wasm-soak run` on the scenarios it wrote, at the
// default settings: the right verdict for each. The README's two inline
// scenarios run there too. No network but the npm registry (node-gyp-build
// may come from it); the two packages are packed from this checkout's
// node_modules.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { npm, npxSoak, ROOT, readSummary, tempDir } from '../../helpers.js';

// A bound against a hang: packing, installing and four default runs of
// 20 000 calls took about 2 min on 2 shared cores.
const LIMIT = { timeout: 1_200_000 };
const dir = tempDir('wasm-soak-newcomer-');
after(() => rmSync(dir, { recursive: true, force: true }));

// Why time alone may stay undecided on a loaded machine (docs/verdicts.md):
// a clean module is then inconclusive for these reasons, never a finding.
const TIME_UNDECIDED = new Set(['machine-noise', 'unsustained', 'not-replicated', 'spans-threshold']);
function assertStable(summary, what) {
  const undecided =
    summary.verdict === 'inconclusive' && summary.inconclusive.every((u) => TIME_UNDECIDED.has(u.reason));
  assert.ok(summary.verdict === 'stable' || undecided, `${what}: verdict ${summary.verdict}`);
  assert.deepEqual(summary.findings, [], `${what}: no finding`);
}

/** Runs scenario (a file of project) at the default settings; returns its summary. */
function soak(project, scenario) {
  const out = join(project, 'results', scenario.replace(/\.m?js$/, ''));
  const r = npxSoak(['run', scenario, '-q', '--format', 'md', '-o', out], project);
  assert.equal(r.code, 0, `${scenario}: ${r.stderr}`);
  return readSummary(out);
}

test('npm pack → install with --ignore-scripts → init → run: the right verdicts', LIMIT, () => {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'prebuild.js')], { stdio: 'ignore' });
  // --ignore-scripts: prepack would rebuild the addon; prebuild.js just copied the current build.
  const [tool] = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT));
  for (const example of ['lz4.mjs', 'zstd.mjs', 'png.mjs', '_package.mjs']) {
    assert.ok(
      tool.files.some((f) => f.path === `soak/real/${example}`),
      `the example soak/real/${example} ships`,
    );
  }
  const packages = ['lz4-wasm-nodejs', '@bokuweb/zstd-wasm'].map((name) => {
    const [p] = JSON.parse(
      npm(['pack', join(ROOT, 'node_modules', name), '--ignore-scripts', '--json', '--pack-destination', dir], ROOT),
    );
    return join(dir, p.filename);
  });

  const project = join(dir, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'newcomer', private: true, type: 'module' }));
  npm(
    [
      'install',
      '--ignore-scripts',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      join(dir, tool.filename),
      ...packages,
    ],
    project,
  );

  // wasm-bindgen (Rust): lz4-wasm-nodejs; Emscripten (C): @bokuweb/zstd-wasm.
  for (const [name, file] of [
    ['lz4-wasm-nodejs', 'lz4-wasm-nodejs.soak.mjs'],
    ['@bokuweb/zstd-wasm', 'zstd-wasm.soak.mjs'],
  ]) {
    const init = npxSoak(['init', name], project);
    assert.equal(init.code, 0, `init ${name}: ${init.stderr}`);
    assert.match(init.stdout, new RegExp(`npx wasm-soak run ${file.replace(/\./g, '\\.')}`));
    assertStable(soak(project, file), `the scenario init wrote for ${name}`);
  }

  // The README's two scenarios, copied as a reader would.
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert.equal(blocks.length, 2, "the README's two inline scenarios");
  for (const [i, source] of blocks.entries()) {
    writeFileSync(join(project, `readme-${i}.mjs`), source);
    assertStable(soak(project, `readme-${i}.mjs`), `the README's scenario ${i + 1}`);
  }
});
