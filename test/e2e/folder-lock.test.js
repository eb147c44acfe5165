// A result folder is one run's: run, soak, compare, report and merge lock it
// before they move or write anything (src/run/folder-lock.js). A second one
// on a locked folder exits 2 naming the first (its pid and command) and
// writes nothing; a lock left by a killed run is taken over with a note; the
// lock goes when its command ends, however it ends. The run that holds a
// folder here is stuck in a call that never returns (--call-timeout 0), so
// it holds it for as long as the test needs, and is stopped by two signals.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { LOCK_FILE } from '../../src/run/folder-lock.js';
import { fixture, readSummary, runCli, tempDir, whenFileReaches } from '../helpers.js';

const mod = (name) => fixture('soak', 'modules', `${name}.wasm`);
const SHORT = ['-n', '300', '--fail-on', 'none', '--format', 'md', '-q'];

/**
 * Starts a run of the spin-hangs scenario into out that sticks in its call
 * at iteration 2000 (no --call-timeout). Resolves { child, done } once it is
 * inside that call (its lock taken, its log written); done resolves runCli's
 * result. stop(child) ends it: a SIGINT, then another once it says the call
 * is still running (the second exits at once).
 */
async function startHolder(out) {
  const entered = join(tempDir(), 'entered');
  let child;
  let first = false;
  let second = false;
  const done = runCli(
    ['run', fixture('test', 'scenarios', 'spin-hangs.mjs'), '-n', '100000', '--call-timeout', '0', '-o', out],
    {
      env: { WASM_SOAK_TEST_ENTERED: entered },
      onSpawn(c) {
        child = c;
      },
      onStderr(text, c) {
        if (first && !second && /has been running for .*press Ctrl-C again/.test(text)) {
          second = true;
          c.kill('SIGINT');
        }
      },
      timeoutMs: 120_000,
    },
  );
  await Promise.race([whenFileReaches(entered, 0, { timeoutMs: 120_000 }), done]);
  const stop = () => {
    first = true;
    child.kill('SIGINT');
    return done;
  };
  return { pid: child.pid, stop, done };
}

