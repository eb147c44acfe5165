// Shared helpers for the node:test suites.
import { spawn } from 'node:child_process';
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
 * killed (SIGKILL) and timedOut is true.
 */
export function runCli(args, { onStderr, onSpawn, cwd = ROOT, env = {}, timeoutMs = CHILD_TIMEOUT_MS } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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
 * Resolves once the file at path is larger than bytes beyond the size it
 * first had when seen (0 before it exists): evidence that a run is under
 * way. Polls every 20 ms; rejects after timeoutMs.
 */
export function whenFileGrows(path, bytes, { timeoutMs = CHILD_TIMEOUT_MS } = {}) {
  const size = () => {
    try {
      return statSync(path).size;
    } catch {
      return -1;
    }
  };
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let base = null;
    const poll = setInterval(() => {
      const now = size();
      if (now >= 0 && base === null) base = now;
      if (base !== null && now - base >= bytes) {
        clearInterval(poll);
        resolve(now);
      } else if (Date.now() - started > timeoutMs) {
        clearInterval(poll);
        reject(new Error(`${path} did not grow by ${bytes} bytes within ${timeoutMs} ms`));
      }
    }, 20);
  });
}

export const readSummary = (dir) => JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
