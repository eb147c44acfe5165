// Orchestrates one soak run on the main thread: spawns the worker, writes the
// log header, drains the ring into the log, shows progress (with the
// preliminary verdict of the run so far), handles signals, then analyses the
// log and writes the result folder (or, for the library's soak() without
// `out`, keeps the log in memory and writes nothing).

import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { toReplicate } from '../analysis/analyze.js';
import { createLiveAnalysis } from '../analysis/live.js';
import { readLogs, readRun } from '../analysis/log-reader.js';
import { checkBinaryen } from '../binaryen.js';
import { EXIT, SoakError, usageError } from '../errors.js';
import { RESULTS_ROOT } from '../options/schema.js';
import { CTL, CTL_WORDS, LOG_VERSION, PHASE } from '../protocol.js';
import { formatCount } from '../report/format.js';
import { analyzeInto } from '../report/result.js';
import { writeSummaryOrPrint } from '../report/summary-json.js';
import { TOOL } from '../version.js';
import { readSymbols } from '../worker/allocator/frame-names.js';
import { abandonRun, createDrain, createRing, requestStop } from './drain.js';
import { describeEnvironment } from './env.js';
import { interrupts } from './interrupt.js';
import { createLogWriter, fileSink, memorySink } from './log-writer.js';
import { prepareOutDir } from './out-dir.js';
import { createProgress, createTerminal, progressMode } from './progress.js';
import { keepRoom } from './room.js';
import { describeBytes, describeTarget } from './target.js';
import { createWatchdog, DURATION_GRACE_MS, describeState, seconds } from './watchdog.js';
import { startWorker } from './worker-start.js';

const DRAIN_MS = 10;

/** The argv that reproduces a run: the original one with its seed pinned. */
export function reproduceCommand(argv, seed) {
  const out = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--seed') i++;
    else if (!argv[i].startsWith('--seed=')) out.push(argv[i]);
  }
  return [...out, '--seed', String(seed)];
}

