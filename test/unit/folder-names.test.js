// Names that become folder names (suite targets, compare arms, baselines)
// are one plain path segment and differ within a suite or a comparison:
// anything else is refused before any run (exit 2, the name and the fix),
// and nothing is written, least of all outside the folder the user chose.
// The checks here run no CLI and no worker; the runs through the CLI are in
// test/e2e/folder-names.test.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { folderNameProblem, repeatedNames } from '../../src/folder-names.js';

test('folderNameProblem: one plain path segment, not . or ..', () => {
  for (const good of ['parser', 'a.b', 'x-1_y', '.hidden', '..x']) assert.equal(folderNameProblem(good), null, good);
  for (const [bad, why] of [
    ['', /empty/],
    ['.', /the folder itself/],
    ['..', /the parent folder/],
    ['../../x', /path separator/],
    ['x/y', /path separator/],
    ['/abs', /path separator/],
    ['a\\b', /path separator/],
    ['a\0b', /NUL/],
    ['a b', /characters other than/],
    [7, /not text/],
  ])
    assert.match(folderNameProblem(bad), why, JSON.stringify(bad));
  assert.deepEqual(repeatedNames(['a', 'b', 'a', 'c', 'b', 'a']), [
    { name: 'a', at: [1, 3, 6] },
    { name: 'b', at: [2, 5] },
  ]);
});
