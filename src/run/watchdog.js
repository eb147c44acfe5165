// The main thread's watchdog over a worker: reads the ring's control words
// (write count, current iteration, call in progress, worker phase) at every
// drain tick, and names a hang when none of them changed for too long: a
// call or its promise past --call-timeout, a setup past --setup-timeout, a
// call still running a grace second after --duration ran out. Ending the
// hang (terminating the worker) is the caller's. The timeouts count the
// time the machine could give the worker: on a machine loaded past its
// cores they stretch with the load (machineStretch), so a slow setup on a
// busy CI runner is not called hung; a real hang is still ended.
import { availableParallelism, loadavg } from 'node:os';
import { CTL, PHASE } from '../protocol.js';
import { visible } from '../report/escape.js';

/** How long past --duration a call may still run before it is ended. */
export const DURATION_GRACE_MS = 1000;

/** The most a timeout stretches on a loaded machine (a 60 s limit: 16 min). */
export const MAX_STRETCH = 16;

/**
 * How many times slower than on an idle machine a thread runs now: the
 * one-minute load average per core, at least 1, at most MAX_STRETCH.
 */
export function machineStretch(load = loadavg()[0], cores = availableParallelism()) {
  const perCore = load / Math.max(1, cores);
  return Number.isFinite(perCore) ? Math.min(MAX_STRETCH, Math.max(1, perCore)) : 1;
}

export const seconds = (ms) => `${Number((ms / 1000).toPrecision(3))} s`;

/**
 * control: the ring's Int32 control words. Timeouts in ms (0: none).
 * check(now) returns null or a hang { phase, by, stuckMs, iteration, call }
 * (by: 'call-timeout' | 'setup-timeout' | 'duration'); current(now) what the
 * worker is doing and for how long; started() marks the run's start (its
 * ready message), from which --duration counts. stuckMs is wall time;
 * the timeouts are held against stuckWorkMs, the same time divided by the
 * machine's stretch (a function, machineStretch unless given) as it went.
 */
export function createWatchdog({ control, callTimeoutMs, setupTimeoutMs, durationMs, stretch = machineStretch }) {
  let beat = null; // the last state that moved
  let since = performance.now();
  let last = since;
  let stuckWorkMs = 0;
  let runStart = null;
  const state = () => ({
    write: Atomics.load(control, CTL.write),
    iteration: Atomics.load(control, CTL.iteration),
    call: Atomics.load(control, CTL.call),
    phase: Atomics.load(control, CTL.phase),
  });

  // One object per check, no key string: it runs every drain of a run.
  function current(now = performance.now()) {
    const s = state();
    const moved =
      beat === null ||
      s.write !== beat.write ||
      s.iteration !== beat.iteration ||
      s.call !== beat.call ||
      s.phase !== beat.phase;
    if (moved) {
      beat = s;
      since = now;
      stuckWorkMs = 0;
    } else if (now > last) stuckWorkMs += (now - last) / stretch();
    last = now;
    s.stuckMs = now - since;
    s.stuckWorkMs = stuckWorkMs;
    return s;
  }

  function check(now = performance.now()) {
    const s = current(now);
    // A compare arm between its blocks waits for the other arms by design.
    if (s.phase === PHASE.paused) return null;
    const inSetup = s.phase === PHASE.load || s.phase === PHASE.setup;
    const limit = inSetup ? setupTimeoutMs : callTimeoutMs;
    let by = null;
    if (limit > 0 && s.stuckWorkMs >= limit) by = inSetup ? 'setup-timeout' : 'call-timeout';
    else if (
      !inSetup &&
      durationMs &&
      runStart !== null &&
      now - runStart >= durationMs + DURATION_GRACE_MS &&
      s.stuckMs >= DURATION_GRACE_MS
    )
      by = 'duration';
    return by ? { ...s, by } : null;
  }

  return {
    check,
    current,
    started() {
      runStart = performance.now();
    },
  };
}

/**
 * Words for what the worker was doing (a state from current/check, ops the
 * header's ops): { phase, what, iteration, op } where phase is the name the
 * summary uses and what a phrase for messages.
 */
export function describeState(s, ops = []) {
  const op = s.call > 0 ? (ops[s.call - 1]?.name ?? `#${s.call - 1}`) : null;
  const after = s.write > 0 ? ` (after iteration ${Math.max(0, s.iteration)})` : '';
  if (s.phase === PHASE.load) return { phase: 'load', what: 'loading the target', iteration: null, op: null };
  if (s.phase === PHASE.setup) return { phase: 'setup', what: 'setup()', iteration: null, op: null };
  if (s.call > 0) {
    const what = `iteration ${s.iteration} (op "${visible(op)}")`; // a message: the op's control characters shown
    return { phase: 'iteration', what, iteration: s.iteration, op, pending: s.phase === PHASE.pending };
  }
  if (s.phase === PHASE.stats) return { phase: 'stats', what: `stats()${after}`, iteration: null, op: null };
  if (s.phase === PHASE.teardown) return { phase: 'teardown', what: 'teardown()', iteration: null, op: null };
  if (s.phase === PHASE.eventLoop)
    return {
      phase: 'event loop',
      what: `the worker's event loop (a timer or callback of the target${after})`,
      iteration: null,
      op: null,
    };
  return { phase: 'worker', what: `the worker${after}`, iteration: null, op: null };
}