const quote = (a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`);

function buildHeader({ target, cfg, argv, ready }) {
  const command = ['wasm-soak', ...reproduceCommand(argv, cfg.seed)];
  return {
    format: 'wasm-soak-log',
    version: LOG_VERSION,
    tool: TOOL,
    createdAt: new Date().toISOString(),
    command,
    reproduce: command.map(quote).join(' '),
    target: { ...target, name: cfg.name ?? ready.name ?? target.name },
    seed: cfg.seed,
    config: {
      iterations: cfg.iterations,
      durationMs: cfg.durationMs,
      warmup: cfg.warmup,
      slowEvery: cfg.slowEvery,
      slowMs: cfg.slowMs,
      yieldEvery: cfg.yieldEvery,
      yieldMs: cfg.yieldMs,
      ringRecords: cfg.ringRecords,
      maxLogBytes: cfg.maxLogBytes ?? null,
      calls: cfg.calls,
      args: cfg.args,
      alloc: cfg.alloc,
      timeThreshold: cfg.timeThreshold,
      failOn: cfg.failOn,
      countAllocs: cfg.countAllocs,
      sites: cfg.sites ?? false,
      symbols: cfg.symbols ?? null,
      budgets: cfg.budgets,
    },
    ops: ready.ops,
    memories: ready.memories,
    sources: ready.sources,
    env: describeEnvironment(),
  };
}

/** A write error of the log (logPath null: the log in memory), as the run's error: the folder and the errno. */
function writeFailure(err, logPath) {
  return {
    name: 'Error',
    code: err.code ?? 'WS_EWRITE',
    message: `cannot write the sample log ${logPath === null ? 'in memory' : `in ${dirname(logPath)}`}: ${err.message}; the samples written before it are kept`,
    stack: err.stack,
  };
}

/** What a worker that exited by itself was doing (its control words say). */
function exitOutcome(control, code, ops) {
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

// What each pass is called in messages.
const PASS_NAMES = { timed: 'run', count: 'counting pass', replica: 'second timed pass' };

/**
 * Runs one pass of target in a fresh worker and writes its log at logPath,
 * or with logPath null into memory (memorySink). pass is 'timed', 'count'
 * (the counting pass: instrumented allocator, same seed and iteration
 * sequence) or 'replica' (the timed pass again, same seed and calls).
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
 */
export async function runPass({ target, cfg, argv, logPath, outputs, pass, interrupt, hooks = null, bytes = null }) {
  const sab = createRing(cfg.ringRecords);
  hooks?.onRing(sab);
  const control = new Int32Array(sab, 0, CTL_WORDS);
  const worker = startWorker(new URL('../worker/worker.js', import.meta.url), {
    workerData: {
      ring: sab,
      config: { ...cfg, countPass: pass === 'count' },
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
  // What the target prints goes above the bar, line by line; with --json
  // its stdout goes to stderr, so that stdout holds only the summary.
  const mode = progressMode({ quiet: cfg.quiet });
  const terminal = createTerminal({ mode });
  const printed = { stdout: cfg.json ? process.stderr : process.stdout, stderr: process.stderr };
  for (const name of ['stdout', 'stderr']) {
    worker[name].setEncoding('utf8');
    worker[name].on('data', (text) => terminal.above(text, printed[name], name));
    worker[name].on('end', () => terminal.end(name));
  }

  let writer = null;
  let sink = null;
  let progress = null;
  let header = null;
  let settle;
  const settled = new Promise((resolve) => {
    settle = resolve;
  });
  let outcome = null;
  const finish = (o) => {
    if (outcome) return;
    outcome = o;
    settle(o);
  };
  const watchdog = createWatchdog({
    control,
    callTimeoutMs: cfg.callTimeoutMs ?? 0,
    setupTimeoutMs: cfg.setupTimeoutMs ?? 0,
    durationMs: cfg.durationMs,
  });
  const drain = createDrain(sab, (chunk) => {
    writer.append(chunk);
    progress.consume(chunk);
  });
  let writeError = null;
  const safeDrain = () => {
    if (!writer || writeError) return 0;
    try {
      return drain();
    } catch (err) {
      writeError = err;
      worker.terminate();
      finish({ type: 'done', status: 'failed', phase: 'log', error: writeFailure(err, logPath) });
      return 0;
    }
  };
  const closeLog = () => {
    if (!writer) return;
    while (safeDrain() > 0);
    try {
      writer.close();
    } catch (err) {
      writeError ??= err;
    }
    writer = null;
  };

  const name = PASS_NAMES[pass];
  let stopAt = null;
  let toldStuck = false;
  interrupt?.enter(name, {
    message:
      pass === 'timed'
        ? 'stopping after the current iteration; every sample is kept, then the partial run is analysed'
        : `stopping the ${name} after its current call; every sample is kept`,
    stop() {
      stopAt = performance.now();
      if (!header) {
        // Setup: there is no loop to stop yet.
        worker.terminate();
        finish({ type: 'done', status: 'interrupted', phase: 'setup', error: null });
      } else requestStop(sab);
    },
    now() {
      abandonRun(sab);
      worker.terminate();
      // Before the timed pass's first sample there is no log: nothing to report.
      const recoverable = writer !== null || pass !== 'timed';
      closeLog();
      if (logPath === null) return; // nothing on disk to recover
      const dir = dirname(logPath);
      if (!recoverable) {
        writeStoppedSummary(dir, target, cfg, { during: 'setup', cutShort: ['setup', 'the run'] });
        return;
      }
      process.stderr.write(
        `wasm-soak: every sample recorded so far is kept in ${dir}; \`wasm-soak report ${dir}\` analyses it.\n`,
      );
      writeStoppedSummary(dir, target, cfg, {
        during: name,
        cutShort: ['the rest of the run', 'analysis', 'reports'],
        recover: true,
      });
    },
  });

  const timer = setInterval(() => {
    if (writer) {
      safeDrain();
      progress?.tick(); // it redraws at its own pace
    }
    const hang = watchdog.check();
    if (hang) {
      const d = describeState(hang, header?.ops);
      const limit =
        hang.by === 'duration'
          ? `was still running ${seconds(DURATION_GRACE_MS)} after --duration ${seconds(cfg.durationMs)} ran out`
          : `did not ${d.pending ? 'settle' : hang.phase === PHASE.setup || hang.phase === PHASE.load ? 'finish' : 'return'} within ${seconds(hang.by === 'setup-timeout' ? cfg.setupTimeoutMs : cfg.callTimeoutMs)} (--${hang.by})`;
      const subject = d.pending ? `the promise returned by ${d.what}` : d.what;
      abandonRun(sab);
      worker.terminate();
      finish({
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
      });
    } else if (stopAt !== null && !toldStuck && performance.now() - stopAt > 2000) {
      const now = watchdog.current();
      if (now.stuckMs > 2000) {
        toldStuck = true;
        const d = describeState(now, header?.ops);
        const until = cfg.callTimeoutMs ? ` (at most until --call-timeout ${seconds(cfg.callTimeoutMs)})` : '';
        process.stderr.write(
          `wasm-soak: ${d.what} has been running for ${seconds(now.stuckMs)}; waiting for it to end${until} — press Ctrl-C again to stop now.\n`,
        );
      }
    }
  }, DRAIN_MS);

  // compare's block bound (src/compare/run-compare.js) ends a pass whose block never came.
  hooks?.onAbortable?.((error) => {
    abandonRun(sab);
    worker.terminate();
    finish({ type: 'done', status: 'failed', phase: 'block', hung: true, error });
  });
  worker.on('message', (msg) => {
    if (outcome) return;
    if (msg.type === 'ready') {
      header = {
        ...buildHeader({ target, cfg, argv, ready: msg }),
        pass,
        instrumented: msg.instrumented,
        coverage: msg.coverage,
      };
      try {
        // The cap bounds the timed passes' logs; the counting pass's is as long as the run was.
        const maxBytes = pass === 'count' ? Infinity : (cfg.maxLogBytes ?? Infinity);
        sink = logPath === null ? memorySink({ limit: maxBytes }) : fileSink(logPath);
        writer = createLogWriter(sink, header, { maxBytes });
      } catch (err) {
        worker.terminate();
        finish({ type: 'fatal', status: 'failed', phase: 'log', error: writeFailure(err, logPath) });
        return;
      }
      watchdog.started();
      // The timed pass's preliminary verdict only: the second timed pass decides nothing on its own.
      const trend = mode === 'none' || pass !== 'timed' ? null : createLiveAnalysis({ header, cfg });
      const label = {
        timed: header.target.name,
        count: `${header.target.name} (counting allocations)`,
        replica: `${header.target.name} (again)`,
      }[pass];
      progress = createProgress({
        name: label,
        total: cfg.iterations,
        durationMs: cfg.durationMs,
        mode,
        terminal,
        trend,
      });
      hooks?.onMessage(msg);
    } else if (msg.type === 'drain') {
      safeDrain();
    } else if (msg.type === 'done' || msg.type === 'fatal') {
      finish(msg);
    } else hooks?.onMessage(msg);
  });
  worker.on('error', (err) =>
    finish({
      type: 'done',
      status: 'failed',
      phase: 'worker',
      error: { name: err.name, message: `the worker died: ${err.message}`, stack: err.stack },
    }),
  );
  worker.on('exit', (code) => finish(exitOutcome(control, code, header?.ops)));

  await settled;
  clearInterval(timer);
  const wroteLog = writer !== null;
  closeLog();
  // A write that failed after the worker ended (its last records, the close)
  // fails the run as one during it does: the exit code never depends on
  // which came first.
  if (writeError && outcome.status !== 'failed')
    outcome = { ...outcome, status: 'failed', phase: 'log', error: writeFailure(writeError, logPath) };
  if (progress) progress.finish();
  else terminal.close(null);
  await worker.terminate();
  return { outcome, wroteLog, memoryLog: logPath === null && wroteLog ? sink.bytes : null };
}

