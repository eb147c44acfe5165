// Installs anywhere: the packed tarball carries a prebuilt addon for this
// platform (prebuilds/, loaded by node-gyp-build), so an install with
// scripts blocked still runs a soak; binaryen is an optional peer (the
// default install stays small, the counting pass names the package to add);
// without any addon, help, --version and usage errors still work, a run
// says how to build one (exit 3), and that fix (npm rebuild: the install
// script builds from source) works.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { assertClean, fixture, npm, npxSoak, ROOT, readSummary, tempDir } from '../../helpers.js';

// A bound against a hang, not a speed target: on 2 shared cores the test took
// 200 s (building the addon from source is most of it), so 300 s would fail on a
// machine 1.5× slower. 20 min leaves 6×.
const LIMIT = { timeout: 1_200_000 };
const dir = tempDir('wasm-soak-pack-');
after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Soaks the clean fixture with the CLI installed in project, into out, at
 * the default thresholds (time is judged against the machine's control).
 */
const soakClean = (project, out) =>
  npxSoak(
    ['run', fixture('soak', 'modules', 'clean.wasm'), '--call', 'step', '-q', '--format', 'md', '-o', out],
    project,
  );

/** Bytes under path (files only). */
function sizeOf(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((sum, f) => sum + sizeOf(join(path, f)), 0);
}

test(
  'a tarball installed with --ignore-scripts runs a soak; without an addon the CLI still helps',
  LIMIT,
  async (t) => {
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'prebuild.js')], { stdio: 'ignore' });
    // --ignore-scripts: prepack would rebuild the addon; prebuild.js just copied the current build.
    const [packed] = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT));
    assert.ok(
      packed.files.some((f) => /^prebuilds\/linux-x64\/wasm-soak\.napi\.glibc\.node$/.test(f.path)),
      'the tarball carries the linux-x64 prebuild',
    );
    assert.ok(!packed.files.some((f) => f.path.startsWith('build/')), 'no local build in the tarball');
    assert.ok(
      packed.files.some((f) => f.path === 'src/index.d.ts'),
      'the types are packed',
    );

    const project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    npm(
      ['install', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', join(dir, packed.filename)],
      project,
    );
    const modules = join(project, 'node_modules');
    const installed = sizeOf(modules);
    t.diagnostic(`tarball ${packed.size} B, default install ${installed} B`);
    assert.ok(installed < 10 * 2 ** 20, `default install is ${(installed / 2 ** 20).toFixed(1)} MiB`);

    const out = join(dir, 'out');
    const run = soakClean(project, out);
    assert.equal(run.code, 0, run.stderr);
    assertClean(readSummary(out));

    const lib = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', "const m = await import('wasm-soak'); console.log(typeof m.soak, m.version)"],
      { cwd: project, encoding: 'utf8' },
    );
    assert.equal(lib.stdout.trim(), `function ${packed.version}`, lib.stderr);

    const counting = npxSoak(
      ['run', fixture('soak', 'modules', 'leak.wasm'), '--call', 'step', '--count-allocs', '-q', '-o', join(dir, 'c')],
      project,
    );
    assert.equal(counting.code, 3);
    assert.match(
      counting.stderr,
      /rewrite the module with binaryen, which is not installed[\s\S]*npm install binaryen/,
    );

    // Another platform with scripts blocked: no addon at all.
    rmSync(join(modules, 'wasm-soak', 'prebuilds'), { recursive: true });
    const help = npxSoak(['--help'], project);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /Usage/);
    assert.equal(npxSoak(['--version'], project).code, 0);
    const runHelp = npxSoak(['help', 'run'], project);
    assert.equal(runHelp.code, 0, runHelp.stderr);
    const usage = npxSoak(['run', '--bogus'], project);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /Unknown option '--bogus'/);
    const noAddon = npxSoak(
      ['run', fixture('soak', 'modules', 'clean.wasm'), '--call', 'step', '-o', join(dir, 'none')],
      project,
    );
    assert.equal(noAddon.code, 3);
    assert.match(noAddon.stderr, /native addon is not built for linux-x64[\s\S]*npm rebuild wasm-soak/);
    assert.doesNotMatch(noAddon.stderr, /at .*node-gyp-build/, 'a message, not a stack');

    // The fix the message names: the install script builds the addon from source.
    npm(['rebuild', 'wasm-soak', '--foreground-scripts'], project);
    const rebuilt = soakClean(project, join(dir, 'rebuilt'));
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
  },
);
