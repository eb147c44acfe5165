// How a pass's worker ended when it did not say so itself: it exited (the
// target called process.exit, or left a promise that never settles), or the
// watchdog found it hung; and the notice a user waiting on a stuck call gets.
import { CTL, PHASE } from '../protocol.js';
import { DURATION_GRACE_MS, describeState, seconds } from './watchdog.js';

/** What a worker that exited by itself was doing (its control words say). */
export function exitOutcome(control, code, ops) {
  const exitWord = Atomics.load(control, CTL.exit);
  const exited = (exitWord & 0x100) !== 0;
  const s = {
    write: Atomics.load(control, CTL.write),
    iteration: Atomics.load(control, CTL.iteration),
    call: exited ? exitWord >>> 9 : Atomics.load(control, CTL.call),
    phase: Atomics.load(control, CTL.phase),
  };
  const d = describeState(s, ops);
  let error;
  if (exited) {
    error = {
      name: 'Error',
      code: 'WS_EEXIT',
      message: `the target called process.exit(${exitWord & 0xff}) during ${d.what}`,
    };
  } else if (code === 0 && (d.pending || [PHASE.setup, PHASE.stats, PHASE.teardown].includes(s.phase))) {
    error = {
      name: 'Error',
      code: 'WS_ENEVER',
      message: `${d.what} ${d.pending ? 'returned a promise that' : 'awaited a promise that'} never settled: the worker's event loop emptied with it pending, so nothing was left that could settle it`,
    };
  } else {
    return {
      type: 'done',
      status: 'failed',
      phase: 'worker',
      error: { name: 'Error', message: `the worker exited unexpectedly (code ${code}) during ${d.what}` },
    };
  }
  return { type: 'done', status: 'failed', phase: d.phase, error: { ...error, iteration: d.iteration, op: d.op } };
}

/**
 * The outcome of a pass the watchdog found hung (hang: its check()), with
 * the header's ops and the run's limits (cfg): failed, error WS_EHUNG naming
 * what hung and the limit it passed.
 */
export function hungOutcome(hang, ops, cfg) {
  const d = describeState(hang, ops);
  const settle = d.pending ? 'settle' : hang.phase === PHASE.setup || hang.phase === PHASE.load ? 'finish' : 'return';
  const limit =
    hang.by === 'duration'
      ? `was still running ${seconds(DURATION_GRACE_MS)} after --duration ${seconds(cfg.durationMs)} ran out`
      : `did not ${settle} within ${seconds(hang.by === 'setup-timeout' ? cfg.setupTimeoutMs : cfg.callTimeoutMs)} (--${hang.by})`;
  const subject = d.pending ? `the promise returned by ${d.what}` : d.what;
  return {
    type: 'done',
    status: 'failed',
    phase: d.phase,
    hung: true,
    error: {
      name: 'Error',
      code: 'WS_EHUNG',
      message: `hung call: ${subject} ${limit}; the worker was stopped`,
      iteration: d.iteration,
      op: d.op,
      elapsedMs: Math.round(hang.stuckMs),
    },
  };
}

/** What a user who asked to stop is told while a call runs on (now: the watchdog's current()). */
export function stuckNotice(now, ops, cfg) {
  const d = describeState(now, ops);
  const until = cfg.callTimeoutMs ? ` (at most until --call-timeout ${seconds(cfg.callTimeoutMs)})` : '';
  return `wasm-soak: ${d.what} has been running for ${seconds(now.stuckMs)}; waiting for it to end${until} — press Ctrl-C again to stop now.\n`;
}
