// Text a module or a scenario controls is escaped for every format it
// reaches (issue 31, items 4 and 5): export names, name-section function
// names, the producers section and error messages never become markup in
// summary.md, compare.md, report.html, compare.html or junit.xml, and their
// control characters (ESC, BEL, NUL) are printed visibly, never sent to the
// terminal. test/fixtures/hostile-names.wat names its exports
// `<script>alert(1)</script>`, ESC ] 0 ; x BEL (a terminal retitle), and
// traps in a function whose name-section name is markup.
// The checks here run no CLI and no worker; the runs through the CLI are in
// test/e2e/hostile-text.test.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { escapeMarkdown, markdownBlock, markdownCode, terminalText, visible } from '../../../src/report/escape.js';

const SCRIPT = '<script>alert(1)</script>';
const RETITLE = '\u001b]0;x\u0007';
test('the escapers: visible controls, inert Markdown, code that no backtick closes', () => {
  assert.equal(visible(RETITLE), '\\x1b]0;x\\x07');
  assert.equal(visible('a\u0000b\nc\u202ed'), 'a\\x00b\\nc\\u202ed');
  assert.equal(terminalText(`line ${RETITLE}\nnext`), 'line \\x1b]0;x\\x07\nnext');
  assert.equal(escapeMarkdown(SCRIPT), '&#60;script&#62;alert(1)&#60;/script&#62;');
  assert.equal(escapeMarkdown('a|b *c* _d_ [e](f) `g`\nh'), 'a\\|b \\*c\\* \\_d\\_ \\[e\\](f) \\`g\\` h');
  assert.equal(escapeMarkdown('# title'), '\\# title');
  assert.equal(escapeMarkdown('1. item'), '1\\. item');
  assert.equal(markdownCode('a ``b`` c'), '```a ``b`` c```');
  assert.deepEqual(markdownBlock(['```', RETITLE], 'sh'), ['````sh', '```', '\\x1b]0;x\\x07', '````']);
});
