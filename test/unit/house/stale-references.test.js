// No comment or doc names a file of the repository that does not exist
// (scripts/stale-references.js); a planted stale name is found.
import assert from 'node:assert/strict';
import { dirname, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { commentsOf, staleIn, staleReferences, trackedFiles } from '../../../scripts/stale-references.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const files = trackedFiles(root);
const names = (texts) => staleIn(texts, files).map((s) => `${s.path}: ${s.name}`);

test('no comment or doc names a file that does not exist', () => {
  assert.deepEqual(
    staleReferences(root).map((s) => `${s.path}: ${s.name}`),
    [],
  );
});

test('a planted stale name is found, in a comment or a doc', () => {
  const planted = [
    { path: 'src/cli/main.js', text: "// resolves the arguments (options.js)\nconst a = 'src/gone.js';\n" },
    { path: 'src/report/report.js', text: '/* from the decoded run (src/log.js) */' },
    { path: 'test/c/test_decimate.c', text: '/* Tests for addon/ws_decimate.c: envelopes */' },
    { path: 'docs/verdicts.md', text: 'Its words are in `src/report/words-of-kinds.js`; see [x](docs/nowhere.md).' },
  ];
  assert.deepEqual(names(planted), [
    'src/cli/main.js: options.js',
    'src/report/report.js: src/log.js',
    'test/c/test_decimate.c: addon/ws_decimate.c',
    'docs/verdicts.md: src/report/words-of-kinds.js',
    'docs/verdicts.md: docs/nowhere.md',
  ]);
});

test('names that exist pass: rooted, beside the file, above it, and folders', () => {
  const fine = [
    { path: 'src/report/plots.js', text: '// plots/axes.js, addon/core/plot/ws_decimate.c, src/worker/' },
    { path: 'src/worker/objects.js', text: '// allocator/sites.js and quiet-wasi.js; ws_thin.c' },
    { path: 'docs/cli.md', text: 'writes summary.json (docs/summary.md), https://x.org/src/gone.js' },
  ];
  assert.deepEqual(names(fine), []);
});

test('only comments of code are read, not its strings', () => {
  assert.deepEqual(commentsOf("const u = 'https://a/b'; // one\n/* two */ x('//not');"), ['// one', '/* two */']);
});
