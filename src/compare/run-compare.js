// Runs a comparison on the main thread: one worker per arm (each keeps its
// own instance for the whole comparison, so long-run behaviour still
// accumulates), all prepared before the first call, then serial rounds in
// ABBA order (design.js) in which the main thread grants each arm one block
// in turn (CTL.grant; the worker's C loop runs the block, src/worker/blocks.js)
// while the others wait paused. Every arm runs the same seeded call
// sequence. Then a counting pass per arm, each arm's own result folder
// (summary, verdict, reports), and the comparison's analysis (facts), its
// words (src/report/compare-words.js) and outputs (src/report/compare-page.js):
// the one file of src/compare/ that imports src/report/.
import { closeSync, mkdirSync, openSync, readSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { judge } from '../analysis/judge.js';
import { decodeLog } from '../analysis/log-reader.js';
import { checkBinaryen } from '../binaryen.js';
import { SoakError, usageError } from '../errors.js';
import { shellLine } from '../options/argv.js';
import { RESULTS_ROOT } from '../options/schema.js';
import { CTL, CTL_WORDS } from '../protocol.js';
import { writeCompare } from '../report/compare-page.js';
import { roundWords, startConfoundsText, withCompareSentences } from '../report/compare-words.js';
import { terminalText } from '../report/escape.js';
import { formatMs } from '../report/format.js';
import { analyzeInto } from '../report/result.js';
import { writeResultFile } from '../result-file.js';
import { requestStop } from '../run/drain.js';
import { interrupts } from '../run/interrupt.js';
import { pinSeed } from '../run/log-header.js';
import { prepareOutDir } from '../run/out-dir.js';
import { runPass } from '../run/pass.js';
import { countOf, runOf, startFailure, tellMovedAside } from '../run/run.js';
import { describeTarget } from '../run/target.js';
import { analyzeCompare } from './analyze-compare.js';
import { buildBoundaryModule } from './boundary.js';
import { runChildPass } from './child-pass.js';
import { compareConfounds } from './confounds.js';
import { blockOrder, describeOrder, roundOrder } from './design.js';
import { moduleFacts } from './module-facts.js';
import { nativeFacts } from './native-facts.js';
import { firstMismatch } from './outputs.js';
import { packageArms } from './package-arms.js';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Whether the file at path starts as a WebAssembly module does (\0asm). */
function isWasm(path) {
  const fd = openSync(path, 'r');
  try {
    const magic = Buffer.alloc(4);
    readSync(fd, magic, 0, 4, 0);
    return magic.toString('latin1') === '\0asm';
  } finally {
    closeSync(fd);
  }
}

/** Exit 2 for the options a scenario's arms cannot take (they need raw modules). */
function checkScenarioOptions(path, cfg) {
  for (const [option, given] of [
    ['--check-outputs', cfg.checkOutputs],
    ['--boundary', cfg.boundary],
  ]) {
    if (given) {
      throw usageError(
        'WS_EUSAGE',
        `${option} needs raw modules; ${path} is a scenario.`,
        `Leave ${option} out, or compare the modules directly.`,
      );
    }
  }
}

/** The arms of one scenario run against each --arm module: its setup(ctx) gets ctx.arm. */
function scenarioArms(path, target, cfg) {
  if (cfg.package.length) {
    checkScenarioOptions(path, cfg);
    return packageArms(path, target, cfg);
  }
  if (cfg.arm.length < 2) {
    throw usageError(
      'WS_EUSAGE',
      `compare ${path} needs at least 2 --arm NAME=PATH, got ${cfg.arm.length}.`,
      'Give the scenario one module per arm: --arm A=a.wasm --arm B=b.wasm (its setup(ctx) loads ctx.arm.path), or one version of an npm package per arm: --package NAME@1.2.3 --package NAME@1.3.0.',
    );
  }
  checkScenarioOptions(path, cfg);
  return cfg.arm.map(({ name, path: module }) => {
    // Exit 2 when it is missing, or is no WebAssembly module (a package's .js glue, a scenario, a .so).
    const arm = describeTarget(module);
    if (arm.kind !== 'module' || !isWasm(module))
      throw usageError(
        'WS_EUSAGE',
        `--arm ${name}=${module}: an arm of a scenario is a WebAssembly module (its .wasm file), and ${module} is ${arm.kind === 'scenario' ? 'JavaScript (a glue file or a scenario)' : arm.kind === 'native' ? 'a native library' : 'not one'}.`,
        `Give each build's .wasm file (for wasm-pack, pkg/NAME_bg.wasm beside the glue): the scenario's setup(ctx) loads its glue with the module at ctx.arm.path. A native library is an arm of raw modules only: wasm-soak compare a.wasm b.so.`,
      );
    return { name, role: 'arm', path: module, target: { ...target, arm: { name, path: resolve(module) } } };
  });
}

/**
 * Gives each native arm the wasm arm whose signatures it is called with
 * (target.reference): A, which must be a wasm module (exit 2 otherwise).
 */
function referNativeArms(arms) {
  if (!arms.some((a) => a.target.kind === 'native')) return;
  if (arms[0].target.kind !== 'module') {
    throw usageError(
      'WS_EUSAGE',
      `compare's first arm is the reference and a native arm takes its signatures from it, but ${arms[0].path} is a native library.`,
      'Give the wasm build first: wasm-soak compare lib.wasm lib.so --call … (docs/compare.md, "The native yardstick").',
    );
  }
  for (const a of arms) if (a.target.kind === 'native') a.target = { ...a.target, reference: arms[0].target.path };
}

/** The arms (A, B, … or the --arm names), the control (a copy of the first) and nothing else yet. */
function describeArms(paths, cfg) {
  if (paths.length > LETTERS.length) {
    throw usageError('WS_EUSAGE', `compare takes at most ${LETTERS.length} arms.`, 'Compare fewer modules at once.');
  }
  const targets = paths.map((path) => describeTarget(path));
  let arms;
  if (targets[0].kind === 'scenario' && paths.length === 1) arms = scenarioArms(paths[0], targets[0], cfg);
  else {
    const scenario = targets.findIndex((t) => t.kind === 'scenario');
    if (scenario >= 0) {
      throw usageError(
        'WS_ETARGET',
        `compare takes raw modules, or one scenario with --arm; ${paths[scenario]} is a scenario among modules.`,
        'Give .wasm modules that export the --call function(s), or the scenario alone with --arm NAME=PATH per build.',
      );
    }
    if (paths.length < 2) {
      throw usageError(
        'WS_EUSAGE',
        `compare needs at least 2 modules, got ${paths.length}.`,
        'Give A.wasm and B.wasm.',
      );
    }
    if (cfg.arm.length || cfg.package.length) {
      const option = cfg.arm.length ? '--arm' : '--package';
      throw usageError(
        'WS_EUSAGE',
        `${option} is for a scenario.`,
        'Give the modules as operands instead, or one scenario.',
      );
    }
    arms = paths.map((path, i) => ({ name: LETTERS[i], role: 'arm', path, target: targets[i] }));
    referNativeArms(arms);
  }
  if (cfg.control) {
    const first = arms[0];
    const target = first.target.arm ? { ...first.target, arm: { ...first.target.arm, name: 'control' } } : first.target;
    arms.push({ ...first, name: 'control', role: 'control', target });
  }
  return arms;
}

/** Prints the stated confounds the modules alone show, before any number. */
function printConfounds(arms, stream) {
  const shown = arms
    .filter((a) => a.role !== 'boundary')
    .map((a) => ({
      name: a.name,
      kind: a.facts.kind,
      toolchain: a.facts.toolchain,
      flags: a.facts.flags,
      cpu: a.facts.cpu,
      producers: a.facts.producers,
      features: a.facts.features,
      imports: a.facts.imports,
      memoryLimits: a.facts.memories,
      allocator: { exports: a.facts.allocatorExports, census: undefined },
    }));
  const files = arms.map((a) => ({ name: a.name, path: a.path, sha256: a.facts.sha256, size: a.facts.size }));
  stream.write(terminalText(startConfoundsText(files, compareConfounds(shown))));
}

/**
 * A pending block of an arm: resolves when the worker reports block k, or
 * when its pass ended first (then with null). With a bound (ms, 0: none),
 * a block not reported by then ends the arm's pass as failed (abortArm),
 * naming the arm and the round, and resolves null.
 */
function blockWaiter(arm, k, boundMs) {
  return new Promise((resolve) => {
    if (arm.blocks.has(k)) return resolve(arm.blocks.get(k));
    const timer =
      boundMs > 0
        ? setTimeout(() => {
            const round = k === 0 ? 'the warm-up round' : `round ${k}`;
            arm.abort({
              name: 'Error',
              code: 'WS_EHUNG',
              message: `hung block: arm ${arm.name} did not finish its block of ${round} within ${formatMs(boundMs)} (--block-timeout); its worker was stopped`,
            });
          }, boundMs)
        : null;
    const done = (block) => {
      clearTimeout(timer);
      resolve(block);
    };
    arm.waiting = { k, resolve: done };
    arm.pass.then(() => done(arm.blocks.get(k) ?? null));
  });
}

/**
 * Starts arm's worker (a native arm's in a process of its own,
 * child-pass.js); its 'ready' and 'block' messages land on the arm, and
 * arm.grant() and arm.stop() reach its loop.
 */
function startArm(arm, cfg, argv) {
  mkdirSync(arm.dir, { recursive: true });
  let onReady;
  arm.ready = new Promise((resolve) => {
    onReady = resolve;
  });
  arm.blocks = new Map();
  arm.waiting = null;
  const hooks = {
    onRing(sab) {
      const control = new Int32Array(sab, 0, CTL_WORDS);
      hooks.onControl({
        grant() {
          Atomics.add(control, CTL.grant, 1);
          Atomics.notify(control, CTL.grant);
        },
        stop: () => requestStop(sab),
      });
    },
    onControl({ grant, stop }) {
      arm.grant = grant;
      arm.stop = () => {
        stop();
        grant();
      };
    },
    onAbortable(abort) {
      arm.abort = abort;
    },
    onMessage(msg) {
      if (msg.type === 'ready') onReady(true);
      if (msg.type !== 'block') return;
      arm.blocks.set(msg.block, msg);
      if (arm.waiting?.k === msg.block) arm.waiting.resolve(msg);
    },
  };
  const pass = {
    target: arm.target,
    cfg,
    argv,
    logPath: join(arm.dir, 'samples.wslog'),
    outputs: { stdout: join(arm.dir, 'module-stdout.txt'), stderr: join(arm.dir, 'module-stderr.txt') },
  };
  arm.pass =
    arm.target.kind === 'native'
      ? runChildPass(pass, hooks)
      : runPass({ ...pass, pass: 'timed', interrupt: null, hooks });
  arm.pass.then(() => onReady(false));
}

/** Asks every started arm to stop after its call, also one paused between blocks. */
function stopArms(arms) {
  for (const a of arms) a.stop?.();
}

/** Runs the rounds; returns the checked outputs' mismatches (at most one per arm). */
async function runRounds(arms, design, cfg, progress) {
  const mismatches = [];
  const rounds = design.blocks + 1; // round 0 warms every arm up
  for (let r = 0; r < rounds; r++) {
    const order = r === 0 ? arms.map((_, i) => i) : roundOrder(arms.length, r - 1);
    for (const i of order) {
      const arm = arms[i];
      const waiter = blockWaiter(arm, r, cfg.blockTimeoutMs);
      arm.grant();
      if ((await waiter) === null) return { mismatches, stopped: arm };
    }
    if (cfg.checkOutputs) {
      for (const m of firstMismatch(arms, r, design.blockCalls)) {
        if (!mismatches.some((x) => x.arm === m.arm)) mismatches.push(m);
      }
    }
    progress(r + 1, rounds);
  }
  return { mismatches, stopped: null };
}

/**
 * Runs each arm's counting pass when count (exact, so not interleaved; not
 * for the boundary module) and writes each arm's own result folder; sets
 * arm.summary.
 */
async function analyseArms(arms, passes, armCfg, argv, count) {
  for (const [i, a] of arms.entries()) {
    const run = runOf(passes[i].outcome);
    let counted = null;
    if (count && a.role !== 'boundary' && a.target.kind !== 'native') {
      const pass = await runPass({
        target: a.target,
        cfg: { ...armCfg, iterations: passes[i].outcome.completed },
        argv,
        logPath: join(a.dir, 'samples-count.wslog'),
        outputs: { stdout: join(a.dir, 'module-stdout.txt'), stderr: join(a.dir, 'module-stderr.txt') },
        pass: 'count',
        interrupt: null,
      });
      counted = countOf(pass);
    }
    a.summary = await analyzeInto(a.dir, { cfg: armCfg, run, count: counted, interrupt: null });
  }
}

/**
 * The result folder of a comparison, prepared and locked (prepareOutDir):
 * --out, else soak-results/compare-<A>-<B>… (a previous one moved aside).
 */
function prepareCompareDir(cfg, arms) {
  const names = arms.filter((a) => a.role === 'arm').map((a) => (a.target.arm ? a.name : a.target.name));
  const given = cfg.out ?? join(RESULTS_ROOT, `compare-${names.join('-')}`);
  const out = prepareOutDir(given);
  tellMovedAside(given, out);
  return out;
}

/**
 * Compares the modules at paths under cfg (compareConfig). argv: the command
 * line after `wasm-soak`. Returns { exitCode, result, outDir }.
 */
export async function runCompare(paths, cfg, argv) {
  const arms = describeArms(paths, cfg);
  checkBinaryen(); // every arm's counting pass rewrites its allocator
  for (const a of arms) a.facts = a.target.kind === 'native' ? nativeFacts(a.path) : moduleFacts(a.path);
  const out = prepareCompareDir(cfg, arms);
  try {
    return await compareInto(out.path, arms, cfg, argv);
  } finally {
    out.release();
  }
}

/**
 * runCompare's comparison of arms into outDir (prepared and locked). Long:
 * the arms' passes, the counting passes and the analysis in order, each
 * step commented.
 */
async function compareInto(outDir, arms, cfg, argv) {
  if (cfg.boundary) {
    const path = join(outDir, 'boundary.wasm');
    writeResultFile(path, await buildBoundaryModule(arms[0].facts.info, cfg, arms[0].path));
    arms.push({ name: 'boundary', role: 'boundary', path, target: describeTarget(path), facts: moduleFacts(path) });
  }
  for (const a of arms) a.dir = join(outDir, a.name);
  const stream = process.stderr;
  if (!cfg.quiet) printConfounds(arms, stream);

  const order = blockOrder(arms.length, cfg.blocks);
  const design = {
    blocks: cfg.blocks,
    blockCalls: cfg.blockCalls,
    // In the order's letters the control is a (a copy of A), the boundary module 0.
    order: describeOrder(
      order,
      arms.map((a) => ({ arm: a.name, control: 'a', boundary: '0' })[a.role]),
    ),
    seed: cfg.seed,
    reproduce: shellLine(['wasm-soak', ...pinSeed(argv, cfg.seed)]),
  };
  const iterations = (cfg.blocks + 1) * cfg.blockCalls;
  // The blocks are the timed pass's alone: the counting pass runs straight through.
  const { blockCalls, checkOutputs, ...rest } = cfg;
  const armCfg = { ...rest, iterations, durationMs: null, quiet: true, countAllocs: false };
  setFlagsFromString('--expose-gc');
  const interrupt = interrupts();
  interrupt.enter('run', {
    message: 'stopping every arm after its current call; the arms’ samples are kept',
    stop: () => stopArms(arms),
  });
  for (const a of arms) startArm(a, { ...armCfg, blockCalls, checkOutputs }, argv);
  const ready = await Promise.all(arms.map((a) => a.ready));
  const progress = (done, total) => {
    if (!cfg.quiet) stream.write(roundWords(done, total, design.order));
  };
  const rounds = ready.every(Boolean)
    ? await runRounds(arms, design, cfg, progress)
    : { mismatches: [], stopped: null };
  // An arm that could not start or ended early (a trap, a hang) stops the
  // others, which would otherwise wait paused for their next block.
  if (!ready.every(Boolean) || rounds.stopped) stopArms(arms);
  const passes = await Promise.all(arms.map((a) => a.pass));

  for (const [i, a] of arms.entries()) {
    const { outcome, wroteLog } = passes[i];
    if (!wroteLog) throw startFailure(outcome, a.target, cfg, a.dir);
  }
  // The arm to blame: one that failed, before one stopped because of it.
  const failed =
    arms.find((_, i) => passes[i].outcome.status === 'failed') ??
    arms.find((_, i) => passes[i].outcome.status !== 'completed');
  await analyseArms(arms, passes, armCfg, argv, !failed && cfg.countAllocs && !interrupt.interrupted);
  if (interrupt.interrupted || failed) {
    const why = interrupt.interrupted
      ? 'interrupted'
      : `arm ${failed.name} (${basename(failed.path)}) ${failed.summary.status}: ${failed.summary.error?.message ?? 'see its summary.json'}`;
    throw new SoakError(
      interrupt.interrupted ? 'WS_EINTR' : 'WS_EARM',
      `compare: ${why}; each arm's samples and summary are in ${outDir}/<arm>/.`,
      { exitCode: judge({ status: interrupt.interrupted ? 'interrupted' : 'failed' }).exitCode },
    );
  }
  for (const a of arms) a.timed = decodeLog(join(a.dir, 'samples.wslog'));
  // The analysis's facts, worded once for every output (compare.json's sentences, the pages, the terminal).
  const result = withCompareSentences(
    analyzeCompare({
      arms,
      design,
      outputs: { checked: cfg.checkOutputs, mismatches: rounds.mismatches },
      gates: {
        slower: cfg.failIfSlower,
        moreAllocs: cfg.failIfMoreAllocs,
        higherWater: cfg.failIfHigherWater,
        moreAllocsTolerance: cfg.moreAllocsTolerance,
        higherWaterTolerance: cfg.higherWaterTolerance,
      },
    }),
  );
  result.outputsWritten = writeCompare(outDir, result);
  return { exitCode: result.exitCode, result, outDir };
}
