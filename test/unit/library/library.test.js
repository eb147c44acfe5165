// The library entry (package.json "exports" → src/index.js): soak() resolves
// the summary, writes no file anywhere without `out` (its logs stay in
// memory), installs no signal handler and leaves V8's flags as they were on
// the host; readRun → analyze → writeReports re-analyse a result folder like
// `wasm-soak report`.
// The checks here run no CLI and no worker; the runs through the CLI are in
// test/e2e/library.test.js.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { FINDING_GATE, FINDING_KINDS } from '../../../src/protocol.js';
import { ROOT } from '../../helpers.js';

test('import("wasm-soak") resolves the library through package.json exports', async () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  assert.ok(existsSync(join(ROOT, pkg.main)), `main ${pkg.main} exists`);
  const lib = await import('wasm-soak');
  for (const name of ['soak', 'readRun', 'analyze', 'writeReports']) assert.equal(typeof lib[name], 'function', name);
  assert.equal(lib.version, pkg.version);
});

test("index.d.ts's finding kinds are C's (WS_FINDING_KINDS): a summary's, the verdicts' and the failures'", () => {
  const types = readFileSync(join(ROOT, 'src', 'index.d.ts'), 'utf8');
  const union = types.match(/export type FindingKind =([^;]*);/)[1];
  const kinds = [...union.matchAll(/'([a-z-]+)'/g)].map((m) => m[1]);
  const failures = Object.keys(FINDING_GATE).filter((k) => FINDING_GATE[k] === 'fails-run');
  assert.deepEqual(kinds, [...FINDING_KINDS, ...failures]);
});

test("docs/library.md's node:test example is test/e2e/library-example.test.js, verbatim", () => {
  const example = readFileSync(join(ROOT, 'test', 'e2e', 'library-example.test.js'), 'utf8');
  assert.ok(readFileSync(join(ROOT, 'docs', 'library.md'), 'utf8').includes(`\`\`\`js\n${example}\`\`\``));
});
