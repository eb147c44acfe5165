// The time-split pass of a run (--time-split; docs/allocator.md, "Where a
// call's time goes"): the timed pass's calls again, in a fresh worker
// whose module has its allocator, memory.grow and exports stamped
// (src/worker/alloc-timing.js); then, when it found an allocator, the same
// calls again with the allocator swapped for a bump allocator
// (src/worker/alloc-swap.js). Their logs stay in memory: what the analysis
// takes is each call's time and op from them, beside the workers' results.
import { decodeLog } from '../analysis/log-reader.js';
import { runPass } from './pass.js';

// The bump allocator's region: twice the most a call of the time-split pass
// asked for (each block rounded up to 16 bytes with a 16-byte header), at
// least 1 MiB and at most 256 MiB.
const REGION_MIN = 1 << 20;
const REGION_MAX = 256 << 20;
const BLOCK_EXTRA = 32;

/** The region for the swap pass from the time-split pass's per-call counts (stamps.calls). */
export function regionBytes(calls) {
  let most = 0;
  for (let i = 0; i < calls.allocBytes.length; i++)
    most = Math.max(most, calls.allocBytes[i] + BLOCK_EXTRA * calls.allocations[i]);
  return Math.min(REGION_MAX, Math.max(REGION_MIN, 2 ** Math.ceil(Math.log2(2 * most + 1))));
}

/** One pass of the run's calls (pass: 'split' or 'swap'; extra: its configuration's additions). */
function again({ target, cfg, argv, timed, outputs, interrupt, bytes }, pass, extra = {}) {
  const calls = timed.outcome.completed - (timed.outcome.firstIteration ?? 0);
  return runPass({
    target,
    cfg: { ...cfg, iterations: calls, durationMs: null, blockContents: false, ...extra },
    argv,
    logPath: null,
    outputs,
    pass,
    interrupt,
    bytes,
  });
}

/**
 * Runs the passes after the completed timed pass (runPass's timed, run its
 * outcome) over the same calls. Returns { calls, op, stamps, status, swap }
 * (per-call ns, the log's elapsed, and op; stamps: the worker's
 * alloc-timing result; swap: the swap pass's { calls, op, result }, or null
 * when no allocator was stamped or the pass did not complete), or null when
 * the timed pass did not complete, a signal came, or the pass wrote no log;
 * a signal during them marks run interrupted.
 */
export async function splitPass(args) {
  const { run, interrupt } = args;
  if (run.status !== 'completed' || interrupt.interrupted) return null;
  const pass = await again(args, 'split');
  if (pass.outcome.status === 'interrupted') run.status = 'interrupted';
  if (!pass.wroteLog || !pass.outcome.timeSplit) return null;
  const log = decodeLog(pass.memoryLog);
  const stamps = pass.outcome.timeSplit;
  return {
    status: pass.outcome.status,
    calls: Array.from(log.elapsed),
    op: Array.from(log.op),
    stamps,
    swap: await swapPass(args, stamps),
  };
}

/** The swap pass after the time-split pass (stamps: its worker's result), or null. */
async function swapPass(args, stamps) {
  const { run, interrupt } = args;
  if (run.status !== 'completed' || interrupt.interrupted) return null;
  if (!stamps.stamped.some((m) => m.entryPoints.length > 0)) return null;
  const pass = await again(args, 'swap', { swapRegionBytes: regionBytes(stamps.calls) });
  if (pass.outcome.status === 'interrupted') run.status = 'interrupted';
  if (pass.outcome.status !== 'completed' || !pass.wroteLog || !pass.outcome.swap) return null;
  const log = decodeLog(pass.memoryLog);
  return { calls: Array.from(log.elapsed), op: Array.from(log.op), result: pass.outcome.swap };
}
