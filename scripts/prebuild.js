#!/usr/bin/env node
// Copies the addon built by `npm run build` into the prebuilds/ layout that
// node-gyp-build loads (prebuildify's: prebuilds/<platform>-<arch>/
// <name>.napi[.<libc>].node), stripped of debug symbols. `npm pack` runs it
// (prepack), so the tarball carries a binary for the machine that packed it
// (linux-x64 in CI); elsewhere the install script builds from source.
// Safe to run twice at once (tests pack concurrently): the binary is
// stripped beside the build and renamed into place, so a packer reads either
// the old file or the new one, never a part.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'build', 'Release', 'wasm_soak.node');
if (!existsSync(built)) {
  process.stderr.write(`prebuild: ${built} is missing; run \`npm run build\` first.\n`);
  process.exit(1);
}
// node-gyp-build tells glibc from musl by this tag; other systems take none.
const libc = process.platform === 'linux' ? (existsSync('/etc/alpine-release') ? '.musl' : '.glibc') : '';
const dir = join(root, 'prebuilds', `${process.platform}-${process.arch}`);
const name = `wasm-soak.napi${libc}.node`;
mkdirSync(dir, { recursive: true });
// Another libc's or an older name's binary would be packed too.
for (const stale of readdirSync(dir)) if (stale !== name) rmSync(join(dir, stale), { recursive: true, force: true });
const staged = join(root, 'build', `prebuild-${process.pid}.node`);
copyFileSync(built, staged);
if (process.platform === 'linux') execFileSync('strip', ['--strip-unneeded', staged]);
const file = join(dir, name);
renameSync(staged, file);
process.stdout.write(`prebuild: ${file}\n`);
