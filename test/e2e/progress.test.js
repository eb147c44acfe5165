// Terminal manners of the progress display: the bar fits the terminal's
// width (fields dropped, never wrapped), is redrawn at most 10 times a
// second, is plain lines under TERM=dumb or CI, and what the target prints
// goes above it, never into it; colour only on a terminal without NO_COLOR.
// The CLI on a pseudo-terminal (util-linux `script`) here.
// The runs through the CLI; the checks without a run are in
// test/unit/run/progress.test.js.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { shellLine } from '../../src/options/argv.js';
import { CHILD_TIMEOUT_MS, CLI, fixture, runCli, tempDir } from '../helpers.js';

const CLEAR = '\r\x1b[K';

const hasScript = spawnSync('script', ['--version']).status === 0;

/** Runs the CLI with args on a pty of cols columns; resolves { code, text } (the terminal's bytes). */
function onPty(args, { cols = 80, env = {} } = {}) {
  const command = `stty cols ${cols} rows 24; exec ${shellLine([process.execPath, CLI, ...args])}`;
  return new Promise((resolve) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: { ...process.env, TERM: 'xterm', CI: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
    let text = '';
    child.stdout.on('data', (d) => {
      text += d;
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, text });
    });
  });
}

/** The bars drawn in place: the text between two clears of the line. */
const redrawn = (text) =>
  text
    .split(CLEAR)
    .slice(1, -1)
    .filter((piece) => !/[\r\n]/.test(piece));
/** What the terminal's lines show: each line's text after its last carriage return. */
const shownLines = (text) =>
  text
    .split('\n')
    .map((l) => l.replace(/\r$/, ''))
    .map((l) => l.slice(l.lastIndexOf('\r') + 1).replaceAll(CLEAR.slice(1), ''));

const clean = (out) => [fixture('soak', 'modules', 'clean.wasm'), '--call', 'step', '-o', out, '--format', 'md'];

test('on a 60-column terminal every redrawn bar fits in 59 columns', {
  skip: !hasScript && 'no script(1)',
}, async () => {
  const r = await onPty(['run', ...clean(tempDir()), '-n', '1000000', '--fail-on', 'none'], { cols: 60 });
  assert.equal(r.code, 0, r.text);
  const bars = redrawn(r.text);
  assert.ok(bars.length >= 1, `the bar was redrawn: ${JSON.stringify(r.text.slice(0, 400))}`);
  for (const bar of bars) assert.ok(bar.length <= 59, `${bar.length} columns: ${bar}`);
});

for (const [what, env] of [
  ['TERM=dumb', { TERM: 'dumb' }],
  ['CI set', { CI: 'true' }],
]) {
  test(`${what}: plain progress lines on a terminal`, { skip: !hasScript && 'no script(1)' }, async () => {
    const r = await onPty(['run', ...clean(tempDir()), '-n', '3000', '--fail-on', 'none'], { env });
    assert.equal(r.code, 0, r.text);
    assert.ok(!r.text.includes('\x1b[K'), 'no bar redrawn in place');
    assert.match(r.text, /^clean \[#+-*\] 3,000\/3,000 /m, 'the last progress line, plain');
  });
}

test('what a scenario prints goes above the bar, never into it', { skip: !hasScript && 'no script(1)' }, async () => {
  const scenario = fixture('test', 'scenarios', 'prints.mjs');
  const r = await onPty(['run', scenario, '-n', '6000', '-o', tempDir(), '--format', 'md', '--fail-on', 'none'], {
    cols: 200,
  });
  assert.equal(r.code, 0, r.text);
  const lines = shownLines(r.text);
  const said = lines.filter((l) => l.includes('says'));
  assert.equal(said.length, 13, said.join('\n'));
  for (const l of said) assert.match(l, /^(setup says hello|scenario says \d+)$/);
  const out = lines.filter((l) => l.includes('begins'));
  assert.equal(out.length, 9, out.join('\n'));
  for (const l of out) assert.match(l, /^out \d+ begins; and ends$/);
});

test('with --json, stdout holds only the summary: what the scenario prints goes to stderr', async () => {
  const scenario = fixture('test', 'scenarios', 'prints.mjs');
  const r = await runCli([
    'run',
    scenario,
    '-n',
    '2000',
    '-o',
    join(tempDir(), 'r'),
    '--json',
    '--format',
    'md',
    '--fail-on',
    'none',
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).name, 'prints');
  for (const i of [0, 700, 1400]) assert.match(r.stderr, new RegExp(`^out ${i} begins; and ends$`, 'm'));
  assert.match(r.stderr, /^scenario says 1000$/m);
});
