// Busy-loop processes that load the machine during a benchmark run
// (bench/accuracy-real.js). Each loop is a `sh` that spins on shell
// arithmetic and checks every few thousand turns that the benchmark is still
// alive, so a loop outlives it by a few milliseconds at most even when the
// benchmark is killed with SIGKILL; each also has a hard time limit, and
// every loop still running is killed when the benchmark exits, whatever
// ends it.
import { spawn, spawnSync } from 'node:child_process';

/** Spins until its parent (the benchmark: `taskset` execs the shell) is gone. */
const BUSY = 'while kill -0 $PPID 2>/dev/null; do i=0; while [ $i -lt 5000 ]; do i=$((i+1)); done; done';

const live = new Set();

/** Kills every loop still running (SIGKILL); safe to call at any time, any number of times. */
export function killAllLoads() {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
}

process.on('exit', killAllLoads);

/** True when `taskset` (util-linux) can pin a process here. */
export function hasTaskset() {
  const r = spawnSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' });
  return r.status === 0;
}

/**
 * Starts `count` busy loops, pinned to CPU `cpu` when it is a number (with
 * taskset), else free to run anywhere. Each is killed after limitMs in any
 * case. Returns stop(), which kills them (idempotent).
 */
export function startLoad({ count, cpu = null, limitMs }) {
  const children = [];
  for (let k = 0; k < count; k++) {
    const [command, args] = cpu === null ? ['sh', ['-c', BUSY]] : ['taskset', ['-c', String(cpu), 'sh', '-c', BUSY]];
    const child = spawn(command, args, { stdio: 'ignore', timeout: limitMs, killSignal: 'SIGKILL' });
    child.on('error', () => {});
    child.on('exit', () => live.delete(child));
    live.add(child);
    children.push(child);
  }
  return () => {
    for (const child of children) {
      if (live.delete(child)) child.kill('SIGKILL');
    }
  };
}
