// What leaked blocks hold (--block-contents, docs/report.md): the fixture
// that strdup's a session token every call and forgets it. `run` at its
// defaults shows the tokens in summary.json, report.html and summary.md;
// soak() (the library) does too; `soak` on a suite does not unless asked;
// --no-block-contents leaves them out. The module's bytes are escaped in
// every report. The C mark and pick are tested in test/c/test_blocks.c.
// The runs through the CLI; the checks without a run are in
// test/unit/report/blocks-html.test.js.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fixture, readSummary, runCli, tempDir } from '../helpers.js';

const LIMIT = { timeout: 240000 };
const MODULE = fixture('soak', 'modules', 'leak-strings.wasm');
const TOKEN = /^session-token-\d{6}/;
const dir = tempDir('wasm-soak-blocks-');
after(() => rmSync(dir, { recursive: true, force: true }));

/** The leak finding of summary s (asserted to be there). */
function leakOf(s) {
  const leak = s.findings.find((f) => f.kind === 'leak');
  assert.ok(leak, JSON.stringify(s.findings.map((f) => f.kind)));
  return leak;
}

/** A suite of the fixture alone, written in dir; its path. */
function suite() {
  const path = join(dir, 'suite.json');
  writeFileSync(path, JSON.stringify({ targets: [{ name: 'strings', module: MODULE, call: 'step' }] }));
  return path;
}

test(
  'run at its defaults: the leak finding shows blocks holding the leaked tokens (summary.json, report.html, summary.md, stdout)',
  LIMIT,
  async () => {
    const out = join(dir, 'run');
    const r = await runCli(['run', MODULE, '--call', 'step', '-o', out]);
    assert.equal(r.code, 1, r.stderr);
    const s = readSummary(out);
    assert.equal(s.verdict, 'leak');
    const leak = leakOf(s);
    assert.ok(leak.blocks.length >= 1 && leak.blocks.length <= 4, JSON.stringify(leak.blocks));
    for (const b of leak.blocks) {
      assert.match(b.text, TOKEN);
      assert.ok(b.hex.startsWith(Buffer.from('session-token-').toString('hex')), b.hex);
      assert.equal(b.hex.length, 2 * b.text.length);
      assert.ok(b.text.length <= 64 && b.size >= 21, JSON.stringify(b));
      assert.equal(b.fromBytes, 32); // 21 B strings: chunks of 32 B-64 B with the header
    }
    assert.ok(JSON.stringify(leak.blocks).length < 1024, 'a few hundred bytes per finding');
    assert.ok(s.census.blocks.markedAt >= 5000, 'marked past the auto warm-up cap, a quarter of 20,000 calls');
    assert.equal(s.census.blocks.picked, leak.blocks.length);
    assert.equal(s.outputs.blocks, 'blocks.json');
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    const table = html.match(/<table class="grid blocks">.*?<\/table>/s)?.[0] ?? '';
    assert.match(table, /<td class="bytes">session-token-\d{6}/);
    assert.match(
      readFileSync(join(out, 'summary.md'), 'utf8'),
      /blocks allocated after warm-up hold "session-token-\d{6}"/,
    );
    assert.match(r.stdout, /blocks allocated after warm-up hold "session-token-\d{6}"/);
    // `report` reads blocks.json again.
    const again = await runCli(['report', out, '--format', 'md', '-q']);
    assert.equal(again.code, 1, again.stderr);
    assert.deepEqual(leakOf(readSummary(out)).blocks, leak.blocks);
  },
);

test('run --no-block-contents: no blocks anywhere; both flags at once is a usage error', LIMIT, async () => {
  const out = join(dir, 'off');
  const r = await runCli([
    'run',
    MODULE,
    '--call',
    'step',
    '-n',
    '4000',
    '--no-block-contents',
    '--fail-on',
    'none',
    '-o',
    out,
    '--format',
    'html',
    '-q',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const s = readSummary(out);
  assert.ok(s.findings.every((f) => !f.blocks));
  assert.equal(s.census.blocks, null);
  assert.equal(existsSync(join(out, 'blocks.json')), false);
  assert.doesNotMatch(readFileSync(join(out, 'report.html'), 'utf8'), /session-token/);
  const both = await runCli(['run', MODULE, '--call', 'step', '--block-contents', '--no-block-contents']);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /contradict/);
});

test('soak: a suite shows no block contents unless --block-contents is given', LIMIT, async () => {
  const path = suite();
  const quiet = join(dir, 'suite-off');
  const off = await runCli(['soak', path, '-o', quiet, '-q']);
  assert.equal(off.code, 1, off.stderr);
  const s = readSummary(join(quiet, 'strings'));
  assert.equal(s.verdict, 'leak');
  assert.equal(leakOf(s).blocks, undefined);
  assert.equal(existsSync(join(quiet, 'strings', 'blocks.json')), false);
  assert.doesNotMatch(readFileSync(join(quiet, 'strings', 'report.html'), 'utf8'), /session-token/);
  const shown = join(dir, 'suite-on');
  const on = await runCli(['soak', path, '--block-contents', '-o', shown, '-q']);
  assert.equal(on.code, 1, on.stderr);
  for (const b of leakOf(readSummary(join(shown, 'strings'))).blocks) assert.match(b.text, TOKEN);
});

test(
  'soak() (the library, in memory): block contents on by default, off with blockContents: false',
  LIMIT,
  async () => {
    const { soak } = await import('wasm-soak');
    const on = await soak({ module: MODULE, call: 'step' });
    for (const b of leakOf(on).blocks) assert.match(b.text, TOKEN);
    const off = await soak({ module: MODULE, call: 'step', iterations: 4000, blockContents: false });
    assert.ok(off.findings.every((f) => !f.blocks));
    assert.equal(off.census.blocks, null);
  },
);