/** Asserts that r was refused because pid holds the folder, in words that name it. */
function assertRefused(r, pid, what) {
  assert.equal(r.code, 2, `${what}: ${r.stderr}`);
  assert.match(r.stderr, /is in use by another wasm-soak run \(pid \d+ on /, what);
  assert.ok(r.stderr.includes(`(pid ${pid} on `), `${what}: ${r.stderr}`);
  assert.match(r.stderr, /spin-hangs\.mjs -n 100000 --call-timeout 0 -o /, `${what}: the holder's command`);
  assert.match(r.stderr, /nothing was written/, what);
}

test('a folder a live run writes: a second run, soak, compare, report and merge exit 2 naming it and write nothing', async () => {
  const dir = tempDir();
  const root = join(dir, 'D');
  const out = join(root, 'a');
  // A suite result for merge, made before the holder starts.
  const suite = join(dir, 'suite.json');
  writeFileSync(suite, JSON.stringify({ targets: [{ name: 'a', module: mod('clean'), call: 'step' }] }));
  assert.equal((await runCli(['soak', suite, '-o', join(dir, 'S'), ...SHORT])).code, 0);

  const holder = await startHolder(out);
  try {
    const before = readdirSync(out).sort();
    assert.ok(before.includes(LOCK_FILE) && before.includes('samples.wslog'), before.join(' '));
    const attempts = {
      'a second run': ['run', mod('clean'), '--call', 'step', ...SHORT, '-o', out],
      'the same run with --force': ['run', mod('clean'), '--call', 'step', ...SHORT, '-o', out, '--force'],
      report: ['report', out, '--format', 'md'],
      compare: [
        'compare',
        mod('work'),
        mod('work'),
        '--call',
        'step',
        '--blocks',
        '4',
        '--block-calls',
        '500',
        '-q',
        '-o',
        out,
      ],
      'soak into the parent (it would move the folder aside)': ['soak', suite, ...SHORT, '-o', root],
      'soak --force into the parent (it would write the target there)': [
        'soak',
        suite,
        ...SHORT,
        '-o',
        root,
        '--force',
      ],
      'merge into it': ['merge', join(dir, 'S'), '-o', out],
      'merge from it': ['merge', out, '-o', join(dir, 'M')],
    };
    for (const [what, argv] of Object.entries(attempts)) {
      assertRefused(await runCli(argv), holder.pid, what);
      assert.deepEqual(readdirSync(root), ['a'], `${what}: nothing beside the folder`);
      assert.deepEqual(readdirSync(out).sort(), before, `${what}: nothing in the folder`);
    }
    assert.deepEqual(readdirSync(dir).sort(), ['D', 'S', 'suite.json']);
  } finally {
    const r = await holder.stop();
    assert.equal(r.code, 130, r.stderr);
  }
  // The holder's result is its own, whole; its lock went with it (it exited at once, on the second signal).
  assert.equal(readSummary(out).status, 'interrupted');
  assert.ok(!existsSync(join(out, LOCK_FILE)), 'the lock is released on exit');
});

test('a lock left by a killed run is taken over with a note; the killed run’s samples are kept aside', async () => {
  const out = join(tempDir(), 'a');
  const holder = await startHolder(out);
  // Its samples on disk first (the main thread writes the log beside the call that spins).
  await whenFileReaches(join(out, 'samples.wslog'), 1, { timeoutMs: 120_000 });
  process.kill(holder.pid, 'SIGKILL');
  assert.equal((await holder.done).signal, 'SIGKILL');
  assert.ok(existsSync(join(out, LOCK_FILE)), 'a killed run leaves its lock');
  const r = await runCli(['run', mod('clean'), '--call', 'step', ...SHORT, '-o', out]);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(
    r.stderr.includes(`${out} was locked by a run that is gone (pid ${holder.pid} on `),
    `the note names the gone run: ${r.stderr}`,
  );
  assert.match(r.stderr, /taking it over/);
  assert.ok(r.stderr.includes(`it is kept as ${out}.1`), r.stderr);
  assert.ok(existsSync(join(`${out}.1`, 'samples.wslog')), "the killed run's samples, aside");
  assert.ok(!existsSync(join(`${out}.1`, LOCK_FILE)), 'its lock is not moved aside with them');
  assert.equal(readSummary(out).iterations.completed, 300);
  assert.ok(!existsSync(join(out, LOCK_FILE)));
});

test('a lock whose pid now belongs to another process (a pid reused) is taken over; one whose process is the writer holds', {
  skip: !existsSync('/proc/self/stat') && 'no /proc: the start time of a process is not known here',
}, async () => {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  const lock = (fields) =>
    `${JSON.stringify({ hostname: hostname(), command: 'node old-run', startedAt: new Date().toISOString(), ...fields })}\n`;
  for (const [what, text] of [
    // pid 1 is alive, but started long after 2020: not the writer.
    ['pid 1, written in 2020', lock({ pid: 1, startedAt: '2020-01-01T00:00:00.000Z' })],
    // This test's own pid, alive, with another start time than this process's.
    ['a live pid with another start time', lock({ pid: process.pid, startTicks: ticks + 1 })],
  ]) {
    const out = tempDir();
    writeFileSync(join(out, LOCK_FILE), text);
    const r = await runCli(['run', mod('clean'), '--call', 'step', ...SHORT, '-o', out]);
    assert.equal(r.code, 0, `${what}: ${r.stderr}`);
    assert.match(r.stderr, /was locked by a run that is gone .*taking it over/, what);
    assert.ok(!existsSync(join(out, LOCK_FILE)), what);
  }
  const out = tempDir();
  writeFileSync(join(out, LOCK_FILE), lock({ pid: process.pid, startTicks: ticks }));
  const r = await runCli(['run', mod('clean'), '--call', 'step', ...SHORT, '-o', out]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /is in use by another wasm-soak run/);
});

test('the lock is released however the command ends: completed, failed, usage error, report', async () => {
  const out = join(tempDir(), 'r');
  const ends = [
    ['completed', 0, ['run', mod('clean'), '--call', 'step', ...SHORT, '-o', out]],
    ['failed (a trap at iteration 500)', 3, ['run', mod('trap'), '--call', 'step', '-n', '2000', '-q', '-o', out]],
    ['a usage error', 2, ['run', mod('clean'), '--call', 'nope', '-n', '10', '-o', out]],
    ['report', 3, ['report', out, '--format', 'md']],
  ];
  for (const [what, code, argv] of ends) {
    const r = await runCli(argv);
    assert.equal(r.code, code, `${what}: ${r.stderr}`);
    assert.ok(!existsSync(join(out, LOCK_FILE)), `${what}: no lock left`);
  }
});
