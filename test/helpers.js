// Shared helpers for the node:test suites.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CLI = join(ROOT, 'src', 'cli', 'main.js');
export const fixture = (...parts) => join(ROOT, ...parts);

export function tempDir(prefix = 'wasm-soak-') {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Every wait of a test has a bound: a child still running after this is killed. */
export const CHILD_TIMEOUT_MS = 300_000;

/**
 * Runs the CLI with args; resolves { code, signal, stdout, stderr, timedOut }.
 * onSpawn(child) runs once the child exists; onStderr(text, child) sees
 * progress output as it arrives. A child still running after timeoutMs is
 * killed (SIGKILL) and timedOut is true. input: text on a stdin held open;
 * shell: a sh prefix (e.g. "ulimit -f 64;") run before node. cli: the
 * entry point (default this checkout's). node: the Node binary that runs it
 * (default this one's).
 */
export function runCli(
  args,
  {
    onStderr,
    onSpawn,
    cwd = ROOT,
    env = {},
    timeoutMs = CHILD_TIMEOUT_MS,
    input = null,
    shell = null,
    cli = CLI,
    node = process.execPath,
  } = {},
) {
  return new Promise((resolve) => {
    // shell: a sh command prefix run before exec-ing node (e.g. "ulimit -f 64;").
    const command = shell ? '/bin/sh' : node;
    const argv = shell ? ['-c', `${shell} exec "$0" "$@"`, node, cli, ...args] : [cli, ...args];
    const child = spawn(command, argv, {
      cwd,
      env: { ...process.env, ...env },
      stdio: [input === null ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    // input: written to the child's stdin, which stays open until it exits.
    if (input !== null) {
      child.stdin.on('error', () => {});
      child.stdin.write(input);
    }
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    onSpawn?.(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
      onStderr?.(stderr, child);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
  });
}

/**
 * Resolves with ready()'s value once it returns a non-null value, polling
 * every 20 ms (a throw counts as not yet); rejects with what() after
 * timeoutMs.
 */
function whenReady(ready, what, timeoutMs) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      let value = null;
      try {
        value = ready();
      } catch {
        // not there yet
      }
      if (value !== null) {
        clearInterval(poll);
        resolve(value);
      } else if (Date.now() - started > timeoutMs) {
        clearInterval(poll);
        reject(new Error(`${what()} within ${timeoutMs} ms`));
      }
    }, 20);
  });
}

/**
 * Resolves once the file at path exists and holds at least bytes: evidence
 * that a run is under way (0: that it exists). Rejects after timeoutMs.
 */
export function whenFileReaches(path, bytes, { timeoutMs = CHILD_TIMEOUT_MS } = {}) {
  const size = () => statSync(path).size;
  return whenReady(
    () => (size() >= bytes ? size() : null),
    () => `${path} did not reach ${bytes} bytes`,
    timeoutMs,
  );
}

/** npm args in cwd; its stdout (throws when npm fails). */
export const npm = (args, cwd) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** `npx --offline wasm-soak args` in a project that installed it; { code, stdout, stderr }, killed after timeoutMs. */
export function npxSoak(args, cwd, timeoutMs = CHILD_TIMEOUT_MS) {
  const r = spawnSync('npx', ['--offline', 'wasm-soak', ...args], { cwd, encoding: 'utf8', timeout: timeoutMs });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

export const readSummary = (dir) => JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));

/**
 * Asserts that summary s of a clean run has no finding, and is stable or
 * inconclusive on time alone: the machine drifted with the module
 * (machine-noise), the rise held in one half of the run (unsustained), or its
 * interval spans the threshold. A test whose subject is a clean verdict runs
 * at the default thresholds and asserts this (docs/verdicts.md).
 */
export function assertClean(s) {
  assert.deepEqual(
    s.findings.map((f) => f.sentence),
    [],
  );
  if (s.verdict === 'inconclusive')
    for (const u of s.inconclusive) {
      assert.equal(u.series, 'time', u.sentence);
      assert.ok(['machine-noise', 'spans-threshold', 'unsustained'].includes(u.reason), u.sentence);
    }
  else assert.equal(s.verdict, 'stable');
}

// The memory findings' kinds (time is left out: a loaded CI machine can make any run's timing drift).
const MEMORY_KINDS = ['stack-drift', 'leak', 'unfreed-objects', 'fragmentation', 'growth', 'js-heap-growth'];
export const memoryFindings = (summary) =>
  summary.findings.filter((f) => MEMORY_KINDS.includes(f.kind)).map((f) => f.kind);

/** Runs the CLI with args into a new folder, asserting its exit code; returns { out, summary }. */
export async function runToSummary(args, expectedCode = 0) {
  const out = tempDir();
  const r = await runCli([...args, '-o', out, '-q']);
  assert.equal(r.code, expectedCode, r.stderr);
  return { out, summary: readSummary(out) };
}
