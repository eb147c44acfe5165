#!/usr/bin/env node
// Finds comments and docs that name a file of this repository that does not
// exist. A path under one of the repository's folders (src/, addon/, test/,
// docs/, scripts/, bench/, soak/, plots/) must exist from the root; a bare
// name of a source file (schema.js, ws_thin.c, allocator/sites.js) must
// exist beside the file that names it, in a folder above it, or as the tail
// of some tracked path (a rooted one may also be relative to a folder above
// the file: plots/axes.js in src/report/plots.js). Code is not read, only comments (// and /* */ in
// .js, .c and .h files) and the whole text of Markdown files. Run by
// test/unit/house/stale-references.test.js; prints the stale ones when run.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOTS = ['src', 'addon', 'test', 'docs', 'scripts', 'bench', 'soak', 'plots'];
const CODE = /\.(?:js|mjs|cjs|c|h|cpp|ts)$/;
// A path begins after a space, a bracket or a quote (never inside a URL or
// another path) and ends before what cannot be part of a file name.
const PATH =
  /(?<=^|[\s(`'"[,{])((?:\.{1,2}\/)?(?:[\w.-]+\/)*[\w-]+(?:\.[\w-]+)*\.(?:js|mjs|cjs|c|h|md|ts|json|gyp)|(?:src|addon|test|docs)\/(?:[\w.-]+\/)*)(?![\w/-])/g;

// A bare name is checked in comments only when it is one of ours by its
// shape (a JS module, a ws_ or test_ C file); docs name output files and
// other packages' files the same way.
const OURS = /(?:^|\/)(?:[\w-]+\.js|(?:ws|test)_\w+\.[ch])$/;
// Names of other packages' files that our comments describe.
const EXTERNAL = new Set([
  'sql.js',
  'glue.js',
  'pkg/glue.js',
  'x.js',
  'x_bg.js',
  'yoga-layout/dist/x.js',
  'dh_view.js',
]);
const rooted = (name) => ROOTS.some((r) => name === r || name.startsWith(`${r}/`));

// This file and its test name stale files on purpose.
const PLANTED = ['scripts/stale-references.js', 'test/unit/house/stale-references.test.js'];

/** The comments of a source text, one string per comment, in order. */
export function commentsOf(text) {
  return [...text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:'"\w\\])\/\/[^\n]*/g)].map((m) => m[0]);
}

/** Every path-like name in text, as written (without a trailing dot). */
export function namesIn(text) {
  return [...text.matchAll(PATH)].map((m) => m[1].replace(/\.$/, ''));
}

/**
 * Whether name, written in the file `from` (root-relative), names a file or
 * folder that exists. files is the set of tracked root-relative paths and
 * their folders.
 */
export function resolves(name, from, files) {
  const clean = name.replace(/\/$/, '');
  if (EXTERNAL.has(clean)) return true;
  if (clean.startsWith('.')) return files.has(posix.join(posix.dirname(from), clean));
  for (let dir = posix.dirname(from); ; dir = posix.dirname(dir)) {
    if (files.has(dir === '.' ? clean : `${dir}/${clean}`)) return true;
    if (dir === '.') break;
  }
  return !rooted(clean) && [...files].some((f) => f.endsWith(`/${clean}`));
}

/**
 * The stale names of the texts given as { path, text } (path root-relative),
 * each { path, name }, against the tracked files.
 */
export function staleIn(texts, files) {
  const out = [];
  for (const { path, text } of texts) {
    const code = CODE.test(path);
    const parts = code ? commentsOf(text) : [text];
    for (const part of parts) {
      for (const name of namesIn(part)) {
        if (!rooted(name) && (!code || !OURS.test(name))) continue;
        if (!resolves(name, path, files)) out.push({ path, name });
      }
    }
  }
  return out;
}

/** The tracked files of the repository at root, with every folder above them. */
export function trackedFiles(root) {
  const list = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\n')
    .filter(Boolean);
  const set = new Set();
  for (const f of list) {
    if (!existsSync(join(root, f))) continue; // deleted in the work tree, not yet committed
    set.add(f);
    for (let d = posix.dirname(f); d !== '.'; d = posix.dirname(d)) set.add(d);
  }
  return set;
}

/** The stale references of the repository at root: its own comments and docs. */
export function staleReferences(root) {
  const files = trackedFiles(root);
  const texts = [...files]
    .filter((f) => (CODE.test(f) || f.endsWith('.md')) && !f.startsWith('test/fixtures/') && !PLANTED.includes(f))
    .map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }));
  return staleIn(texts, files);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const stale = staleReferences(resolve(dirname(fileURLToPath(import.meta.url)), '..'));
  for (const s of stale) console.log(`${s.path}: ${s.name}`);
  process.exitCode = stale.length > 0 ? 1 : 0;
}
