// No file is written through a link (issue 31, item 1): src/result-file.js,
// the one writer, refuses a link and leaves its target, and never leaves a
// half-written file; no other file of src/ writes with node:fs. Links planted
// at every output name of each command: test/e2e/result-files.test.js.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openResultFile, writeResultFile } from '../../src/result-file.js';
import { ROOT, tempDir } from '../helpers.js';
import { assertUntouched, plant } from '../links.js';

test('writeResultFile refuses a link and leaves its target; it never leaves a half-written file', () => {
  const dir = tempDir();
  const outside = join(dir, 'outside');
  const held = plant(dir, ['a.md', 'b.md'], outside);
  for (const name of ['a.md', 'b.md']) {
    assert.throws(() => writeResultFile(join(dir, name), 'x'), { code: 'WS_ELINK', exitCode: 2 });
    assert.throws(() => openResultFile(join(dir, name)), { code: 'WS_ELINK' });
  }
  assertUntouched(outside, held, 'writeResultFile');
  writeResultFile(join(dir, 'c.md'), 'first');
  writeResultFile(join(dir, 'c.md'), 'second');
  assert.equal(readFileSync(join(dir, 'c.md'), 'utf8'), 'second');
  // Only the links, the victims' folder and c.md: no temporary file is left.
  assert.deepEqual(readdirSync(dir).sort(), ['a.md', 'b.md', 'c.md', 'outside']);
});

test('no file of src/ writes with node:fs but src/result-file.js (and init, and temporary folders of its own)', () => {
  const out = spawnSync(
    'grep',
    ['-rnE', "writeFileSync|writeFile\\(|createWriteStream|appendFile|openSync\\([^)]*'[wa]", 'src'],
    { cwd: ROOT, encoding: 'utf8' },
  ).stdout;
  const allowed = [
    /^src\/result-file\.js:/, // the one writer
    /^src\/run\/folder-lock\.js:.*openSync\(path, 'wx'\)/, // the lock: created exclusively, which follows no link
    /^src\/init\//, // init writes a scenario file beside the user's module, not a result folder
    /^src\/report\/plots\.js:.*join\(tmp, file\)/, // gnuplot's data, in its own mkdtemp folder
    /^src\/report\/plots\/svg-label\.js:/, // a figure in that folder, before it is written into the result
    /^src\/worker\/worker\.js:.*openSync\(outputs\.std(out|err), 'a'\)/, // made by runPass (ensureResultFile) first
  ];
  const stray = out
    .split('\n')
    .filter(Boolean)
    .filter((line) => !/^\S+:\d+:\s*(\/\/|\*)/.test(line) && !/^\S+:\d+:import /.test(line))
    .filter((line) => !allowed.some((re) => re.test(line)));
  assert.deepEqual(stray, []);
});
