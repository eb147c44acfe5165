// docs/cli.md's option tables are generated from the option schema
// (scripts/cli-doc.js): this fails when they are stale, so an option cannot
// be added, renamed or re-defaulted without its documentation following.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CLI_DOC, renderOptions, withOptions } from '../../../scripts/cli-doc.js';
import { OPTIONS } from '../../../src/options/schema.js';

test('docs/cli.md holds the options as the schema renders them (node scripts/cli-doc.js rewrites them)', () => {
  const text = readFileSync(CLI_DOC, 'utf8');
  assert.equal(withOptions(text, renderOptions()), text, 'docs/cli.md is stale: run node scripts/cli-doc.js');
});

test('every option of every command has a row or a mention, with its default', () => {
  const rendered = renderOptions();
  for (const o of OPTIONS) assert.ok(rendered.includes(`--${o.name}`), `--${o.name} is documented`);
  assert.match(rendered, /\| `--call-timeout T` \| `60s` \|/);
  assert.match(rendered, /\| `--force` \| off \|/);
});

test('a changed default or meaning makes the check fail', () => {
  const text = readFileSync(CLI_DOC, 'utf8');
  const stale = text.replace('| `--call-timeout T` | `60s` |', '| `--call-timeout T` | `30s` |');
  assert.notEqual(stale, text);
  assert.notEqual(withOptions(stale, renderOptions()), stale);
});
