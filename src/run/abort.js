// The interrupt controller of a library call (src/index.js soak): the same
// interface as the command's (interrupt.js), driven by the caller's
// AbortSignal instead of process signal handlers. An abort stops the
// current phase as a first SIGINT would (the run after its current call,
// its figures still drawn; during the analysis or the reports, the figures
// skipped); there is no second, immediate stop.

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
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
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
    dispose: () => signal?.removeEventListener('abort', onAbort),
  };
}
