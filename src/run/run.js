// Orchestrates one soak run on the main thread: spawns the worker, writes the
// log header, drains the ring into the log, shows progress (with the
// preliminary verdict of the run so far), handles signals, then analyses the
// log and writes the result folder.

import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { analyze } from '../analysis/analyze.js';
import { createLiveAnalysis } from '../analysis/live.js';
import { readResultLogs } from '../analysis/log-reader.js';
import { EXIT, SoakError } from '../cli/exit-codes.js';
import { RESULTS_ROOT } from '../cli/options.js';
import { writeResult } from '../report/result.js';
import { writeSummary } from '../report/summary-json.js';
import { VERSION } from '../version.js';
import { createDrain, createRing, requestStop } from './drain.js';
import { describeEnvironment } from './env.js';
import { createLogWriter } from './log-writer.js';
import { createProgress } from './progress.js';
import { describeTarget } from './target.js';

const DRAIN_MS = 10;
const TICK_EVERY = 5; // progress every 5 drains (250 ms)

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
    version: 1,
    tool: { name: 'wasm-soak', version: VERSION },
    createdAt: new Date().toISOString(),
    command,
    reproduce: command.map(quote).join(' '),
    target: { ...target, name: ready.name ?? target.name },
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
      calls: cfg.calls,
      args: cfg.args,
      alloc: cfg.alloc,
      timeThreshold: cfg.timeThreshold,
      failOn: cfg.failOn,
      countAllocs: cfg.countAllocs,
      budgets: cfg.budgets,
    },
    ops: ready.ops,
    memories: ready.memories,
    sources: ready.sources,
    env: describeEnvironment(),
  };
}

function progressMode(cfg) {
  if (cfg.quiet) return 'none';
  return process.stderr.isTTY ? 'tty' : 'lines';
}

/**
 * Runs one pass of target in a fresh worker and writes its log at logPath.
 * pass is 'timed' or 'count' (the counting pass: instrumented allocator, same
 * seed and iteration sequence). Returns { outcome, wroteLog, signals }.
 */
