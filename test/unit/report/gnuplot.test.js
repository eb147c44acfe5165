// One gnuplot draws a figure in each of its formats (src/report/plots/gnuplot.js):
// a drawing that fails leaves the next one drawn, each drawing gets its own
// stderr and result, and --plot-timeout bounds each drawing, not the process.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { runGnuplot } from '../../../src/report/plots/gnuplot.js';
import { tempDir } from '../../helpers.js';

// A script that draws y = x into out, printing note first; with fail, an
// unknown variable stops it before it draws.
async function script(dir, name, { fail = false, hang = false } = {}) {
  const path = join(dir, `${name}.gp`);
  await writeFile(
    path,
    [
      'set terminal svg size 200,100',
      'set output out',
      'print note',
      fail ? 'plot no_such_variable' : '',
      hang ? 'pause 600' : '',
      'plot x',
    ].join('\n'),
  );
  return path;
}

test('one gnuplot draws several: a drawing that fails leaves the next one drawn, each with its stderr', async () => {
  const dir = tempDir();
  const bad = await script(dir, 'bad', { fail: true });
  const good = await script(dir, 'good');
  const out = (k) => join(dir, `out-${k}.svg`);
  const r = await runGnuplot(
    'gnuplot',
    [
      { script: bad, vars: { out: out(0), note: 'first' } },
      { script: good, vars: { out: out(1), note: 'second' } },
    ],
    { timeoutMs: 0 },
  );
  assert.equal(r.length, 2);
  assert.equal(r[0].ok, false);
  assert.match(r[0].reason, /gnuplot failed: undefined variable: no_such_variable/);
  assert.match(r[0].stderr, /first/);
  assert.doesNotMatch(r[0].stderr, /second/);
  assert.equal(r[1].ok, true, r[1].reason);
  assert.match(r[1].stderr, /second/);
  assert.doesNotMatch(r[1].stderr, /first|no_such_variable/, 'a fresh session: nothing of the first drawing');
  assert.ok(existsSync(out(1)));
});

test('the time bound is per drawing: the one drawn before a hung one is kept, the rest skipped', async () => {
  const dir = tempDir();
  const good = await script(dir, 'good');
  const hung = await script(dir, 'hung', { hang: true });
  const drawing = (path, k) => ({ script: path, vars: { out: join(dir, `out-${k}.svg`), note: `drawing ${k}` } });
  const r = await runGnuplot('gnuplot', [drawing(good, 0), drawing(hung, 1), drawing(good, 2)], { timeoutMs: 1000 });
  assert.deepEqual(
    r.map((x) => [x.ok, Boolean(x.timedOut)]),
    [
      [true, false],
      [false, true],
      [false, true],
    ],
  );
  assert.match(r[1].reason, /did not finish within 1 s \(--plot-timeout\)/);
});
