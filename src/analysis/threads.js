// The worker threads a scenario's target started (the worker's count,
// src/worker/threads.js), as the summary keeps them: a source
// (summary.sources.threads) and the notes they call for (summary.notes): a
// thread that exited with an error, and a pool still growing after
// warm-up. Codes and numbers; src/report/sentences.js words them.

/**
 * The threads' count before the call at iteration `at`, from the
 * timeline's [iteration, started, exited] entries: { started, exited }.
 */
function countsBefore(timeline, at) {
  let counts = { started: 0, exited: 0 };
  for (const [iteration, started, exited] of timeline) {
    if (iteration >= at) break;
    counts = { started, exited };
  }
  return counts;
}

/**
 * The threads of run.threads (the worker's count, or the summary's source
 * when a result is re-reported; or null) as the summary keeps them, warm-up
 * ending at call `warmup`: { source, notes }. source: { threads: { started,
 * exited, maxAlive, failed, firstFailure, cpuMs, wasiThreads, afterWarmup:
 * { started, aliveFrom, aliveTo }, timeline } } when the target started any
 * or is built for wasi-threads, else {} (firstFailure, cpuMs and timeline as
 * the worker's, kept so that a re-report under another warm-up reads
 * them). notes: `thread-failed` ({ failed, started, iteration, code }: the
 * first failure's call and exit code) when a thread exited with a code
 * other than 0, and `thread-pool-growing` ({ startedAfterWarmup, aliveFrom,
 * aliveTo, warmup }) when threads started after warm-up left more alive at
 * the end than at warm-up's end.
 */
export function threadsFacts(threads, warmup) {
  if (!threads || (threads.started === 0 && !threads.wasiThreads)) return { source: {}, notes: [] };
  const { started, exited, maxAlive, failed, wasiThreads } = threads;
  const firstFailure = threads.firstFailure ?? null;
  const cpuMs = threads.cpuMs ?? null;
  const timeline = threads.timeline ?? [];
  const before = countsBefore(timeline, warmup);
  const afterWarmup = {
    started: started - before.started,
    aliveFrom: before.started - before.exited,
    aliveTo: started - exited,
  };
  const notes = [];
  if (failed > 0) {
    const { iteration = null, code = null } = firstFailure ?? {};
    notes.push({ kind: 'thread-failed', series: null, failed, started, iteration, code });
  }
  if (afterWarmup.started > 0 && afterWarmup.aliveTo > afterWarmup.aliveFrom)
    notes.push({
      kind: 'thread-pool-growing',
      series: null,
      startedAfterWarmup: afterWarmup.started,
      aliveFrom: afterWarmup.aliveFrom,
      aliveTo: afterWarmup.aliveTo,
      warmup,
    });
  const source = { started, exited, maxAlive, failed, firstFailure, cpuMs, wasiThreads, afterWarmup, timeline };
  return { source: { threads: source }, notes };
}
