// Every input problem gets one clear paragraph and exit 2; failures during
// the run exit 3 and keep every sample measured before them.

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { decodeLog } from '../../src/analysis/log-reader.js';
import { fixture, readSummary, runCli, tempDir } from '../helpers.js';

const mod = (name) => fixture('soak', 'modules', `${name}.wasm`);
const scenario = (name) => fixture('test', 'scenarios', `${name}.mjs`);

const usageCases = [
  ['a missing file', ['run', '/nonexistent/thing.wasm', '--call', 'step'], /Cannot find the target/],
  ['an invalid module', ['run', fixture('test', 'fixtures', 'not-wasm.wasm'), '--call', 'step'], /not a valid module/],
  [
    'a missing export',
    ['run', mod('clean'), '--call', 'nope'],
    /no exported function "nope"[\s\S]*Function exports: .*step/,
  ],
  ['an ambiguous export', ['run', mod('parse')], /ambiguous[\s\S]*--call/],
  [
    'an unresolved import',
    ['run', fixture('test', 'fixtures', 'needs-import.wasm'), '--call', 'step'],
    /env\.host_log \(function\)[\s\S]*scenario/,
  ],
  ['a scenario without setup', ['run', scenario('no-setup')], /no setup\(ctx\) function/],
  ['a scenario without iteration or ops', ['run', scenario('no-iteration')], /neither an iteration/],
  ['a bad option', ['run', mod('clean'), '--frobnicate'], /Unknown option '--frobnicate'/],
  ['a bad iteration count', ['run', mod('clean'), '--call', 'step', '-n', 'lots'], /--iterations must be an integer/],
  ['a bad duration', ['run', mod('clean'), '--call', 'step', '--duration', 'soon'], /--duration must look like/],
  [
    'args that do not fit the signature',
    ['run', mod('clean'), '--call', 'step', '--args', 'buf:1..8'],
    /needs two i32 parameters/,
  ],
  ['an unknown command', ['frobnicate'], /Unknown command/],
  ['export of a folder without a log', ['export', '/tmp', '--csv'], /cannot be read|not a wasm-soak sample log/],
];

for (const [what, args, message] of usageCases) {
  test(`exit 2 for ${what}`, async () => {
    // -q keeps runs quiet; export has no progress to silence and refuses it.
    const r = await runCli(args[0] === 'export' ? args : [...args, '-q']);
    assert.equal(r.code, 2, `stderr: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.doesNotMatch(r.stderr, /internal error| {4}at /, 'a paragraph, not a stack trace');
  });
}

test('a trap stops the run with exit 3, the iteration and op named, samples kept', async () => {
  const out = tempDir();
  const r = await runCli(['run', mod('trap'), '--call', 'step', '-n', '2000', '-o', out, '-q']);
  assert.equal(r.code, 3, r.stderr);
  const s = readSummary(out);
  assert.equal(s.status, 'failed');
  assert.equal(s.error.iteration, 500);
  assert.equal(s.error.op, 'step');
  assert.match(s.error.message, /unreachable/);
  const data = decodeLog(join(out, 'samples.wslog'));
  assert.equal(data.calls, 501, 'iterations 0..499 and the failing one are in the log');
  assert.equal(data.flags[500] & 2, 2, 'the failing call carries the threw flag');
});

test('a scenario that throws in an iteration exits 3 with its message', async () => {
  const out = tempDir();
  const r = await runCli(['run', scenario('throws'), '-n', '1000', '-o', out, '-q']);
  assert.equal(r.code, 3, r.stderr);
  const s = readSummary(out);
  assert.equal(s.error.iteration, 300);
  assert.equal(s.error.op, 'iteration');
  assert.equal(s.error.message, 'planted failure at 300');
  assert.equal(decodeLog(join(out, 'samples.wslog')).calls, 301);
});

test('a scenario whose setup throws exits 3 and says so', async () => {
  const out = tempDir();
  const r = await runCli(['run', scenario('setup-throws'), '-o', out, '-q']);
  assert.equal(r.code, 3, r.stderr);
  assert.match(r.stderr, /setup failed: cannot open the database/);
  assert.equal(readSummary(out).status, 'failed');
});

test('a command module is refused with the reactor fix', async () => {
  const dir = tempDir();
  // A minimal module exporting _start: (module (func (export "_start")))
  const bytes = Uint8Array.from([
    0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 7, 10, 1, 6, 95, 115, 116, 97, 114, 116, 0, 0, 10, 4, 1,
    2, 0, 11,
  ]);
  writeFileSync(join(dir, 'cmd.wasm'), bytes);
  const r = await runCli(['run', join(dir, 'cmd.wasm'), '--call', '_start', '-q']);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /command module[\s\S]*reactor/);
});
