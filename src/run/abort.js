// The interrupt controller of a library call (src/index.js soak): the same
// interface as the command's (interrupt.js), driven by the caller's
// AbortSignal instead of process signal handlers. An abort stops the
// current phase as a first SIGINT would (the run after its current call,
// its figures still drawn; during the analysis or the reports, the figures
// skipped); there is no second, immediate stop.

/**
 * The soak() calls listening to each caller's AbortSignal: one listener on
 * the signal, however many calls share it, so that more than 10 concurrent
 * calls with one signal never print Node's MaxListenersExceededWarning.
 */
const listening = new WeakMap();

/** Calls onAbort once when signal aborts; returns the function that stops listening. */
function onceAborted(signal, onAbort) {
  let calls = listening.get(signal);
  if (!calls) {
    calls = new Set();
    listening.set(signal, calls);
    signal.addEventListener(
      'abort',
      () => {
        listening.delete(signal);
        for (const call of calls) call();
      },
      { once: true },
    );
  }
  calls.add(onAbort);
  return () => calls.delete(onAbort);
}

/** The controller for signal (an AbortSignal, or undefined: never aborted). */
export function abortInterrupts(signal) {
  const controller = new AbortController();
  let phase = { name: 'start', stop: null };
  let first = null;
  const onAbort = () => {
    first = { signal: 'abort', during: phase.name };
    controller.abort();
    phase.stop?.();
  };
  let stopListening = () => {};
  if (signal?.aborted) onAbort();
  else if (signal) stopListening = onceAborted(signal, onAbort);
  return {
    signal: controller.signal,
    get interrupted() {
      return first !== null;
    },
    get first() {
      return first;
    },
    enter(name, { stop = null } = {}) {
      phase = { name, stop };
      if (first) stop?.();
    },
    checkpoint: () => new Promise((resolve) => setImmediate(resolve)),
    // No second, immediate stop: nobody is told to press Ctrl-C again (the host's stderr is its own).
    secondStop: false,
    dispose: () => stopListening(),
  };
}