/**
 * Writes a summary that says the run stopped before its analysis: during
 * (setup, run, counting pass) and cutShort say where and what was lost;
 * recover (a log was written, a second signal stopped it) names `wasm-soak
 * report DIR`, which analyses it; without a log there is nothing it could
 * read, so no command is named. Never throws; to stderr when the folder
 * cannot take it.
 */
function writeStoppedSummary(dir, target, cfg, { during, cutShort, recover = false }) {
  const summary = {
    schema: 'wasm-soak-summary',
    version: 1,
    tool: TOOL,
    name: target.name,
    status: 'interrupted',
    exitCode: EXIT.INTERRUPTED,
    seed: cfg.seed,
    error: null,
    interrupted: { during, cutShort, ...(recover ? { recover: `wasm-soak report ${dir}` } : {}) },
  };
  writeSummaryOrPrint(dir, summary);
}

// What the user is told when a finding is timed again, by toReplicate's answer.
const REPLICA_WORDS = {
  slowdown: 'time per call rose across the run',
  peaks: 'memory grew to hold peaks of blocks freed late',
};

/**
 * When the completed timed pass (runPass's timed, run its outcome) flags a
 * slowdown or growth held by peaks (toReplicate), times the same calls again
 * in a fresh worker (the replica: same seed, same iterations) into
 * samples-replica.wslog, so that the finding stands only if it recurs
 * (docs/verdicts.md, "A finding must recur").
 * Returns the replica's log bytes when kept in memory, else null; a signal
 * during it marks run interrupted. inDir names a file of the result folder
 * (null in memory).
 */
