// escapeMarkdown (src/report/escape.js): a number that starts a cell or a
// line is left as written unless it reads as an ordered list's marker.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { escapeMarkdown } from '../../../src/report/escape.js';

test('a decimal at the start of a cell stays as written; a list marker is escaped', () => {
  assert.equal(escapeMarkdown('4.3 s'), '4.3 s');
  assert.equal(escapeMarkdown('12.5 %'), '12.5 %');
  assert.equal(escapeMarkdown('1. first'), '1\\. first');
  assert.equal(escapeMarkdown('2) second'), '2\\) second');
  assert.equal(escapeMarkdown('3.'), '3\\.');
});
