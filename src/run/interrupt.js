// SIGINT and SIGTERM for a whole command (run, soak, report), in every
// phase: the run, the counting pass, the analysis and the reports. The first
// signal asks the current phase to finish early and says what happens; the
// second stops at once (exit 130) after the phase's last rites (the log is
// flushed and closed, a summary says how to recover the rest). A first
// signal during the analysis or the reports skips the figures; one that
// stopped the run lets them be drawn (src/report/result.js).
import { EXIT } from '../errors.js';

const AGAIN = 'press Ctrl-C again (or send the signal again) to stop now';

let current = null;

/**
 * The command's interrupt controller, created (and the handlers installed)
 * on first use. Phases:
 *   enter(name, { message, stop, now }): name is what is happening ('run',
 *   'counting pass', 'analysis', 'reports'); message what the first signal
 *   does in it; stop() is called on the first signal (or at once when one
 *   came before); now() on the second, just before exit(130).
 * interrupted: a signal came; first: { signal, during } of the first one.
 */
export function interrupts({ stream = process.stderr, exit = (code) => process.exit(code) } = {}) {
  if (current) return current;
  const controller = new AbortController();
  let phase = { name: 'start', message: 'stopping', stop: null, now: null };
  let first = null;
  let count = 0;

  function onSignal(signal) {
    count++;
    if (count === 1) {
      first = { signal, during: phase.name };
      stream.write(`\nwasm-soak: ${signal}: ${phase.message} — ${AGAIN}.\n`);
      controller.abort();
      phase.stop?.();
      return;
    }
    stream.write(`\nwasm-soak: ${signal} again: stopping now.\n`);
    try {
      phase.now?.();
    } catch (err) {
      stream.write(`wasm-soak: while stopping: ${err.message}\n`);
    }
    exit(EXIT.INTERRUPTED);
  }
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  current = {
    signal: controller.signal,
    get interrupted() {
      return count > 0;
    },
    get first() {
      return first;
    },
    enter(name, { message, stop = null, now = null } = {}) {
      phase = { name, message, stop, now };
      if (count > 0) stop?.();
    },
    /** Lets signals that arrived during synchronous work be handled. */
    checkpoint: () => new Promise((resolve) => setImmediate(resolve)),
    /** Removes the handlers (tests that create controllers in-process). */
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      current = null;
    },
  };
  return current;
}
