// Orchestrates one soak run on the main thread: the result folder, the
// timed pass (pass.js: the worker, its log, progress and signals), the
// counting pass and the second timed pass when they are due, then the
// analysis and the result folder's files (or, for the library's soak()
// without `out`, the logs kept in memory and no file written).

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { toReplicate } from '../analysis/analyze.js';
import { decodeLog, readLogs } from '../analysis/log-reader.js';
import { checkBinaryen } from '../binaryen.js';
import { EXIT, SoakError, usageError } from '../errors.js';
import { RESULTS_ROOT } from '../options/schema.js';
import { formatCount } from '../report/format.js';
import { analyzeInto } from '../report/result.js';
import { writeSummaryOrPrint } from '../report/summary-json.js';
import { writeResultFile } from '../result-file.js';
import { TOOL } from '../version.js';
import { readSymbols } from '../worker/allocator/frame-names.js';
import { keepReserve, reserveFor } from './disk-reserve.js';
import { interrupts } from './interrupt.js';
import { prepareOutDir } from './out-dir.js';
import { runPass } from './pass.js';
import { splitPass } from './split-pass.js';
import { writeStoppedSummary } from './stopped-summary.js';
import { describeBytes, describeTarget } from './target.js';

/**
 * The seed of a second run that must not repeat the first run's draws (a
 * memory finding's replica): seed plus the golden-ratio constant, mod 2^32,
 * so that it is reproducible from the run's own seed.
 */
export function replicaSeed(seed) {
  return (seed + 0x9e3779b9) % 2 ** 32;
}

// The second run by toReplicate's answer: its seed from the run's, and what
// the user is told (calls: the count in words).
const REPLICA = {
  slowdown: {
    seed: (seed) => seed,
    words: (calls) => `time per call rose across the run; timing the same ${calls} calls again`,
  },
  memory: {
    seed: replicaSeed,
    words: (calls, seed) =>
      `memory rose in a way this run alone cannot tell from its own wander; running ${calls} calls again with another seed (${seed})`,
  },
};

/**
 * When the completed timed pass (runPass's timed, run its outcome) flags a
 * slowdown, or a memory finding or question that must recur (toReplicate),
 * runs the calls again in a fresh worker (the replica: the same iterations;
 * the same seed for a slowdown, replicaSeed for memory, whose wander the
 * same draws would repeat) into samples-replica.wslog, so that the finding
 * stands only if it recurs (docs/verdicts.md, "A finding must recur").
 * Returns the replica's log bytes when kept in memory, else null; a signal
 * during it marks run interrupted. inDir names a file of the result folder
 * (null in memory).
 */
async function replicate({ target, cfg, argv, timed, run, inDir, outputs, interrupt, bytes }) {
  const logPath = inDir('samples-replica.wslog');
  if (logPath) rmSync(logPath, { force: true });
  if (run.status !== 'completed' || interrupt.interrupted) return null;
  const what = toReplicate(decodeLog(timed.memoryLog ?? inDir('samples.wslog')), cfg);
  if (!what) return null;
  const calls = timed.outcome.completed - (timed.outcome.firstIteration ?? 0);
  const seed = REPLICA[what].seed(cfg.seed);
  if (!cfg.quiet)
    process.stderr.write(`wasm-soak: ${REPLICA[what].words(formatCount(calls), seed)} to see whether it recurs.\n`);
  const pass = await runPass({
    target,
    cfg: { ...cfg, seed, iterations: calls, durationMs: null },
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
  decided: outcome.decided ?? null,
  threads: outcome.threads ?? null,
});

/**
 * The counting pass's outcome as the analysis takes it (count): runOf's,
 * with the frees it matched and did not ({ matched, unmatched }, or null),
 * when it wrote its log; else how it ended.
 */
export const countOf = ({ wroteLog, outcome }) =>
  wroteLog
    ? { ...runOf(outcome), frees: outcome.frees ?? null }
    : { status: outcome.status, phase: outcome.phase, error: outcome.error };

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
  if (cfg.countAllocs || cfg.timeSplit) checkBinaryen();
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
  const reserve = out ? keepReserve(out.path) : null;
  try {
    return await passesInto(out, reserve, { named, target, bytes, cfg, argv, startedAt, interrupt: given });
  } finally {
    reserve?.free();
  }
}

/**
 * runInto's passes and analysis; reserve (keepReserve's, or null in memory) is
 * freed before the summary is written, so that a disk the logs filled
 * still takes it.
 */
async function passesInto(out, reserve, { named, target, bytes, cfg, argv, startedAt, interrupt: given }) {
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
    // The summary's disk reserve, grown to the run's ops before the log fills the disk.
    onHeader: (header) => reserve?.grow(reserveFor(header.ops)),
  });
  if (!timed.wroteLog) {
    reserve?.free();
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
  const blocksPath = inDir('blocks.json');
  const objectsPath = inDir('objects.json');
  const splitPath = inDir('time-split.json');
  for (const path of [countPath, sitesPath, blocksPath, objectsPath, splitPath])
    if (path) rmSync(path, { force: true });
  // What leaked blocks hold, picked at the end of the timed pass (docs/report.md, "The result folder").
  const blocks = timed.outcome.blocks ?? null;
  // The glue's objects by class, counted in the timed pass (docs/allocator.md, "Objects the JS side owns").
  const objects = timed.outcome.objects ?? null;
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
    count = countOf(pass);
    if (count.status === 'interrupted') run.status = 'interrupted';
    if (pass.wroteLog) countLog = pass.memoryLog;
    sites = pass.outcome.sites ?? null;
  }
  const timeSplit = cfg.timeSplit
    ? await splitPass({ target, cfg, argv, timed, run, outputs, interrupt, bytes })
    : null;
  const replicaLog = await replicate({ target, cfg, argv, timed, run, inDir, outputs, interrupt, bytes });
  reserve?.free();
  // The sites beside the counting pass's log (docs/log-format.md, "sites.json").
  if (sites && sitesPath) writeResultFile(sitesPath, JSON.stringify(sites));
  if (blocks && blocksPath) writeResultFile(blocksPath, JSON.stringify(blocks));
  if (objects && objectsPath) writeResultFile(objectsPath, JSON.stringify(objects));
  if (timeSplit && splitPath) writeResultFile(splitPath, JSON.stringify(timeSplit));
  const logs =
    outDir === null
      ? readLogs({ timed: timed.memoryLog, counted: countLog, replica: replicaLog, sites, blocks, objects, timeSplit })
      : null;
  const summary = await analyzeInto(outDir, { cfg: { ...cfg, startedAt }, run, count, interrupt, logs });
  return { exitCode: summary.exitCode, summary, outDir };
}
