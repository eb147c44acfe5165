// One pass of a run (the timed pass, the counting pass, or the timed pass
// again) in a fresh worker: its lifecycle (start, settle once, clean up),
// what the worker prints, its messages, its log and progress line, the
// watchdog's checks and the signals that stop it.
import { dirname } from 'node:path';
import { createLiveAnalysis } from '../analysis/live.js';
import { CTL_WORDS } from '../protocol.js';
import { earlyStopWords } from '../report/progress-words.js';
import { ensureResultFile } from '../result-file.js';
import { abandonRun, createRing, requestStop } from './drain.js';
import { buildHeader } from './log-header.js';
import { createPassLog, writeFailure } from './pass-log.js';
import { exitOutcome, hungOutcome, stuckNotice } from './pass-outcome.js';
import { createProgress, createTerminal, progressMode } from './progress.js';
import { writeStoppedSummary } from './stopped-summary.js';
import { createWatchdog } from './watchdog.js';
import { startWorker } from './worker-start.js';

const DRAIN_MS = 10;
/** How long a stop may wait on a running call before the user is told why. */
const STUCK_NOTICE_MS = 2000;

// What each pass is called in messages, and its progress line's label.
const PASS_NAMES = {
  timed: 'run',
  count: 'counting pass',
  replica: 'second timed pass',
  split: 'time-split pass',
  swap: 'allocator swap pass',
};
const PASS_LABELS = {
  timed: '',
  count: ' (counting allocations)',
  replica: ' (again)',
  split: ' (where the time goes)',
  swap: ' (allocator swapped)',
};

/**
 * Runs one pass of target in a fresh worker and writes its log at logPath,
 * or with logPath null into memory (memorySink). pass is 'timed', 'count'
 * (the counting pass: instrumented allocator, same seed and iteration
 * sequence), 'replica' (the timed pass again: its calls, the seed run.js gives) or
 * 'split' (the time-split pass: allocator, memory.grow and exports stamped)
 * or 'swap' (the allocator routed to a bump allocator, alloc-swap.js).
 * Returns { outcome, wroteLog, memoryLog } (memoryLog: the log's
 * bytes when it was kept in memory, else null). A watchdog
 * ends a hung call or setup (outcome failed, error.code WS_EHUNG); a write
 * error of the log stops the run (failed, the errno's code); a first signal
 * stops the loop after its call, a second exits 130 at once with the log
 * flushed (interrupt.js). hooks (compare, src/compare/run-compare.js):
 * onRing(sab) gets the ring before the worker starts, onMessage(msg) every
 * worker message the pass does not handle itself (a 'block'), and 'ready';
 * onAbortable(abort) gets abort(error), which stops the worker and ends the
 * pass as failed (phase 'block') with error.
 * bytes: the module's bytes when target has no file (describeBytes).
 * onHeader(header): called once the log is open, with its header (the ops).
 */
