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
 * The threads' JS heaps (the worker's heaps { taken, missed }, or null)
 * with their samples (series: the decoded threadsJsHeap, or undefined):
 * { taken, missed, samples: [[iteration, bytes], ...] }, or null.
 */
function heapsOf(heaps, series) {
  if (!heaps) return null;
  const samples = series ? Array.from(series.iter, (at, i) => [at, series.value[i]]) : [];
  return { taken: heaps.taken, missed: heaps.missed, samples };
}

/**
 * The threads' CPU time per call: cpuMs over the run's calls, named by
 * the op when the run has one (its every call is that op's), else per call
 * of the run (op null): { ns, calls, op }, or null without a CPU time.
 */
function cpuPerCallOf(cpuMs, calls, ops) {
  if (cpuMs == null || !(calls > 0)) return null;
  return { ns: (cpuMs * 1e6) / calls, calls, op: ops.length === 1 ? ops[0].name : null };
}

/**
 * The threads of run.threads (the worker's count, or the summary's source
 * when a result is re-reported; or null) as the summary keeps them, warm-up
 * ending at call `warmup`; run: { heapSeries (the decoded threadsJsHeap),
 * calls (the run's), ops (the header's) }: { source, notes }. source: {
 * threads: { started, exited, maxAlive, failed, firstFailure, cpuMs,
 * cpuPerCall, heaps, wasiThreads, afterWarmup: { started, aliveFrom,
 * aliveTo }, timeline } } when the target started any or is built for
 * wasi-threads, else {} (firstFailure, cpuMs, heaps' counts and timeline as
 * the worker's, kept so that a re-report under another warm-up reads
 * them; cpuPerCall: cpuPerCallOf's; heaps: heapsOf's). notes: `thread-failed` ({ failed, started, iteration, code }: the
 * first failure's call and exit code) when a thread exited with a code
 * other than 0, and `thread-pool-growing` ({ startedAfterWarmup, aliveFrom,
 * aliveTo, warmup }) when threads started after warm-up left more alive at
 * the end than at warm-up's end.
 */
export function threadsFacts(threads, warmup, { heapSeries, calls = 0, ops = [] } = {}) {
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
  const source = {
    started,
    exited,
    maxAlive,
    failed,
    firstFailure,
    cpuMs,
    cpuPerCall: cpuPerCallOf(cpuMs, calls, ops),
    heaps: heapsOf(threads.heaps ?? null, heapSeries),
    wasiThreads,
    afterWarmup,
    timeline,
  };
  return { source: { threads: source }, notes };
}

/**
 * Finding f with poolGrowing ({ aliveFrom, aliveTo }) when it is the
 * threads' JS heap growing while the pool kept growing after warm-up (a
 * thread-pool-growing note among notes): each thread started brings a heap
 * of its own, so its words name the pool first.
 */
export function withPoolGrowth(f, notes) {
  const pool = notes.find((n) => n.kind === 'thread-pool-growing');
  if (f.kind !== 'js-heap-growth' || f.series !== 'threads-js-heap' || !pool) return f;
  return { ...f, poolGrowing: { aliveFrom: pool.aliveFrom, aliveTo: pool.aliveTo } };
}
