// A failed write to stdout or stderr (src/cli/std-streams.js): the run goes
// on, ends with exit 3 (never 1, the code of a finding) and its summary.json
// says which stream failed and why.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { CHILD_TIMEOUT_MS, CLI, fixture, readSummary, runCli, tempDir } from '../helpers.js';

const clean = fixture('soak', 'modules', 'clean.wasm');
const RUN = ['--call', 'step', '-n', '2000', '--fail-on', 'none', '--format', 'md'];

for (const [what, redirect] of [
  ['stderr', 'exec 2>/dev/full;'],
  ['stdout', 'exec >/dev/full;'],
]) {
  test(`${what} on a full disk (/dev/full, ENOSPC): exit 3, no crash, summary.json names the failed write`, {
    skip: !existsSync('/dev/full') && 'no /dev/full',
  }, async () => {
    const out = tempDir();
    const r = await runCli(['run', clean, '-o', out, ...RUN], { shell: redirect });
    assert.equal(r.code, 3, r.stderr);
    assert.doesNotMatch(r.stderr, /Unhandled 'error' event|internal error/);
    const s = readSummary(out);
    assert.equal(s.status, 'completed');
    assert.equal(s.exitCode, 3);
    assert.deepEqual(
      s.outputErrors.map((e) => [e.stream, e.code]),
      [[what, 'ENOSPC']],
    );
    if (what === 'stdout') assert.match(r.stderr, /cannot write stdout: ENOSPC/);
  });
}

test('stdout a pipe whose reader closed (EPIPE): exit 3, the run completes, summary.json names it', async () => {
  const out = tempDir();
  const child = spawn(process.execPath, [CLI, 'run', clean, '-o', out, ...RUN], { stdio: ['ignore', 'pipe', 'pipe'] });
  // The reader goes before the child writes a byte: its first write meets EPIPE.
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
  const code = await new Promise((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  assert.equal(code, 3, stderr);
  assert.match(stderr, /wasm-soak: cannot write stdout: (write )?EPIPE/);
  const s = readSummary(out);
  assert.equal(s.status, 'completed');
  assert.deepEqual(
    s.outputErrors.map((e) => [e.stream, e.code]),
    [['stdout', 'EPIPE']],
  );
});
