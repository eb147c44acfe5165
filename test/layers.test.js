// The imports of src/ point one way (docs/architecture.md, "Layers"): the
// CLI on top, then the library (src/index.js, src/library/), then the parts
// (run, worker, analysis, report, compare, baseline, init), then the shared
// leaves (errors, options, protocol, the addon's loader), which import only
// each other and Node's own modules. The analysis returns facts and never
// imports the report, which words them (src/report/sentences.js); so does
// compare's (src/report/compare-words.js), and of src/compare/ only its
// runner imports the report. Read from the sources, so a new import that
// points up fails here.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { FORMATS } from '../src/options/formats.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');

/** Every .js file under dir, as paths relative to src/. */
function sources(dir = src) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.js') ? [relative(src, join(dir, e.name))] : [],
  );
}

/** The src/-relative files that file imports (static and dynamic, relative specifiers only). */
function importsOf(file) {
  const text = readFileSync(join(src, file), 'utf8');
  const specs = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm)].map(
    (m) => m[1],
  );
  return specs.map((s) => relative(src, resolve(src, dirname(file), s)));
}

const LEAVES = ['errors.js', 'protocol.js', 'addon.js', 'native.js', 'version.js', 'folder-names.js', 'result-file.js'];
const isLeaf = (f) => LEAVES.includes(f) || f.startsWith('options/');
const isCli = (f) => f.startsWith('cli/');
const isLibrary = (f) => f === 'index.js' || f.startsWith('library/');

// report.js imports each report format's writer by the name in the table of
// formats (src/options/formats.js): those are its imports too.
const writers = FORMATS.filter((f) => f.writer).map((f) => ({ file: 'report/report.js', to: `report/${f.writer}` }));
const edges = [...sources().flatMap((file) => importsOf(file).map((to) => ({ file, to }))), ...writers];
const show = (list) => list.map((e) => `${e.file} -> ${e.to}`).join('\n');

test('the import reader sees the imports it must judge', () => {
  assert.ok(edges.length > 200, `${edges.length} imports`);
  assert.ok(edges.some((e) => e.file === 'cli/main.js' && e.to === 'errors.js'));
  assert.ok(
    edges.some((e) => e.file === 'cli/main.js' && e.to.startsWith('cli/commands/')),
    'dynamic imports too',
  );
});

test('nothing outside src/cli imports src/cli', () => {
  assert.equal(show(edges.filter((e) => !isCli(e.file) && isCli(e.to))), '');
});

test('the shared leaves import only leaves', () => {
  assert.equal(show(edges.filter((e) => isLeaf(e.file) && !isLeaf(e.to))), '');
});

test('the parts below the library never import it', () => {
  assert.equal(show(edges.filter((e) => !isCli(e.file) && !isLibrary(e.file) && isLibrary(e.to))), '');
});

test('the analysis returns facts: it never imports the report, which words them', () => {
  assert.equal(show(edges.filter((e) => e.file.startsWith('analysis/') && e.to.startsWith('report/'))), '');
});

// Of src/compare/, only the runner (run-compare.js: the analysis, then its
// words and pages, as report/result.js's analyzed() for a run) imports the
// report; the comparison's analysis, facts and suite targets word nothing.
const COMPARE_RUNNER = 'compare/run-compare.js';
const compareImportsReport = (e) =>
  e.file.startsWith('compare/') && e.file !== COMPARE_RUNNER && e.to.startsWith('report/');

test("compare's analysis returns facts: of src/compare/ only its runner imports the report, which words them", () => {
  assert.equal(show(edges.filter(compareImportsReport)), '');
  // One way: the report words what it is handed and never imports src/compare/.
  assert.equal(show(edges.filter((e) => e.file.startsWith('report/') && e.to.startsWith('compare/'))), '');
  assert.ok(
    edges.some((e) => e.file === COMPARE_RUNNER && e.to === 'report/compare-words.js'),
    'the runner words the analysis',
  );
  // The rule bites: such an import anywhere else in src/compare/ is one it shows.
  for (const file of ['compare/analyze-compare.js', 'compare/native-arm.js', 'compare/suite-target.js']) {
    assert.ok(compareImportsReport({ file, to: 'report/compare-words.js' }), file);
  }
});

test("every report format's writer exports write(dir, summary, context)", async () => {
  for (const { to } of writers) assert.equal(typeof (await import(join(src, to))).write, 'function', to);
});

test('every import names a file that exists', () => {
  const files = new Set(sources());
  assert.equal(show(edges.filter((e) => !files.has(e.to))), '');
});