async function replicate({ target, cfg, argv, timed, run, inDir, outputs, interrupt, bytes }) {
  const logPath = inDir('samples-replica.wslog');
  if (logPath) rmSync(logPath, { force: true });
  if (run.status !== 'completed' || interrupt.interrupted) return null;
  const what = toReplicate(readRun(timed.memoryLog ?? inDir('samples.wslog')), cfg);
  if (!what) return null;
  const calls = timed.outcome.completed - (timed.outcome.firstIteration ?? 0);
  if (!cfg.quiet)
    process.stderr.write(
      `wasm-soak: ${REPLICA_WORDS[what]}; timing the same ${formatCount(calls)} calls again to see whether it recurs.\n`,
    );
  const pass = await runPass({
    target,
    cfg: { ...cfg, iterations: calls, durationMs: null },
    argv,
    logPath,
    outputs,
    pass: 'replica',
    interrupt,
    bytes,
  });
  if (pass.outcome.status === 'interrupted') run.status = 'interrupted';
  return pass.wroteLog ? pass.memoryLog : null;
}

/**
 * Turns a pass that never started into the right error (exit 2, 3 or 130),
 * writing its summary into outDir (none when outDir is null).
 */
export function startFailure(outcome, target, cfg, outDir) {
  if (outcome.status === 'interrupted') {
    if (outDir !== null) writeStoppedSummary(outDir, target, cfg, { during: 'setup', cutShort: ['setup', 'the run'] });
    return new SoakError('WS_EINTR', `${target.name}: interrupted during setup, before the first sample.`, {
      exitCode: EXIT.INTERRUPTED,
    });
  }
  const e = outcome.error ?? { name: 'Error', message: 'the worker ended before the run started' };
  if (e.exitCode === EXIT.USAGE)
    return new SoakError(e.code ?? 'WS_EUSAGE', e.message, { fix: e.fix, exitCode: EXIT.USAGE });
  // A raw module has no setup of its own: its "setup" is its instantiation.
  const setup = target.kind === 'module' ? 'the module could not be instantiated' : 'setup failed';
  const where = { setup, load: 'loading the target failed', log: 'the log could not be written' };
  const message = `${target.name}: ${where[outcome.phase] ?? 'the run could not start'}: ${e.message}`;
  // Without a result folder (the library's in-memory run) the details are the error's cause.
  const kept = outDir === null ? "the error's cause" : 'summary.json';
  const fix = e.fix
    ? e.fix
    : outcome.phase === 'setup'
      ? `Fix the scenario's setup; the stack is in ${kept}.`
      : outcome.phase === 'log'
        ? outDir === null
          ? 'Give soak() a smaller maxLogBytes, or an out folder to write the log to.'
          : 'Free space in the result folder or choose another with --out.'
        : outcome.phase === 'load'
          ? `Check the target; details are in ${kept}.`
          : `The stack is in ${kept}; please report it with the command line.`;
  const summary = {
    schema: 'wasm-soak-summary',
    version: 1,
    tool: TOOL,
    name: target.name,
    status: 'failed',
    exitCode: EXIT.FAILED,
    verdict: 'error',
    seed: cfg.seed,
    error: {
      message: e.message,
      name: e.name,
      code: e.code ?? null,
      phase: outcome.phase,
      iteration: null,
      op: null,
      stack: e.stack,
    },
  };
  if (outDir !== null) writeSummaryOrPrint(outDir, summary);
  return new SoakError(e.code === 'WS_EHUNG' ? 'WS_EHUNG' : 'WS_ESETUP', message, {
    fix,
    exitCode: EXIT.FAILED,
    cause: outDir === null ? summary.error : undefined,
  });
}

