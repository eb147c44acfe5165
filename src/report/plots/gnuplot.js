// Running gnuplot: one process per figure, which draws it in each format
// asked for (its scripts fed on stdin, one after the other, each from a
// fresh session), bounded in time and stoppable.
import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { num } from './data.js';

// The gnuplot scripts, plots/ at the package's root.
export const PLOTS = fileURLToPath(new URL('../../../plots', import.meta.url));

// What gnuplot prints on stderr after each drawing, at the start of a line:
// this, then its error number (0: drawn) and its error's message. No script
// prints it.
const MARK = 'wasm-soak drawn: ';

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

/**
 * The commands gnuplot reads on stdin to draw each of drawings ({ script,
 * vars }) in a fresh session (`reset session`: what a new process would
 * start from), the output closed after each, and after each a MARK line on
 * stderr with its error number and message; a drawing that fails (an error
 * in its script) does not stop the next.
 */
function commands(drawings) {
  return drawings
    .map(
      ({ script, vars }) =>
        `reset session\n${assignments(vars)}\nload '${script.replace(/'/g, "''")}'\nunset output\n` +
        `print sprintf("\\n${MARK}%d %s", GPVAL_ERRNO, GPVAL_ERRMSG)\nreset errors\n`,
    )
    .join('');
}

/**
 * Draws drawings ([{ script, vars }], the figure in each of its formats) in
 * one gnuplot process (bin), from plots/. Resolves one { ok, reason, stderr }
 * per drawing (with timedOut, interrupted or missing when so) and never
 * rejects. timeoutMs (0: none) bounds each drawing: the process is ended when
 * one has not finished that long after the one before it did (or after the
 * start); an aborted signal ends it at once. The drawings not finished then
 * are skipped. gnuplot runs in its own process group, so that ending it ends
 * anything it started; the promise then resolves at once, without waiting for
 * pipes a child may hold open.
 */
export function runGnuplot(bin, drawings, { timeoutMs, signal }) {
  return new Promise((resolve) => {
    const results = [];
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
    // Every drawing without a result gets rest; the first of them the stderr not yet claimed.
    const done = (rest) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      while (results.length < drawings.length) {
        results.push({ stderr, ...rest });
        stderr = '';
      }
      resolve(results);
    };
    const arm = () => {
      clearTimeout(timer);
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
    };
    const onAbort = () => {
      kill();
      done({ ok: false, interrupted: true, reason: 'skipped: interrupted' });
    };
    if (signal?.aborted) return done({ ok: false, interrupted: true, reason: 'skipped: interrupted' });
    child = spawn(bin, [], { cwd: PLOTS, stdio: ['pipe', 'ignore', 'pipe'], detached: true });
    arm();
    signal?.addEventListener('abort', onAbort, { once: true });
    // A gnuplot that ends before reading every command (one that fails at once) closes the pipe: its exit says why.
    child.stdin.on('error', () => {});
    child.stdin.end(commands(drawings));
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
      let at = stderr.indexOf(`\n${MARK}`);
      while (!settled && at >= 0 && stderr.indexOf('\n', at + 1) >= 0 && results.length < drawings.length) {
        const end = stderr.indexOf('\n', at + 1);
        const [errno, ...message] = stderr.slice(at + 1 + MARK.length, end).split(' ');
        const own = stderr.slice(0, at);
        results.push(
          errno === '0'
            ? { ok: true, stderr: own }
            : {
                ok: false,
                stderr: own,
                reason: `${bin} failed: ${message.join(' ') || own.trim().split('\n').at(-1)}`,
              },
        );
        stderr = stderr.slice(end + 1);
        at = stderr.indexOf(`\n${MARK}`);
        arm();
      }
    });
    child.on('error', (err) => {
      done({ ok: false, missing: err.code === 'ENOENT', reason: `cannot run ${bin}: ${err.message}` });
    });
    child.on('close', (code, sig) => {
      done(
        code === 0
          ? { ok: false, reason: `${bin} ended before drawing it` }
          : {
              ok: false,
              reason: `${bin} exited with ${sig ?? `status ${code}`}: ${stderr.trim().split('\n').at(-1) ?? ''}`,
            },
      );
    });
  });
}

export async function nonEmpty(path) {
  try {
    return (await stat(path)).size > 0;
  } catch {
    return false;
  }
}
