// Counts the worker threads a target starts from the soak worker (napi-rs's
// wasm32-wasi loaders start a pool on their shared memory at the first async
// call): worker_threads.Worker is replaced, before the target loads, by a
// subclass that counts each thread it starts and each that exits, for CJS
// requires and (syncBuiltinESMExports) ESM imports alike, and keeps when:
// the calls at which the count changed (the analysis reads a pool still
// growing after warm-up from them, src/analysis/threads.js). Threads those
// threads start are out of its reach. Their CPU time is read where Linux
// gives it (thread-cpu.js); their JS heaps are asked for at the held
// checkpoints (thread-heaps.js), through a reporter each thread is started
// with (`--require`, added to the execArgv it is given or would inherit).

import { syncBuiltinESMExports } from 'node:module';
import workerThreads from 'node:worker_threads';
import { newTask, taskCpuMs, taskIds } from './thread-cpu.js';
import { REPORTER } from './thread-heaps.js';

// Calls kept in the timeline by default: a pool that starts a thread a call
// stops being recorded there (its count goes on).
const THREAD_TIMELINE_MAX = 4096;

/**
 * A Worker's options with the heap reporter added to its execArgv: the
 * one the target gives, else the soak worker's, which it would inherit.
 */
function withReporter(options) {
  const execArgv = options?.execArgv ?? process.execArgv;
  return { ...options, execArgv: [...execArgv, '--require', REPORTER] };
}

/**
 * Installs the counter; iteration() reads the call in progress (counted
 * from the run's first), max: the changes the timeline keeps. Returns {
 * result(), alive(), onExit(fn) }: alive() the thread ids of the threads
 * alive; onExit(fn): fn(threadId) runs when one exits; result()
 * { started, exited, maxAlive, failed, firstFailure, cpuMs,
 * timeline } so far (failed: threads that exited with a code other than 0;
 * firstFailure: { iteration, code } of the first, or null; cpuMs: the
 * threads' CPU time (thread-cpu.js), null unless every thread started was
 * attributed and is still alive; timeline: [iteration, started, exited]
 * after each call at which they changed, the first `max` such calls).
 */
export function installThreadCounter({ iteration, max = THREAD_TIMELINE_MAX }) {
  const counts = { started: 0, exited: 0, maxAlive: 0, failed: 0, firstFailure: null };
  const timeline = [];
  const tids = []; // each thread's task id, null where unattributed
  const alive = new Set(); // the thread ids of those alive
  const exitListeners = [];
  const record = () => {
    const at = iteration();
    const last = timeline.at(-1);
    if (last?.[0] === at) timeline[timeline.length - 1] = [at, counts.started, counts.exited];
    else if (timeline.length < max) timeline.push([at, counts.started, counts.exited]);
  };
  const Original = workerThreads.Worker;
  class Worker extends Original {
    constructor(filename, options, ...rest) {
      const before = taskIds();
      super(filename, withReporter(options), ...rest);
      tids.push(newTask(before));
      const id = this.threadId;
      alive.add(id);
      counts.started++;
      counts.maxAlive = Math.max(counts.maxAlive, counts.started - counts.exited);
      record();
      // An 'exit' listener changes nothing for the target ('error' is left alone: listening would swallow it).
      this.once('exit', (code) => {
        alive.delete(id);
        for (const fn of exitListeners) fn(id);
        counts.exited++;
        if (code !== 0) {
          counts.failed++;
          counts.firstFailure ??= { iteration: iteration(), code };
        }
        record();
      });
    }
  }
  Object.defineProperty(Worker, 'name', { value: Original.name });
  workerThreads.Worker = Worker;
  syncBuiltinESMExports();
  const cpuMs = () => {
    if (tids.length === 0 || tids.includes(null)) return null;
    const times = tids.map(taskCpuMs);
    return times.includes(null) ? null : times.reduce((a, b) => a + b, 0);
  };
  return {
    result: () => ({ ...counts, cpuMs: cpuMs(), timeline: timeline.map((e) => [...e]) }),
    alive: () => [...alive],
    onExit: (fn) => exitListeners.push(fn),
  };
}