/** Says where a previous result went (prepareOutDir moved it aside); given: the folder as the user named it. */
export function tellMovedAside(given, out) {
  if (out.movedTo)
    process.stderr.write(
      `wasm-soak: ${given} held a previous result; it is kept as ${given}${out.movedTo.slice(out.path.length)} (--force writes over it instead).\n`,
    );
}

export const runOf = (outcome) => ({
  status: outcome.type === 'fatal' ? 'failed' : outcome.status,
  reason: outcome.reason,
  phase: outcome.phase,
  error: outcome.error,
  untrackedMemories: outcome.untrackedMemories ?? 0,
});

/**
 * Runs source (a target's path, or { bytes, name }: a module's bytes) with cfg. argv is the command line after `wasm-soak` (kept
 * in the header to reproduce the run). With cfg.countAllocs a counting pass
 * follows the timed one, over the same iterations. interrupt: what stops the
 * run early (default: the command's SIGINT/SIGTERM handlers, interrupt.js;
 * the library passes its AbortSignal's, abort.js). inMemory (the library's
 * soak() without `out`): no result folder; the logs stay in memory, the
 * module's WASI stdout and stderr go to the process's, and nothing is
 * written anywhere (outDir null, summary.outputs null). The result folder
 * is locked from before anything in it moves until the run ends
 * (folder-lock.js). Returns { exitCode,
 * summary, outDir }. Throws SoakError (exit 2) for input problems found
 * before any sample, (exit 3) when the target could not start.
 */
export async function runTarget(source, cfg, argv, { interrupt: given, inMemory = false } = {}) {
  const startedAt = performance.now();
  const bytes = typeof source === 'string' ? null : source.bytes;
  const target = bytes ? describeBytes(bytes, source.name) : describeTarget(source);
  if (target.kind === 'native') {
    throw usageError(
      'WS_ETARGET',
      `${source} is a native shared library; only compare runs one, as an arm beside the wasm build of the same source.`,
      `Run \`wasm-soak compare LIB.wasm ${source} --call …\` (docs/compare.md, "The native yardstick").`,
    );
  }
  if (cfg.countAllocs) checkBinaryen();
  if (cfg.symbols) readSymbols(cfg.symbols); // a usage error before any run
  // A suite names its targets (cfg.name); that name wins over the file's.
  if (cfg.name) target.name = cfg.name;
  const named = cfg.out ?? join(RESULTS_ROOT, target.name);
  const out = inMemory ? null : prepareOutDir(named, { force: cfg.force });
  try {
    return await runInto(out, { named, target, bytes, cfg, argv, startedAt, interrupt: given });
  } finally {
    out?.release();
  }
}