export async function runPass({
  target,
  cfg,
  argv,
  logPath,
  outputs,
  pass,
  interrupt,
  hooks = null,
  bytes = null,
  onHeader = null,
}) {
  // The worker appends the module's output to these: regular files, never links.
  if (outputs) for (const path of [outputs.stdout, outputs.stderr]) ensureResultFile(path);
  const sab = createRing(cfg.ringRecords);
  hooks?.onRing(sab);
  const worker = startPassWorker({ sab, target, cfg, pass, outputs, bytes });
  const mode = progressMode({ quiet: cfg.quiet });
  const terminal = createTerminal({ mode });
  relayOutput(worker, terminal, cfg);

  // The pass's state; finish() settles it once, with the first outcome.
  const p = {
    sab,
    worker,
    cfg,
    pass,
    logPath,
    header: null,
    onHeader,
    interrupt,
    progress: null,
    stopAt: null,
    outcome: null,
    mode,
    terminal,
    // A run's timed pass may end once its leak is decided; never compare's arms (hooks), with
    // --full-run, or against a --baseline (whose exact counts need all of its calls again).
    earlyStop: pass === 'timed' && hooks === null && !cfg.fullRun && !cfg.baseline,
    trend: null, // the live analysis that decides it
    decided: null, // early-stop.js's facts once it decided
  };
  let settle;
  const settled = new Promise((resolve) => {
    settle = resolve;
  });
  p.finish = (o) => {
    if (p.outcome) return;
    p.outcome = o;
    settle(o);
  };
  p.end = (o) => {
    worker.terminate();
    p.finish(o);
  };
  p.log = createPassLog({
    sab,
    logPath,
    consume: (chunk) => p.progress.consume(chunk),
    onError: (err) => p.end({ type: 'done', status: 'failed', phase: 'log', error: writeFailure(err, logPath) }),
  });
  p.watchdog = createWatchdog({
    control: new Int32Array(sab, 0, CTL_WORDS),
    callTimeoutMs: cfg.callTimeoutMs ?? 0,
    setupTimeoutMs: cfg.setupTimeoutMs ?? 0,
    durationMs: cfg.durationMs,
  });
  interrupt?.enter(PASS_NAMES[pass], passInterrupt(p, { target, logPath }));
  const timer = setInterval(() => tick(p), DRAIN_MS);
  // compare's block bound (src/compare/run-compare.js) ends a pass whose block never came.
  hooks?.onAbortable?.((error) => {
    abandonRun(sab);
    p.end({ type: 'done', status: 'failed', phase: 'block', hung: true, error });
  });
  worker.on('message', (msg) => dispatch(p, msg, { target, argv, hooks }));
  worker.on('error', (err) =>
    p.finish({
      type: 'done',
      status: 'failed',
      phase: 'worker',
      error: { name: err.name, message: `the worker died: ${err.message}`, stack: err.stack },
    }),
  );
  worker.on('exit', (code) => p.finish(exitOutcome(new Int32Array(sab, 0, CTL_WORDS), code, p.header?.ops)));

  await settled;
  clearInterval(timer);
  p.log.close();
  // A write that failed after the worker ended (its last records, the close)
  // fails the run as one during it does: the exit code never depends on
  // which came first.
  let outcome = p.outcome;
  if (p.log.writeError && outcome.status !== 'failed')
    outcome = { ...outcome, status: 'failed', phase: 'log', error: writeFailure(p.log.writeError, logPath) };
  // A run ended because its leak was decided completed its work (docs/verdicts.md, "Early stop").
  if (p.decided && outcome.status === 'interrupted' && outcome.reason === 'signal' && !interrupt?.interrupted)
    outcome = { ...outcome, status: 'completed', reason: 'decided', decided: p.decided };
  if (p.progress) p.progress.finish();
  else terminal.close(null);
  await worker.terminate();
  return { outcome, wroteLog: p.log.opened, memoryLog: p.log.memoryBytes };
}

/** Starts the worker of a pass, handing it the ring, the configuration and the target. */
function startPassWorker({ sab, target, cfg, pass, outputs, bytes }) {
  return startWorker(new URL('../worker/worker.js', import.meta.url), {
    workerData: {
      ring: sab,
      // What leaked blocks hold is picked in the first timed pass only (the others' is not read).
      config: {
        ...cfg,
        countPass: pass === 'count',
        splitPass: pass === 'split',
        swapPass: pass === 'swap',
        blockContents: Boolean(cfg.blockContents) && pass === 'timed',
      },
      target: {
        kind: target.kind,
        path: target.path ?? `${target.name} (bytes)`,
        arm: target.arm ?? null,
        reference: target.reference ?? null, // a native arm's wasm arm (compare)
        bytes,
      },
      outputs,
    },
    stdout: true,
    stderr: true,
  });
}

/**
 * What the target prints goes above the progress bar, line by line; with
 * --json its stdout goes to stderr, so that stdout holds only the summary.
 */
function relayOutput(worker, terminal, cfg) {
  const printed = { stdout: cfg.json ? process.stderr : process.stdout, stderr: process.stderr };
  for (const name of ['stdout', 'stderr']) {
    worker[name].setEncoding('utf8');
    worker[name].on('data', (text) => terminal.above(text, printed[name], name));
    worker[name].on('end', () => terminal.end(name));
  }
}

/**
 * Every DRAIN_MS: drains the ring into the log, lets the progress line
 * redraw at its own pace, ends a pass the watchdog finds hung, and tells a
 * user who asked to stop why a call keeps it waiting.
 */
function tick(p) {
  if (p.log.opened) {
    p.log.drain();
    p.progress?.tick();
    if (p.trend && p.stopAt === null && !p.decided) decideEarly(p);
  }
  const hang = p.watchdog.check();
  if (hang) {
    abandonRun(p.sab);
    p.end(hungOutcome(hang, p.header?.ops, p.cfg));
  } else if (
    p.stopAt !== null &&
    !p.toldStuck &&
    p.interrupt?.secondStop !== false &&
    performance.now() - p.stopAt > STUCK_NOTICE_MS
  ) {
    const now = p.watchdog.current();
    if (now.stuckMs > STUCK_NOTICE_MS) {
      p.toldStuck = true;
      process.stderr.write(stuckNotice(now, p.header?.ops, p.cfg));
    }
  }
}

