// The held samples. The JS heap sampled at an arbitrary moment includes
// garbage not yet collected, and linear memory holds blocks that only that
// garbage keeps: glue frees them from FinalizationRegistry callbacks, which
// run once a GC has found their objects and the event loop has turned. At
// HELD_CHECKPOINTS evenly spaced points of the run (by iterations, or by
// time for a --duration run), outside the timed region, the worker collects
// the garbage, waits until the finalizers have run, and samples what the
// application still holds: the JS heap (jsHeapAfterGC), each memory's census
// live bytes (censusLiveHeld) and the glue's objects by class; the time it
// took is censusHeldNs. With each JS heap sample go the heaps of the worker
// threads the target started (thread-heaps.js), each after its own GC.
// Until the glue has made an object, every other checkpoint takes the JS
// heap after a GC alone (nothing a finalizer frees holds linear memory). Raw modules have no JS glue (the JS heap is the
// harness's own, nothing is finalized), so only scenarios pay for them, and
// raw WasmGC modules, whose struct and array objects live in that heap.
import { getHeapStatistics } from 'node:v8';
import { addon } from '../addon.js';
import { METRIC, METRIC_CENSUS_STRIDE, PHASE } from '../protocol.js';
import { exposeGc } from './expose-gc.cjs';
import { NativeFinalizationRegistry } from './objects.js';

export const HELD_CHECKPOINTS = 32;
// Finalizers run as tasks after the GC that found their objects. A canary
// object, made garbage just before the GC, is finalized in the same way:
// once its callback has run and two turns of the event loop ran no more of
// the glue's callbacks, the finalizers of that GC have run. Bounded: a
// target that keeps the event loop busy gets at most MAX_SETTLE_TURNS turns.
const MAX_SETTLE_TURNS = 200;

export const yieldToEventLoop = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Whether held checkpoint number checkpoint (0 first) is due, completed
 * calls and elapsedMs into the run: at evenly spaced iterations, or times of
 * a --duration run. Pure.
 */
export function heldDue(config, checkpoint, completed, elapsedMs) {
  const due = config.iterations === null ? Infinity : (checkpoint * config.iterations) / HELD_CHECKPOINTS;
  const dueMs = config.durationMs ? (checkpoint * config.durationMs) / HELD_CHECKPOINTS : Infinity;
  return completed >= due || elapsedMs >= dueMs;
}

/**
 * The held sampler of a run: on (a scenario's run) takes gc() at once;
 * enable() takes it later (a raw WasmGC module). objects: the glue's object
 * tracker (objects.js), null for a raw module; threadHeaps: the target's
 * threads' heap sampler (thread-heaps.js), or null; enter(phase) tells the
 * watchdog what the worker does; post(message) sends each sample's object
 * counts to the main thread ({ type: 'objects', iteration, classes }: the
 * progress line's objects).
 */
export function createHeld({ config, on, objects, threadHeaps = null, enter, post }) {
  let collectGarbage = on ? exposeGc() : null;
  let checkpoint = 0;
  let canaries = 0;
  const canary = new NativeFinalizationRegistry(() => canaries++);
  /** Makes one object garbage under the canary's watch (a function of its own: nothing keeps it). */
  const plantCanary = () => canary.register(new Array(1), null);

  /** Collects the garbage and waits until its finalizers have run. */
  async function collectAndSettle() {
    const want = canaries + 1;
    plantCanary();
    collectGarbage();
    let last = objects.cleanups();
    let quiet = 0;
    for (let turn = 0; turn < MAX_SETTLE_TURNS && !(canaries >= want && quiet >= 2); turn++) {
      await yieldToEventLoop();
      const now = objects.cleanups();
      quiet = now === last ? quiet + 1 : 0;
      last = now;
    }
  }

  /** The threads' heaps beside the worker's, while the replies come on the event loop. */
  async function threadsHeld(runner) {
    if (!threadHeaps) return;
    enter(PHASE.eventLoop);
    const bytes = await threadHeaps.sample();
    enter(PHASE.stats);
    if (bytes !== null) addon.metric(runner, METRIC.threadsJsHeap, bytes);
  }

  return {
    enable() {
      collectGarbage ??= exposeGc();
    },
    /**
     * Takes the held sample into runner when one is due; censused: the
     * memories with a census. Returns null when it took it at once (or none
     * was due), else a promise of it (the garbage settling, the target's
     * threads answering): most slow samples take none, and allocate nothing
     * for it (bench/self-soak.js).
     */
    sample(runner, completed, elapsedMs, censused) {
      if (!collectGarbage || !heldDue(config, checkpoint, completed, elapsedMs)) return null;
      checkpoint++;
      // No glue object seen yet: nothing a finalizer frees holds linear memory,
      // so every other checkpoint takes the JS heap after a GC alone.
      if (!objects?.seen()) {
        if (checkpoint % 2 === 1) {
          collectGarbage();
          addon.metric(runner, METRIC.jsHeapAfterGC, getHeapStatistics().used_heap_size);
          if (threadHeaps) return threadsHeld(runner);
        }
        return null;
      }
      return settled(runner, completed, censused);
    },
  };

  /** The held sample after the garbage is collected and its finalizers ran. */
  async function settled(runner, completed, censused) {
    const started = process.hrtime.bigint();
    enter(PHASE.eventLoop);
    await collectAndSettle();
    enter(PHASE.stats);
    addon.metric(runner, METRIC.jsHeapAfterGC, getHeapStatistics().used_heap_size);
    await threadsHeld(runner);
    for (let k = 0; k < censused; k++) {
      const c = addon.census(runner, k, false);
      if (c.status === 'taken') addon.metric(runner, METRIC.censusLiveHeld + k * METRIC_CENSUS_STRIDE, c.liveBytes);
    }
    objects.snapshot(completed);
    post({ type: 'objects', iteration: completed, classes: objects.counts() });
    addon.metric(runner, METRIC.censusHeldNs, Number(process.hrtime.bigint() - started));
  }
}
