// Text a module or a scenario controls is escaped for every format it
// reaches (issue 31, items 4 and 5): export names, name-section function
// names, the producers section and error messages never become markup in
// summary.md, compare.md, report.html, compare.html or junit.xml, and their
// control characters (ESC, BEL, NUL) are printed visibly, never sent to the
// terminal. test/fixtures/hostile-names.wat names its exports
// `<script>alert(1)</script>`, ESC ] 0 ; x BEL (a terminal retitle), and
// traps in a function whose name-section name is markup.
// The runs through the CLI; the checks without a run are in
// test/unit/report/escape.test.js.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fixture, runCli, tempDir } from '../helpers.js';

const HOSTILE = fixture('test', 'fixtures', 'hostile-names.wasm');
const SCRIPT = '<script>alert(1)</script>';
const RETITLE = '\u001b]0;x\u0007';
const TRAP = 'trap`*_[x](y)|\u001b[2J';
const QUICK = ['-n', '300', '--fail-on', 'none'];

// Control characters but the line breaks and tabs a text file or a terminal writes itself.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters that must not be there.
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;
// Markup the module wrote: it must be text wherever it shows.
const MARKUP = /<script\b|<img\b|<svg\/onload|<b>/i;

/**
 * A Markdown file's text outside its code (fenced blocks and code spans,
 * where markup is shown as it is), and with its backslash escapes gone.
 */
