// The shipped examples: from a package laid out as npm installs it (the
// files `npm pack` ships, the addon as the install step builds it, the
// runtime dependencies and no devDependency), `wasm-soak soak` without a
// suite file finds the example suite in the package and runs every target.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { ROOT, readSummary, runCli, tempDir } from '../helpers.js';

/** Lays the package out in project/node_modules/wasm-soak; returns its folder. */
function install(project) {
  const [{ files }] = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' }),
  );
  const pkg = join(project, 'node_modules', 'wasm-soak');
  for (const { path } of files) {
    mkdirSync(dirname(join(pkg, path)), { recursive: true });
    copyFileSync(join(ROOT, path), join(pkg, path));
  }
  // What the install step builds (node-gyp-build), and the dependencies.
  mkdirSync(join(pkg, 'build', 'Release'), { recursive: true });
  copyFileSync(join(ROOT, 'build', 'Release', 'wasm_soak.node'), join(pkg, 'build', 'Release', 'wasm_soak.node'));
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  for (const dep of Object.keys(manifest.dependencies))
    symlinkSync(join(ROOT, 'node_modules', dep), join(project, 'node_modules', dep), 'dir');
  return pkg;
}

test('an installed package runs its shipped example suite when soak gets no suite, without devDependencies', async () => {
  const project = tempDir();
  const pkg = install(project);
  const from = createRequire(join(pkg, 'soak', 'suite.json'));
  for (const dev of Object.keys(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).devDependencies))
    assert.throws(() => from.resolve(dev), `the devDependency ${dev} is out of reach`);
  const suite = join(pkg, 'soak', 'suite.json');
  const { targets } = JSON.parse(readFileSync(suite, 'utf8'));
  const r = await runCli(['soak', '-n', '3000', '--format', 'md', '--fail-on', 'none'], {
    cwd: project,
    cli: join(pkg, 'src', 'cli', 'main.js'),
  });
  assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
  assert.ok(r.stdout.includes(`the examples shipped with wasm-soak: ${suite}`), r.stdout);
  for (const t of targets) {
    const s = readSummary(join(project, 'soak-results', t.name));
    assert.equal(s.status, 'completed', `${t.name}: ${s.error?.message}`);
    assert.equal(s.iterations.completed, 3000, t.name);
  }
});
