// Starts the run's worker with the host's node options that a Worker takes.
// A worker inherits the host's execArgv, but refuses (ERR_WORKER_INVALID_EXEC_ARGV,
// thrown by the constructor) the V8 and per-process flags, e.g. --expose-gc,
// --max-old-space-size, --stack-size, --title: those apply to the whole
// process already, so the worker runs without them and loses nothing.
import { Worker } from 'node:worker_threads';

/**
 * The host's node options for a worker: its own (a worker inherits them),
 * less --input-type, which only the host's --eval input takes (a worker
 * refuses to start with it: `node --input-type=module -e` hosting soak()).
 */
export function workerExecArgv(execArgv = process.execArgv) {
  const out = [];
  for (let i = 0; i < execArgv.length; i++) {
    if (execArgv[i] === '--input-type') i++;
    else if (!execArgv[i].startsWith('--input-type=')) out.push(execArgv[i]);
  }
  return out;
}

/**
 * execArgv without the flags that refused (the ones Node's
 * ERR_WORKER_INVALID_EXEC_ARGV message lists, "…flags: --a, --b=1"), each
 * with the value that follows it as its own word; null when the message
 * lists none of execArgv's words.
 */
export function withoutRefused(execArgv, message) {
  const listed = new Set(
    String(message)
      .replace(/^[^:]*:\s*/, '')
      .split(/,\s*/),
  );
  const out = [];
  let dropped = 0;
  for (let i = 0; i < execArgv.length; i++) {
    if (!listed.has(execArgv[i])) {
      out.push(execArgv[i]);
      continue;
    }
    dropped++;
    if (i + 1 < execArgv.length && !execArgv[i + 1].startsWith('-')) i++;
  }
  return dropped > 0 ? out : null;
}

/** new Worker(url, options) with workerExecArgv(), less the flags a Worker refuses. */
export function startWorker(url, options) {
  const execArgv = workerExecArgv();
  try {
    return new Worker(url, { ...options, execArgv });
  } catch (err) {
    const kept = err?.code === 'ERR_WORKER_INVALID_EXEC_ARGV' ? withoutRefused(execArgv, err.message) : null;
    if (kept === null) throw err;
    return new Worker(url, { ...options, execArgv: kept });
  }
}