function outsideCode(md) {
  return md
    .replace(/^ *(`{3,})[^\n]*\n[\s\S]*?^ *\1 *$/gm, '')
    .replace(/\\[\\`*_[\]~|#]/g, '')
    .replace(/(`+)[\s\S]*?\1/g, '');
}

/** Asserts that text carries no raw control character (and, for markup formats, no markup the module wrote). */
function assertInert(text, what, { markup = true } = {}) {
  const control = RAW_CONTROL.exec(text);
  assert.ok(!control, `${what}: a raw control character U+${control?.[0].charCodeAt(0).toString(16)}`);
  if (markup) assert.doesNotMatch(text, MARKUP, `${what}: markup from the module`);
}

/** Asserts assertInert of every text file in dir (recursively); JSON, CSV and logs are data, not markup. */
function assertFolderInert(dir, what) {
  for (const name of readdirSync(dir, { recursive: true })) {
    if (!/\.(md|html|xml|svg|txt|json)$/.test(name)) continue;
    const text = readFileSync(join(dir, name), 'utf8');
    assertInert(text, `${what}: ${name}`, { markup: false });
    if (/\.(html|xml|svg)$/.test(name)) assertInert(text, `${what}: ${name}`);
    if (name.endsWith('.md')) assertInert(outsideCode(text), `${what}: ${name} (outside its code)`);
  }
}

test('a module named with markup and terminal escapes: every output shows its names as text', async () => {
  const dir = tempDir();
  // No --call: the export list on stderr, controls shown.
  const list = await runCli(['run', HOSTILE, '-n', '10', '-o', join(dir, 'none')]);
  assert.equal(list.code, 2, list.stderr);
  assertInert(list.stderr, 'the export list', { markup: false });
  assert.ok(list.stderr.includes('\\x1b]0;x\\x07()'), list.stderr);
  assert.ok(list.stderr.includes('nul\\x00bell\\x07()'), list.stderr);

  // An op named as a script, one named as a terminal retitle: terminal, summary.md, report.html, junit.xml.
  for (const [what, call] of [
    ['script', SCRIPT],
    ['retitle', RETITLE],
  ]) {
    const out = join(dir, what);
    const r = await runCli(['run', HOSTILE, '--call', call, ...QUICK, '-o', out]);
    assert.equal(r.code, 0, r.stderr);
    assertInert(r.stdout, `${what}: stdout`, { markup: false });
    assertInert(r.stderr, `${what}: stderr`, { markup: false });
    assertFolderInert(out, what);
    const md = readFileSync(join(out, 'summary.md'), 'utf8');
    if (what === 'script') assert.ok(md.includes('| &#60;script&#62;alert(1)&#60;/script&#62; |'), md);
    else assert.ok(md.includes('| \\\\x1b\\]0;x\\\\x07 |'), md);
    const exported = await runCli(['export', out, '--csv']);
    assert.equal(exported.code, 0, exported.stderr);
  }

  // A trap in a function whose name-section name is markup: the frames in every output.
  const trapped = join(dir, 'trap');
  const r = await runCli(['run', HOSTILE, '--call', TRAP, ...QUICK, '-o', trapped]);
  assert.equal(r.code, 3, r.stderr);
  assertInert(r.stdout, 'trap: stdout', { markup: false });
  assert.ok(r.stdout.includes('trap|<img/src=x/onerror=alert`2`>|**bold**'), 'the terminal shows the name');
  assertFolderInert(trapped, 'trap');
  const md = readFileSync(join(trapped, 'summary.md'), 'utf8');
  assert.ok(md.includes('(op trap\\`\\*\\_\\[x\\](y)\\|\\\\x1b\\[2J)'), md);
  assert.ok(md.includes("--call $'trap`*_[x](y)|\\x1b[2J'"), 'the reproduce command quotes the ESC for the shell');

  // A suite of it: the suite's summary.md, index.html and junit.xml.
  const suite = join(dir, 'suite.json');
  writeFileSync(
    suite,
    JSON.stringify({
      targets: [
        { name: 'script', module: HOSTILE, call: SCRIPT },
        { name: 'trap', module: HOSTILE, call: TRAP },
      ],
    }),
  );
  const soak = await runCli(['soak', suite, ...QUICK, '--format', 'md,junit', '-o', join(dir, 'suite')]);
  assert.equal(soak.code, 3, soak.stderr);
  assertInert(soak.stdout, 'soak: stdout', { markup: false });
  assertInert(soak.stderr, 'soak: stderr', { markup: false });
  assertFolderInert(join(dir, 'suite'), 'soak');
});

/** The bytes of a custom section name holding payload (both Buffers). */
function customSection(name, payload) {
  const uleb = (n) => {
    const out = [];
    do {
      let b = n & 0x7f;
      n >>>= 7;
      if (n) b |= 0x80;
      out.push(b);
    } while (n);
    return Buffer.from(out);
  };
  const body = Buffer.concat([uleb(name.length), Buffer.from(name), payload]);
  return Buffer.concat([Buffer.from([0]), uleb(body.length), body]);
}

test('compare of modules whose producers section is markup and escapes: its terminal lines, compare.md and compare.html', async () => {
  const dir = tempDir();
  // producers: one field, processed-by, one tool named with a retitle and markup, its version markup.
  const str = (s) => Buffer.concat([Buffer.from([Buffer.byteLength(s)]), Buffer.from(s)]);
  const producers = Buffer.concat([
    Buffer.from([1]),
    str('processed-by'),
    Buffer.from([1]),
    str(`${RETITLE}<img src=x onerror=alert(3)>`),
    str('<b>1.0</b>'),
  ]);
  const arm = join(dir, 'arm.wasm');
  writeFileSync(arm, Buffer.concat([readFileSync(HOSTILE), customSection('producers', producers)]));
  const out = join(dir, 'cmp');
  // Escaping is the subject, not a verdict: no timing gate (two arms of the
  // same module once read as slower under CI's own load).
  const r = await runCli([
    'compare',
    arm,
    arm,
    '--call',
    SCRIPT,
    '--blocks',
    '4',
    '--block-calls',
    '300',
    '--fail-if-slower',
    'none',
    '-o',
    out,
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(`${r.stdout}${r.stderr}`.includes('\\x1b]0;x\\x07'), 'the producers line shows the escape');
  assertInert(r.stdout, 'compare: stdout', { markup: false });
  assertInert(r.stderr, 'compare: stderr', { markup: false });
  assertFolderInert(out, 'compare');
  assert.ok(readFileSync(join(out, 'compare.md'), 'utf8').includes('&#60;b&#62;1.0&#60;/b&#62;'));
});
