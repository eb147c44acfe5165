// Compare's side of a native arm (native-child.js runs it in a process of
// its own): the same interface as an arm's runPass in run-compare.js, over
// an IPC channel. A crash of the library (a signal ends the child) is that
// arm's failure, naming the signal and the round it hit; the other arms and
// this arm's log so far are untouched.
import { fork } from 'node:child_process';

// What the signals native code dies of mean, in words.
const SIGNALS = {
  SIGSEGV: 'segmentation fault: an access to memory it does not own',
  SIGBUS: 'bus error: an access to memory that does not exist',
  SIGILL: 'illegal instruction',
  SIGFPE: 'arithmetic exception',
  SIGABRT: 'abort: the library called abort(), or a check in it failed',
  SIGKILL: 'killed',
};

/**
 * Runs the timed pass of a native arm ({ target, cfg, argv, logPath,
 * outputs } as runPass takes them) in a child process. hooks: onControl({
 * grant, stop }) gets the arm's block grant and stop request, onAbortable(
 * abort) abort(error), which ends the child and the pass as failed with
 * error (phase 'block'), onMessage(msg) the pass's 'ready' and 'block'
 * messages. Resolves { outcome, wroteLog } as runPass does; a child killed
 * by a signal ends as failed (phase 'iteration', error.code WS_ECRASH, its
 * message naming the signal and the round), and so does one that reported
 * its pass and then exited other than with 0 (phase 'end').
 */
export function runChildPass({ target, cfg, argv, logPath, outputs }, hooks) {
  const child = fork(new URL('./native-child.js', import.meta.url), [], {
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [],
  });
  let granted = 0;
  let ready = false;
  let result = null;
  let aborted = null;
  // A message to a child that has just ended (a stop after its pass) is
  // lost, not an error: its outcome is already known or comes with its exit.
  const send = (msg) => {
    if (child.connected) child.send(msg, () => {});
  };
  hooks.onControl({
    grant() {
      granted++;
      send({ type: 'grant' });
    },
    stop: () => send({ type: 'stop' }),
  });
  hooks.onAbortable((error) => {
    aborted = error;
    child.kill('SIGKILL');
  });
  child.on('message', (msg) => {
    if (msg.type === 'pass') result = { outcome: msg.outcome, wroteLog: msg.wroteLog };
    else {
      if (msg.type === 'ready') ready = true;
      hooks.onMessage(msg);
    }
  });
  send({ type: 'start', target, cfg, argv, logPath, outputs });
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      if (aborted)
        resolve({
          outcome: { type: 'done', status: 'failed', phase: 'block', hung: true, error: aborted },
          wroteLog: ready,
        });
      else if (result && (code === 0 || result.outcome.status === 'failed')) resolve(result);
      else if (result) resolve({ ...result, outcome: exitAfterPass(result.outcome, code, signal) });
      else resolve({ outcome: crashOutcome(code, signal, ready ? granted : 0), wroteLog: ready });
    });
  });
}

/**
 * The outcome of a child that reported its pass and then exited with code
 * (or signal): its exit, after the pass (a sanitizer's report at exit, the
 * library's destructors), fails the arm.
 */
function exitAfterPass(outcome, code, signal) {
  const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
  return {
    ...outcome,
    status: 'failed',
    phase: 'end',
    error: {
      name: 'Error',
      code: 'WS_ECRASH',
      message: `the native arm's process ${how} after its last block (a leak checker's report at exit, or the library's destructors); its stderr says why`,
      signal: signal ?? null,
    },
  };
}

/** The outcome of a child that ended without reporting its pass, after granted blocks (0: before its loop started). */
function crashOutcome(code, signal, granted) {
  const round =
    granted === 0 ? 'while it was loaded' : granted === 1 ? 'its warm-up block' : `its block of round ${granted - 1}`;
  const how = signal
    ? `crashed with ${signal} (${SIGNALS[signal] ?? 'a signal'})`
    : `ended its process with exit code ${code}`;
  return {
    type: 'done',
    status: 'failed',
    phase: 'iteration',
    error: {
      name: 'Error',
      code: 'WS_ECRASH',
      message: `the native library ${how} ${granted === 0 ? '' : 'in '}${round}; the other arms' results are kept`,
      signal: signal ?? null,
    },
  };
}
