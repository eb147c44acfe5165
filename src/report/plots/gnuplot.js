// Running gnuplot: one script per figure and format, bounded in time and
// stoppable, a few at a time.
import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { num } from './data.js';

// The gnuplot scripts, plots/ at the package's root.
export const PLOTS = fileURLToPath(new URL('../../../plots', import.meta.url));

function assignments(vars) {
  return Object.entries(vars)
    .map(([k, v]) => {
      if (typeof v === 'number') return `${k}=${Number.isFinite(v) ? num(v) : 0}`;
      return `${k}='${String(v)
        .replace(/[\r\n]+/g, ' ')
        .replace(/'/g, "''")}'`;
    })
    .join('; ');
}

// Runs one gnuplot script; resolves { ok, reason, stderr } and never rejects.
// gnuplot runs in its own process group, so that a timeout (timeoutMs, 0:
// none) or an aborted signal ends it and anything it started; the promise
// then resolves at once, without waiting for pipes a child may hold open.
export function runGnuplot(bin, script, vars, { timeoutMs, signal }) {
  return new Promise((resolve) => {
    let stderr = '',
      settled = false,
      timer = null;
    let child;
    const kill = () => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const done = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve({ stderr, ...result });
    };
    const onAbort = () => {
      kill();
      done({ ok: false, interrupted: true, reason: 'skipped: interrupted' });
    };
    if (signal?.aborted) return done({ ok: false, interrupted: true, reason: 'skipped: interrupted' });
    // From plots/, where every script loads common.gp.
    child = spawn(bin, ['-e', assignments(vars), script], {
      cwd: PLOTS,
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    if (timeoutMs > 0)
      timer = setTimeout(() => {
        kill();
        child.stderr.destroy();
        done({
          ok: false,
          timedOut: true,
          reason: `${bin} did not finish within ${Number((timeoutMs / 1000).toPrecision(3))} s (--plot-timeout)`,
        });
      }, timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', (err) => {
      done({ ok: false, missing: err.code === 'ENOENT', reason: `cannot run ${bin}: ${err.message}` });
    });
    child.on('close', (code, sig) => {
      done(
        code === 0
          ? { ok: true }
          : {
              ok: false,
              reason: `${bin} exited with ${sig ?? `status ${code}`}: ${stderr.trim().split('\n').at(-1) ?? ''}`,
            },
      );
    });
  });
}

export async function pool(jobs, limit, fn) {
  const results = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await fn(jobs[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  return results;
}

export async function nonEmpty(path) {
  try {
    return (await stat(path)).size > 0;
  } catch {
    return false;
  }
}