/**
 * Ends the timed pass once the live analysis finds its leak decided
 * (early-stop.js; not with --full-run): the loop stops after its call, and
 * the user is told why.
 */
function decideEarly(p) {
  const decided = p.trend.preliminary()?.decided;
  if (!decided) return;
  p.decided = decided;
  requestStop(p.sab);
  if (!p.cfg.quiet) p.terminal.above(`wasm-soak: ${earlyStopWords(decided)}\n`, process.stderr, 'early-stop');
}

/**
 * The pass's worker messages: ready (the log and progress start), drain,
 * done and fatal; the glue's object counts feed the live analysis; the rest
 * go to hooks.
 */
function dispatch(p, msg, { target, argv, hooks }) {
  if (p.outcome) return;
  if (msg.type === 'ready') {
    if (ready(p, msg, { target, argv })) hooks?.onMessage(msg);
  } else if (msg.type === 'drain') p.log.drain();
  else if (msg.type === 'done' || msg.type === 'fatal') p.finish(msg);
  else {
    if (msg.type === 'objects') p.live?.objects(msg);
    hooks?.onMessage(msg);
  }
}

/**
 * The worker is ready: the log header, the log (capped for the timed
 * passes; the counting pass's is as long as the run was), the watchdog's
 * start and the progress line with the timed pass's preliminary verdict.
 * Returns false when the log could not be created (the pass then failed).
 */
function ready(p, msg, { target, argv }) {
  const { cfg, pass } = p;
  p.header = {
    ...buildHeader({ target, cfg, argv, ready: msg }),
    pass,
    instrumented: msg.instrumented,
    coverage: msg.coverage,
  };
  try {
    p.log.open(
      p.header,
      pass === 'count' || pass === 'split' || pass === 'swap' ? Infinity : (cfg.maxLogBytes ?? Infinity),
    );
  } catch (err) {
    p.end({ type: 'fatal', status: 'failed', phase: 'log', error: writeFailure(err, p.logPath) });
    return false;
  }
  p.onHeader?.(p.header);
  p.watchdog.started();
  // The timed pass's preliminary verdict only: the second timed pass decides nothing on its own.
  // It also decides when a leaking run may end early (early-stop.js), which runs without a progress line too.
  const live = pass === 'timed' && (p.mode !== 'none' || p.earlyStop);
  const trend = live ? createLiveAnalysis({ header: p.header, cfg }) : null;
  p.live = trend;
  if (p.earlyStop) p.trend = trend;
  p.progress = createProgress({
    name: `${p.header.target.name}${PASS_LABELS[pass]}`,
    total: cfg.iterations,
    durationMs: cfg.durationMs,
    mode: p.mode,
    terminal: p.terminal,
    trend,
  });
  return true;
}

/**
 * What a signal does to the pass (interrupt.js): the first stops the loop
 * after its current call (or, during setup, the worker); a second abandons
 * the run at once, closes the log and writes a summary saying how to
 * recover it.
 */
function passInterrupt(p, { target, logPath }) {
  const name = PASS_NAMES[p.pass];
  return {
    message:
      p.pass === 'timed'
        ? 'stopping after the current iteration; every sample is kept, then the partial run is analysed'
        : `stopping the ${name} after its current call; every sample is kept`,
    stop() {
      p.stopAt = performance.now();
      // Setup: there is no loop to stop yet.
      if (!p.header) p.end({ type: 'done', status: 'interrupted', phase: 'setup', error: null });
      else requestStop(p.sab);
    },
    now() {
      abandonRun(p.sab);
      p.worker.terminate();
      // Before the timed pass's first sample there is no log: nothing to report.
      const recoverable = p.log.opened || p.pass !== 'timed';
      p.log.close();
      if (logPath === null) return; // nothing on disk to recover
      const dir = dirname(logPath);
      if (!recoverable) {
        writeStoppedSummary(dir, target, p.cfg, { during: 'setup', cutShort: ['setup', 'the run'] });
        return;
      }
      process.stderr.write(
        `wasm-soak: every sample recorded so far is kept in ${dir}; \`wasm-soak report ${dir}\` analyses it.\n`,
      );
      writeStoppedSummary(dir, target, p.cfg, {
        during: name,
        cutShort: ['the rest of the run', 'analysis', 'reports'],
        recover: true,
      });
    },
  };
}