/**
 * runTarget's run into out (prepareOutDir's, locked; null: in memory):
 * the timed pass, the counting pass, the analysis and the reports.
 */
async function runInto(out, { named, target, bytes, cfg, argv, startedAt, interrupt: given }) {
  const room = out ? keepRoom(out.path) : null;
  try {
    return await passesInto(out, room, { named, target, bytes, cfg, argv, startedAt, interrupt: given });
  } finally {
    room?.free();
  }
}

/**
 * runInto's passes and analysis; room (keepRoom's, or null in memory) is
 * freed before the summary is written, so that a disk the logs filled
 * still takes it.
 */
async function passesInto(out, room, { named, target, bytes, cfg, argv, startedAt, interrupt: given }) {
  const outDir = out?.path ?? null;
  const interrupt = given ?? interrupts();
  const inDir = (file) => (outDir === null ? null : join(outDir, file));
  const outputs = outDir === null ? null : { stdout: inDir('module-stdout.txt'), stderr: inDir('module-stderr.txt') };
  const timed = await runPass({
    target,
    cfg,
    argv,
    logPath: inDir('samples.wslog'),
    outputs,
    pass: 'timed',
    interrupt,
    bytes,
  });
  if (!timed.wroteLog) {
    room?.free();
    const err = startFailure(timed.outcome, target, cfg, outDir);
    // A usage error leaves nothing on disk (the previous result is back in place).
    if (err.exitCode === EXIT.USAGE) out?.discard();
    else if (out) tellMovedAside(named, out);
    throw err;
  }
  if (out) tellMovedAside(named, out);
  const run = runOf(timed.outcome);

  let count = null;
  let countLog = null;
  let sites = null;
  const countPath = inDir('samples-count.wslog');
  const sitesPath = inDir('sites.json');
  for (const path of [countPath, sitesPath]) if (path) rmSync(path, { force: true });
  if (cfg.countAllocs && run.status === 'completed' && !interrupt.interrupted) {
    // The same calls again: from the counter's start (a test hook's, else 0) to where it stopped.
    const completed = timed.outcome.completed - (timed.outcome.firstIteration ?? 0);
    const countCfg = { ...cfg, iterations: completed, durationMs: null };
    const pass = await runPass({
      target,
      cfg: countCfg,
      argv,
      logPath: countPath,
      outputs,
      pass: 'count',
      interrupt,
      bytes,
    });
    count = pass.wroteLog
      ? runOf(pass.outcome)
      : { status: pass.outcome.status, phase: pass.outcome.phase, error: pass.outcome.error };
    if (count.status === 'interrupted') run.status = 'interrupted';
    if (pass.wroteLog) countLog = pass.memoryLog;
    sites = pass.outcome.sites ?? null;
  }
  const replicaLog = await replicate({ target, cfg, argv, timed, run, inDir, outputs, interrupt, bytes });
  room?.free();
  // The sites beside the counting pass's log (docs/log-format.md, "sites.json").
  if (sites && sitesPath) writeFileSync(sitesPath, JSON.stringify(sites));
  const logs =
    outDir === null ? readLogs({ timed: timed.memoryLog, counted: countLog, replica: replicaLog, sites }) : null;
  const summary = await analyzeInto(outDir, { cfg: { ...cfg, startedAt }, run, count, interrupt, logs });
  return { exitCode: summary.exitCode, summary, outDir };
}