async function runPass({ target, cfg, argv, logPath, outputs, pass }) {
  const sab = createRing(cfg.ringRecords);
  const worker = new Worker(new URL('../worker/worker.js', import.meta.url), {
    workerData: {
      ring: sab,
      config: { ...cfg, countPass: pass === 'count' },
      target: { kind: target.kind, path: target.path },
      outputs,
    },
    stdout: false,
    stderr: false,
  });

  let writer = null;
  let progress = null;
  let drainTimer = null;
  let ticks = 0;
  const drain = createDrain(sab, (chunk) => {
    writer.append(chunk);
    progress.consume(chunk);
  });

  let signals = 0;
  const onSignal = () => {
    signals++;
    if (signals === 1) requestStop(sab);
    else worker.terminate();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const outcome = await new Promise((resolve) => {
    worker.on('message', (msg) => {
      if (msg.type === 'ready') {
        const header = { ...buildHeader({ target, cfg, argv, ready: msg }), pass, instrumented: msg.instrumented };
        writer = createLogWriter(logPath, header);
        const mode = progressMode(cfg);
        const trend = mode === 'none' || pass === 'count' ? null : createLiveAnalysis({ header, cfg });
        const name = pass === 'count' ? `${header.target.name} (counting allocations)` : header.target.name;
        progress = createProgress({ name, total: cfg.iterations, durationMs: cfg.durationMs, mode, trend });
        drainTimer = setInterval(() => {
          drain();
          if (++ticks % TICK_EVERY === 0) progress.tick();
        }, DRAIN_MS);
      } else if (msg.type === 'drain') {
        drain();
      } else if (msg.type === 'done' || msg.type === 'fatal') {
        resolve(msg);
      }
    });
    worker.on('error', (err) =>
      resolve({
        type: 'done',
        status: 'failed',
        phase: 'worker',
        error: { name: err.name, message: `the worker died: ${err.message}`, stack: err.stack },
      }),
    );
    worker.on('exit', (code) =>
      resolve({
        type: 'done',
        status: signals > 1 ? 'interrupted' : 'failed',
        phase: 'worker',
        error: signals > 1 ? null : { name: 'Error', message: `the worker exited unexpectedly (code ${code})` },
      }),
    );
  });
  clearInterval(drainTimer);
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  if (writer) {
    while (drain() > 0);
    writer.close();
    progress.finish();
  }
  await worker.terminate();
  return { outcome, wroteLog: writer !== null, signals };
}

/** Turns a pass that never started into the right error (exit 2 or 3). */
function startFailure(outcome, target, cfg, outDir) {
  const e = outcome.error ?? { name: 'Error', message: 'the worker ended before the run started' };
  if (e.exitCode === EXIT.USAGE)
    return new SoakError(e.code ?? 'WS_EUSAGE', e.message, { fix: e.fix, exitCode: EXIT.USAGE });
  const message =
    outcome.phase === 'setup'
      ? `${target.name}: setup failed: ${e.message}`
      : `${target.name}: the run could not start: ${e.message}`;
  const fix =
    outcome.phase === 'setup'
      ? "Fix the scenario's setup; the stack is in summary.json."
      : 'The stack is in summary.json; please report it with the command line.';
  const summary = {
    schema: 'wasm-soak-summary',
    version: 1,
    name: target.name,
    status: 'failed',
    exitCode: EXIT.FAILED,
    seed: cfg.seed,
    error: { message: e.message, name: e.name, phase: outcome.phase, iteration: null, op: null, stack: e.stack },
  };
  writeSummary(outDir, summary);
  return new SoakError('WS_ESETUP', message, { fix, exitCode: EXIT.FAILED });
}

const runOf = (outcome) => ({
  status: outcome.type === 'fatal' ? 'failed' : outcome.status,
  reason: outcome.reason,
  phase: outcome.phase,
  error: outcome.error,
  untrackedMemories: outcome.untrackedMemories ?? 0,
});

/**
 * Runs targetPath with cfg. argv is the command line after `wasm-soak` (kept
 * in the header to reproduce the run). With cfg.countAllocs a counting pass
 * follows the timed one, over the same iterations. Returns { exitCode,
 * summary, outDir }. Throws SoakError (exit 2) for input problems found
 * before any sample, (exit 3) when the target could not start.
 */
export async function runTarget(targetPath, cfg, argv) {
  const target = describeTarget(targetPath);
  const outDir = cfg.out ?? join(RESULTS_ROOT, target.name);
  mkdirSync(outDir, { recursive: true });
  const outputs = { stdout: join(outDir, 'module-stdout.txt'), stderr: join(outDir, 'module-stderr.txt') };
  // The worker measures the JS heap that survives full GCs (src/worker.js);
  // isolates created after this get gc().
  setFlagsFromString('--expose-gc');
  const timed = await runPass({ target, cfg, argv, logPath: join(outDir, 'samples.wslog'), outputs, pass: 'timed' });
  if (!timed.wroteLog) throw startFailure(timed.outcome, target, cfg, outDir);
  const run = runOf(timed.outcome);

  let count = null;
  const countLog = join(outDir, 'samples-count.wslog');
  rmSync(countLog, { force: true });
  if (cfg.countAllocs && run.status === 'completed') {
    const completed = timed.outcome.completed;
    const countCfg = { ...cfg, iterations: completed, durationMs: null };
    const pass = await runPass({ target, cfg: countCfg, argv, logPath: countLog, outputs, pass: 'count' });
    count = pass.wroteLog
      ? runOf(pass.outcome)
      : { status: 'failed', phase: pass.outcome.phase, error: pass.outcome.error };
    if (count.status === 'interrupted') run.status = 'interrupted';
  }
  const summary = await writeResult(outDir, analyze({ ...readResultLogs(outDir), cfg, run, count }), cfg);
  return { exitCode: summary.exitCode, summary, outDir };
}
