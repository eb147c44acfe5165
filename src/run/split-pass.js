// The time-split pass of a run (--time-split; docs/allocator.md, "Where a
// call's time goes"): the timed pass's calls again, in a fresh worker
// whose module has its allocator, memory.grow and exports stamped
// (src/worker/alloc-timing.js). Its log stays in memory: what the analysis
// takes is each call's time and op from it, beside the worker's stamps.
import { decodeLog } from '../analysis/log-reader.js';
import { runPass } from './pass.js';

/**
 * Runs the pass after the completed timed pass (runPass's timed, run its
 * outcome) over the same calls. Returns { calls, op, stamps, status }
 * (per-call ns, the log's elapsed, and op; stamps: the worker's
 * alloc-timing result), or null when the timed pass did not complete, a
 * signal came, or the pass wrote no log; a signal during it marks run
 * interrupted.
 */
export async function splitPass({ target, cfg, argv, timed, run, outputs, interrupt, bytes }) {
  if (run.status !== 'completed' || interrupt.interrupted) return null;
  const calls = timed.outcome.completed - (timed.outcome.firstIteration ?? 0);
  const pass = await runPass({
    target,
    cfg: { ...cfg, iterations: calls, durationMs: null, blockContents: false },
    argv,
    logPath: null,
    outputs,
    pass: 'split',
    interrupt,
    bytes,
  });
  if (pass.outcome.status === 'interrupted') run.status = 'interrupted';
  if (!pass.wroteLog || !pass.outcome.timeSplit) return null;
  const log = decodeLog(pass.memoryLog);
  return {
    status: pass.outcome.status,
    calls: Array.from(log.elapsed),
    op: Array.from(log.op),
    stamps: pass.outcome.timeSplit,
  };
}
