// Terminal manners of the progress display: the bar fits the terminal's
// width (fields dropped, never wrapped), is redrawn at most 10 times a
// second, is plain lines under TERM=dumb or CI, and what the target prints
// goes above it, never into it; colour only on a terminal without NO_COLOR.
// On a fake stream and clock here.
// The checks here run no CLI and no worker; the runs through the CLI are in
// test/e2e/progress.test.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { colourOn, paint } from '../../../src/report/colour.js';
import { createProgress, createTerminal, fitLine, progressMode, REDRAW_MS } from '../../../src/run/progress.js';

const CLEAR = '\r\x1b[K';

function fakeStream({ columns = 80, isTTY = true } = {}) {
  const stream = { columns, isTTY, text: '', write: (s) => (stream.text += s) };
  return stream;
}

const FIELDS = [
  { text: 'a-rather-long-target-name', keep: 9 },
  { text: '[##########----------]', keep: 6 },
  { text: '12,345/20,000', keep: 8 },
  { text: '1.2M it/s', keep: 3 },
  { text: 'ETA 0:05', keep: 7 },
  { text: 'mem 128.0 KiB', keep: 2 },
  { text: 'median 481 ns', keep: 1 },
  { text: '· memory +0 B since warm-up · preliminary verdict: stable (so far)', keep: 5 },
];

test('fitLine drops the least kept fields until the line fits, and never breaks it', () => {
  const whole = FIELDS.map((f) => f.text).join(' ');
  assert.equal(fitLine(FIELDS, 400), whole);
  for (const width of [200, 120, 80, 60, 40, 20, 5, 1]) {
    const line = fitLine(FIELDS, width);
    assert.ok(line.length <= Math.max(1, width - 1), `${width}: ${line.length} columns: ${line}`);
    assert.doesNotMatch(line, /[\r\n]/);
  }
  assert.equal(fitLine(FIELDS, 80), 'a-rather-long-target-name [##########----------] 12,345/20,000 ETA 0:05');
  // A field that went comes back when it fits in the room left.
  assert.equal(fitLine(FIELDS, 60), 'a-rather-long-target-name 12,345/20,000 1.2M it/s ETA 0:05');
});

test('at 100 columns the bar keeps memory and the preliminary verdict before the rate', () => {
  const stream = fakeStream({ columns: 100 });
  const terminal = createTerminal({ mode: 'tty', stream });
  // The live analysis's facts for 'memory +0 B since warm-up · preliminary verdict: stable (so far)'.
  const facts = { tested: true, verdict: 'stable', countingFollows: false, memoryChange: 0, sinceWarmup: true };
  const trend = { preliminary: () => facts, close() {} };
  let clock = 0;
  const progress = createProgress({
    name: 'lz4-wasm-nodejs',
    total: 20000,
    mode: 'tty',
    terminal,
    trend,
    now: () => clock,
  });
  clock = 1000;
  progress.tick();
  const line = stream.text.split(CLEAR).at(-1);
  assert.ok(line.length <= 99, `${line.length} columns: ${line}`);
  assert.match(line, /mem /, line);
  assert.match(line, /preliminary verdict: stable \(so far\)/, line);
  // The last line fits too: it is never wrapped.
  progress.finish();
  for (const l of stream.text.split(CLEAR).at(-1).split('\n')) assert.ok(l.length <= 99, `${l.length}: ${l}`);
});

test('the bar is redrawn at most 10 times a second, however often it is ticked', () => {
  const stream = fakeStream();
  let clock = 0;
  const terminal = createTerminal({ mode: 'tty', stream });
  const progress = createProgress({ name: 't', total: 100, mode: 'tty', terminal, now: () => clock });
  for (let i = 0; i < 100; i++) {
    progress.tick();
    clock += 10; // a tick every 10 ms for 1 s
  }
  const draws = stream.text.split(CLEAR).length - 1;
  assert.ok(draws >= 9 && draws <= 1000 / REDRAW_MS, `${draws} redraws in 1 s`);
  assert.ok(!stream.text.includes('\n'), 'the bar is redrawn in place');
});

test('plain lines when stderr is no terminal, TERM is dumb or CI is set; nothing with --quiet', () => {
  const tty = { isTTY: true };
  assert.equal(progressMode({ stream: tty, env: { TERM: 'xterm' } }), 'tty');
  assert.equal(progressMode({ stream: tty, env: { TERM: 'dumb' } }), 'lines');
  assert.equal(progressMode({ stream: tty, env: { TERM: 'xterm', CI: 'true' } }), 'lines');
  assert.equal(progressMode({ stream: tty, env: { TERM: 'xterm', CI: '1' } }), 'lines');
  assert.equal(progressMode({ stream: tty, env: { TERM: 'xterm', CI: 'false' } }), 'tty');
  assert.equal(progressMode({ stream: { isTTY: false }, env: {} }), 'lines');
  assert.equal(progressMode({ quiet: true, stream: tty, env: {} }), 'none');
});

test('what the target prints goes above the bar, whole lines only', () => {
  const stream = fakeStream();
  const dest = fakeStream();
  const terminal = createTerminal({ mode: 'tty', stream });
  terminal.draw(FIELDS);
  terminal.above('first line\nsecond ', dest);
  assert.equal(dest.text, 'first line\n', 'the partial line waits for its end');
  assert.ok(stream.text.endsWith(CLEAR), 'the bar was cleared before the text');
  terminal.draw(FIELDS);
  terminal.above('half\n', dest);
  assert.equal(dest.text, 'first line\nsecond half\n');
  terminal.above('out: partial ', dest, 'stdout');
  terminal.above('err: whole\n', dest, 'stderr');
  assert.equal(dest.text, 'first line\nsecond half\nerr: whole\n', 'sources sharing a dest keep their lines apart');
  terminal.close(FIELDS);
  terminal.above('after the bar\nno end', dest, 'stderr');
  terminal.end('stderr');
  terminal.end('stdout');
  assert.equal(
    dest.text,
    'first line\nsecond half\nerr: whole\nafter the bar\nno end\nout: partial \n',
    'a source that ended flushes its partial line',
  );
});

// ---- on a pseudo-terminal ----

test('colour only on a terminal, never with NO_COLOR or TERM=dumb', () => {
  const tty = { isTTY: true };
  assert.equal(colourOn(tty, { TERM: 'xterm' }), true);
  assert.equal(colourOn(tty, { TERM: 'xterm', NO_COLOR: '1' }), false);
  assert.equal(colourOn(tty, { TERM: 'dumb' }), false);
  assert.equal(colourOn({ isTTY: false }, { TERM: 'xterm' }), false);
  assert.equal(paint('Leak', 'bad', true), '\x1b[1;31mLeak\x1b[0m');
  assert.equal(paint('Leak', 'bad', false), 'Leak');
});
