// Shared helpers for the node:test suites.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CLI = join(ROOT, 'src', 'cli', 'main.js');
export const fixture = (...parts) => join(ROOT, ...parts);

export function tempDir(prefix = 'wasm-soak-') {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * Runs the CLI with args; resolves { code, signal, stdout, stderr }.
 * onStderr(text, child) sees progress output as it arrives.
 */
export function runCli(args, { onStderr, cwd = ROOT, env = {} } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
      onStderr?.(stderr, child);
    });
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

export const readSummary = (dir) => JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
