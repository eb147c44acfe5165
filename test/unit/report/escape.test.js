// The escapers (src/report/escape.js) of text a module or a scenario
// controls (issue 31, items 4 and 5): controls shown visibly, Markdown made
// inert, code that no backtick closes. Every output of a module named with
// markup and terminal escapes: test/e2e/hostile-text.test.js.
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
