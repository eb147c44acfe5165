// Counts the worker threads a target starts from the soak worker (napi-rs's
// wasm32-wasi loaders start a pool on their shared memory at the first async
// call): worker_threads.Worker is replaced, before the target loads, by a
// subclass that counts each thread it starts and each that exits, for CJS
// requires and (syncBuiltinESMExports) ESM imports alike. Threads those
// threads start are out of its reach. The threads' own JS heaps and CPU are
// not measured (docs/allocator.md, "Threads").

import { syncBuiltinESMExports } from 'node:module';
import workerThreads from 'node:worker_threads';

/**
 * Installs the counter; returns { result() }: { started, exited, maxAlive,
 * failed } so far (failed: threads that exited with a code other than 0).
 */
export function installThreadCounter() {
  const counts = { started: 0, exited: 0, maxAlive: 0, failed: 0 };
  const Original = workerThreads.Worker;
  class Worker extends Original {
    constructor(...args) {
      super(...args);
      counts.started++;
      counts.maxAlive = Math.max(counts.maxAlive, counts.started - counts.exited);
      // An 'exit' listener changes nothing for the target ('error' is left alone: listening would swallow it).
      this.once('exit', (code) => {
        counts.exited++;
        if (code !== 0) counts.failed++;
      });
    }
  }
  Object.defineProperty(Worker, 'name', { value: Original.name });
  workerThreads.Worker = Worker;
  syncBuiltinESMExports();
  return { result: () => ({ ...counts }) };
}
