// The worker's loop around the C loop: runs batches of calls (addon.runBatch,
// the timed region) and between them waits on back-pressure, settles a
// call's promise, gives the runner new memories, takes the slow samples and
// turns the event loop, as the cadence says (cadence.js). Resolves
// { status, reason, error, phase, iteration } when the run ends.
import { addon } from '../addon.js';
import { CTL, PHASE, STATUS } from '../protocol.js';
import { createBlockGate } from './blocks.js';
import { batchCalls, createCadence, slowDue, slowTaken, yieldDue, yielded } from './cadence.js';
import { yieldToEventLoop } from './held.js';

/**
 * The unhandled rejections' check between batches: returns a failed outcome
 * naming the calls since the last check (one of them made it), or null.
 */
function rejectionCheck(runner, rejections) {
  let checkedFrom = addon.completed(runner);
  return () => {
    const r = rejections.take();
    const to = addon.completed(runner) - 1;
    const from = Math.min(checkedFrom, to);
    checkedFrom = to + 1;
    if (!r) return null;
    return { status: 'failed', error: r.reason, rejection: { from, to }, phase: 'iteration', iteration: to };
  };
}

/** The outcome of a batch's last status, or null while the run goes on. */
function endOf(st, runner) {
  if (st === STATUS.threw) return { status: 'failed', error: addon.error(runner), phase: 'iteration' };
  if (st === STATUS.done) return { status: 'completed', reason: 'iterations' };
  if (st === STATUS.deadline) return { status: 'completed', reason: 'duration' };
  if (st === STATUS.stopped) return { status: 'interrupted', reason: 'signal' };
  return null;
}

/**
 * Runs the loop of w (the worker's state: runner, prepared, config, control,
 * enter, post, memories, sites, slow, rejections, blockContents,
 * firstIteration) to its end: the steps between two batches, in order,
 * sharing the cadence and the gate.
 */
export async function runLoop(w) {
  const { runner, prepared, config, control, enter } = w;
  const yieldNs = config.yieldMs * 1e6;
  const started = performance.now();
  const cadence = createCadence(config, started);
  const gate = config.blockCalls
    ? createBlockGate({
        control,
        blockCalls: config.blockCalls,
        calls: config.iterations,
        slots: config.checkOutputs ? prepared.slots : null,
        post: w.post,
        enter,
      })
    : null;
  const rejected = rejectionCheck(runner, w.rejections);
  // Made once, not per batch: the loop's own garbage grows the worker's heap (bench/self-soak.js).
  const budgets = [];
  const addMemory = (memory, shared) => addon.addMemory(runner, memory, shared);
  const scanLimit = (index, bytes) => addon.censusScanLimit(runner, index, bytes);
  for (;;) {
    gate?.wait(addon.completed(runner));
    const done = addon.completed(runner);
    budgets.length = 0;
    if (gate) budgets.push(gate.budget(done));
    if (w.sites) budgets.push(w.sites.budget(done - w.firstIteration));
    const st = addon.runBatch(runner, batchCalls(cadence, config, done, budgets), yieldNs);
    if (st === STATUS.full) {
      // Back-pressure: ask for a drain and sleep until the main thread frees slots.
      const read = Atomics.load(control, CTL.read);
      w.post({ type: 'drain' });
      Atomics.wait(control, CTL.read, read, 200);
      continue;
    }
    if (st === STATUS.async) {
      enter(PHASE.pending);
      try {
        await addon.pending(runner);
        addon.settle(runner, false, undefined);
      } catch (err) {
        addon.settle(runner, true, err);
        return { status: 'failed', error: err };
      }
      enter(PHASE.loop);
      const failed = rejected();
      if (failed) return failed;
    }
    w.memories.addLate(addMemory, scanLimit);
    const now = performance.now();
    const completed = addon.completed(runner);
    w.sites?.reached(completed - w.firstIteration);
    const finished = st !== STATUS.yield && st !== STATUS.async;
    if (slowDue(cadence, config, completed, now, finished)) {
      enter(PHASE.stats);
      try {
        // A promise only when the sample has more to do (stats(), a held sample).
        const rest = w.slow.sample(runner, prepared, w.blockContents, now - started);
        if (rest) await rest;
      } catch (err) {
        const phase = prepared.scenario?.stats ? 'stats' : 'slow sample';
        return { status: 'failed', error: err, phase, iteration: completed - 1 }; // the sample follows this call
      }
      enter(PHASE.loop);
      slowTaken(cadence, config, completed, now);
    }
    gate?.reached(completed);
    const end = endOf(st, runner);
    if (end) return end;
    if (yieldDue(cadence, config, completed, now, st === STATUS.async)) {
      enter(PHASE.eventLoop);
      await yieldToEventLoop();
      enter(PHASE.loop);
      yielded(cadence, config, completed, performance.now());
      const failed = rejected();
      if (failed) return failed;
    }
  }
}
