// src/index.d.ts's ReportFormat, FindingKind and soak()'s options are
// generated from their tables (scripts/index-types.js): this fails when the
// committed file is stale, so a new format, finding kind or option cannot
// reach the library without its type, doc and default.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { TYPES, withTables } from '../../../scripts/index-types.js';
import { RUN_OPTIONS } from '../../../src/library/soak.js';
import { FINDING_GATE } from '../../../src/protocol.js';

const types = readFileSync(TYPES, 'utf8');

test('src/index.d.ts holds the types as their tables make them (node scripts/cli-doc.js rewrites them)', () => {
  assert.equal(withTables(types), types, 'src/index.d.ts is stale: run node scripts/cli-doc.js');
});

test('a format, a finding kind or an option changed by hand is put back', () => {
  for (const [from, to] of [
    [/export type ReportFormat = [^;]*;/, "export type ReportFormat = 'png';"],
    ["  | 'hung-call';", "  | 'hung-call'\n  | 'regression';"],
    ['  seed?: number;', '  seed?: string;'],
    ['@default 60s', '@default 30s'],
  ]) {
    const stale = types.replace(from, to);
    assert.notEqual(stale, types, String(from));
    assert.equal(withTables(stale), types, String(from));
  }
});

test("every option soak() takes is typed with its doc, and every kind a summary's findings carry", () => {
  const flat = types.replace(/\n +\* (?!@)/g, ' ');
  for (const [key, o] of RUN_OPTIONS) {
    assert.match(flat, new RegExp(`\\(as \`--${o.name}[ \`][\\s\\S]*?\\n  ${key}\\?: `), key);
  }
  assert.match(types, /@default 2G\n[\s\S]*?maxLogBytes\?: number \| string;/);
  const kinds = types.match(/export type FindingKind =([^;]*);/)[1];
  for (const [kind, gate] of Object.entries(FINDING_GATE)) {
    assert.equal(kinds.includes(`'${kind}'`), gate !== 'against', kind);
  }
});
