// The imports of src/ point one way (docs/architecture.md, "Layers"): the
// CLI on top, then the library (src/index.js, src/library/), then the parts
// in one order (ORDER below: each imports only the parts after it), then the
// shared leaves (errors, options, protocol, the addon's loader), which
// import only each other and Node's own modules. The analysis returns facts and never
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

/** Every .js and .cjs file under dir, as paths relative to src/. */
function sources(dir = src) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.c?js$/.test(e.name) ? [relative(src, join(dir, e.name))] : [],
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

const LEAVES = [
  'errors.js',
  'protocol.js',
  'addon.js',
  'native.js',
  'version.js',
  'folder-names.js',
  'result-file.js',
  'harness-names.js',
  'binaryen.js',
  'module-kind.js',
];
const isLeaf = (f) => LEAVES.includes(f) || f.startsWith('options/');
const isCli = (f) => f.startsWith('cli/');
const isLibrary = (f) => f === 'index.js' || f.startsWith('library/');

// report.js imports each report format's writer by the name in the table of
// formats (src/options/formats.js): those are its imports too.
const writers = FORMATS.filter((f) => f.writer).map((f) => ({ file: 'report/report.js', to: `report/${f.writer}` }));
const edges = [...sources().flatMap((file) => importsOf(file).map((to) => ({ file, to }))), ...writers];
const show = (list) => list.map((e) => `${e.file} -> ${e.to}`).join('\n');

// The parts of src/, top to bottom: a file imports its own part, the parts
// below its own, and the leaves; never a part above. compare runs targets
// (run) and words its comparison (report); run drives the worker and writes
// the reports; baseline stores what the analysis computed against a
// baseline; the report words the analysis's facts; the analysis reads logs
// and the protocol. An order has no cycle between parts.
const ORDER = ['cli', 'library', 'compare', 'run', 'init', 'baseline', 'worker', 'report', 'analysis', 'leaves'];
const partOf = (f) => (isLeaf(f) ? 'leaves' : isLibrary(f) ? 'library' : f.split('/')[0]);
const upward = (e) => ORDER.indexOf(partOf(e.to)) < ORDER.indexOf(partOf(e.file));

test('the import reader sees the imports it must judge', () => {
  assert.ok(edges.length > 200, `${edges.length} imports`);
  assert.ok(edges.some((e) => e.file === 'cli/main.js' && e.to === 'errors.js'));
  assert.ok(
    edges.some((e) => e.file === 'cli/main.js' && e.to.startsWith('cli/commands/')),
    'dynamic imports too',
  );
});

test('every file of src/ is in a part of the order', () => {
  assert.equal(
    sources()
      .filter((f) => !ORDER.includes(partOf(f)))
      .join('\n'),
    '',
  );
});

test('the parts import one way: each only the parts below it in the order', () => {
  assert.equal(show(edges.filter(upward)), '');
});

test('the order catches the edges that once pointed up', () => {
  // Each of these was in src/ once (issue 33): a cycle between the analysis
  // and the baseline, the report reaching into the worker, the baseline into
  // compare and run. Each is a failure of the test above, were it back.
  for (const e of [
    { file: 'analysis/analyze.js', to: 'baseline/use.js' },
    { file: 'baseline/use.js', to: 'analysis/log-reader.js', up: false },
    { file: 'report/stack.js', to: 'worker/targets/trampoline.js' },
    { file: 'baseline/use.js', to: 'compare/module-facts.js' },
    { file: 'baseline/use.js', to: 'run/target.js' },
    { file: 'analysis/verdict.js', to: 'report/sentences.js' },
    { file: 'run/run.js', to: 'library/soak.js' },
    { file: 'library/soak.js', to: 'cli/main.js' },
  ])
    assert.equal(upward(e), e.up ?? true, `${e.file} -> ${e.to}`);
});

// The CLI is a thin client of the library: it parses arguments, calls the
// library (src/index.js, src/library/) and writes what it is handed; it
// reaches the report, the run and the analysis only through the library.
// Of the parts it imports only init, the scaffolding its own `init` command
// writes with, which no run uses.
const cliReachesPast = (e) =>
  isCli(e.file) && !isCli(e.to) && !isLibrary(e.to) && !isLeaf(e.to) && partOf(e.to) !== 'init';

test('the CLI is a client of the library: it imports no part below it but init', () => {
  assert.equal(show(edges.filter(cliReachesPast)), '');
  // The rule bites: the imports the CLI once had of the parts are each one it shows.
  for (const to of ['report/words.js', 'run/run.js', 'analysis/judge.js', 'baseline/use.js', 'compare/run-compare.js'])
    assert.ok(cliReachesPast({ file: 'cli/commands/run.js', to }), to);
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
