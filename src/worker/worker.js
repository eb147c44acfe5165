// Worker bootstrap and lifecycle: captures memories, prepares the target,
// then lets the C addon own the iteration loop (loop.js). Between batches
// it yields to this worker's event loop (outside the timed region) so
// promise jobs, timers and FinalizationRegistry callbacks run as they would
// in production, and takes the slow-cadence samples (slow-sample.js,
// held.js). The run's state is one object, w, passed to each step.
import './quiet-wasi.js'; // first: before node:wasi loads
import { closeSync, openSync } from 'node:fs';
import { devNull } from 'node:os';
import { relative } from 'node:path';
import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { addon } from '../addon.js';
import { usageError } from '../errors.js';
import { CTL, PAGE_BYTES, PHASE } from '../protocol.js';
import { createSwap } from './alloc-swap.js';
import { createTiming } from './alloc-timing.js';
import { createCounting, threadedCountingError } from './allocator/counting.js';
import { createSites } from './allocator/sites.js';
import { censusSources } from './allocator/sources.js';
import { createBlockContents } from './block-contents.js';
import { installCapture } from './capture.js';
import { createGrowFailures } from './grow-failures.js';
import { createHeld, yieldToEventLoop } from './held.js';
import { runLoop } from './loop.js';
import { createMemories, memoryOf } from './memories.js';
import { installObjectTracker } from './objects.js';
import { checkBudgetOps, prepare } from './prepare.js';
import { rejectionError, watchRejections } from './rejections.js';
import { createSlowSampler } from './slow-sample.js';
import { WASMGC_FIX } from './targets/wasm-info.js';
import { createThreadHeaps } from './thread-heaps.js';
import { installThreadCounter } from './threads.js';
import { failureOf, serializeError } from './thrown.js';

const { ring, config, target, outputs } = workerData;
const control = new Int32Array(ring);
const post = (message) => parentPort.postMessage(message);

// What the worker is doing, for the main thread's watchdog (src/run/watchdog.js).
const enter = (phase) => Atomics.store(control, CTL.phase, phase);
enter(PHASE.load);

// A target's own process.exit() ends this worker thread only; the EXIT word
// tells the main thread that the target asked for it, and with which code.
const exitWorker = process.exit;
// The WebAssembly namespace wasm-soak finds memories and allocators through; a scenario that replaces it is refused.
const WEBASSEMBLY = globalThis.WebAssembly;
// The worker's own stdout and stderr, as they are before the target can replace them (stdioTaken).
const STDIO = [process.stdout, process.stderr];
process.exit = function exit(code) {
  const n = Number(code ?? process.exitCode ?? 0);
  const call = Atomics.load(control, CTL.call); // ws_protocol.h: the EXIT word
  Atomics.store(control, CTL.exit, (call << 9) | 0x100 | (Number.isInteger(n) ? n & 0xff : 1));
  return exitWorker.call(process, code);
};

/**
 * Where the loop's iteration counter starts: 0, unless the test hook
 * WASM_SOAK_TEST_FIRST_ITERATION (docs/log-format.md, "Iterations") starts it
 * elsewhere, e.g. just below 2^32, so that a test crosses the wrap of the
 * records' 32-bit iteration field without making 2^32 calls. Not a user option.
 */
function testFirstIteration() {
  const first = Number(process.env.WASM_SOAK_TEST_FIRST_ITERATION ?? 0);
  return Number.isSafeInteger(first) && first > 0 ? first : 0;
}

/**
 * The worker's state, made before the target loads: what captures its
 * memories and instances (the counting pass rewrites every module's
 * allocator, and memory.grow, before it compiles; with --sites, each
 * allocation's site too), what the loop needs, and the runner once made.
 */
async function createState() {
  const memories = createMemories({ post, pageBytes: PAGE_BYTES });
  // Failed memory.grow calls: from JS (the capture's Memory.prototype.grow
  // hook) in every pass, from inside wasm in the counting pass's rewrite.
  const growFailures = createGrowFailures();
  const sites =
    config.countPass && config.sites
      ? createSites({ control, iterations: config.iterations, symbols: config.symbols ?? null })
      : null;
  const counting = config.countPass ? await createCounting({ onGrowFailed: growFailures.fromWasm, sites }) : null;
  // The time-split pass stamps the allocator, memory.grow and the exports instead (alloc-timing.js).
  const timing = config.splitPass
    ? await createTiming({ control, firstIteration: testFirstIteration(), iterations: config.iterations })
    : null;
  // The swap pass routes the allocator to a bump allocator instead (alloc-swap.js).
  const swap = config.swapPass
    ? await createSwap({ regionBytes: config.swapRegionBytes, iterations: config.iterations })
    : null;
  const w = { control, config, target, enter, post, memories, growFailures, sites, counting, timing, swap };
  w.wasmGcSeen = null;
  w.threadedSeen = false; // a module built for wasi-threads was compiled (capture's onThreadedModule)
  w.capture = installCapture({
    transform: counting?.transform ?? timing?.transform ?? swap?.transform ?? null,
    onGrowFailed: growFailures.fromJs,
    onGcTypes: (gc) => {
      w.wasmGcSeen ??= gc; // a scenario's WasmGC module (the first one instantiated from bytes)
    },
    onMemory: memories.onMemory,
    onInstance: memories.onInstance,
    onLabel: memories.onLabel,
    onThreadedModule() {
      w.threadedSeen = true;
    },
    onDeclaredSize(memory, bytes) {
      const scanLimit = w.runner ? (index, b) => addon.censusScanLimit(w.runner, index, b) : null;
      memories.onDeclaredSize(memory, bytes, scanLimit);
    },
  });
  w.rejections = watchRejections();
  // The glue's objects by class (objects.js): scenarios only, before the target loads.
  w.objects = target.kind === 'scenario' ? installObjectTracker({ control, callWord: CTL.call }) : null;
  w.firstIteration = testFirstIteration();
  // The worker threads a scenario's target starts (threads.js), before it loads, and at which calls.
  const iteration = () => currentIteration() - w.firstIteration;
  w.threads = target.kind === 'scenario' ? installThreadCounter({ iteration }) : null;
  // A raw WasmGC module's objects live in the JS heap: it gets held samples too (start).
  w.threadHeaps = w.threads ? createThreadHeaps(w.threads) : null;
  w.held = createHeld({
    config,
    on: target.kind === 'scenario',
    objects: w.objects,
    threadHeaps: w.threadHeaps,
    enter,
    post,
  });
  w.slow = createSlowSampler({ memories, held: w.held, firstIteration: w.firstIteration });
  w.runner = null;
  w.blockContents = null;
  return w;
}

/**
 * Resolves once what the target wrote to process.stdout and process.stderr
 * has reached the main thread: a worker's write calls back only when the
 * main thread has taken its chunk, and the main thread terminates the worker
 * once it says it is done, which would lose what is still on the way.
 */
function stdioTaken() {
  // Writable's own write: a target that replaced process.stdout or its write() cannot hold the end.
  const taken = (stream) =>
    new Promise((resolve) => {
      try {
        Writable.prototype.write.call(stream, '', () => resolve());
      } catch {
        resolve(); // a stream the target ended
      }
    });
  return Promise.all(STDIO.map(taken));
}

/**
 * A WasmGC module's source (gc: inspectModule's { structs, arrays }, or
 * null): { gc: { source, structs, arrays } }, {} for another module. Its
 * objects live in the engine's heap, which the JS heap after full GCs
 * measures (held.js), not in linear memory.
 */
function wasmGcSource(gc) {
  if (!gc) return {};
  const source = `${gc.structs} struct and ${gc.arrays} array types: objects live in the engine's garbage-collected heap, judged by the JS heap after full GCs`;
  return { gc: { source, structs: gc.structs, arrays: gc.arrays } };
}

/**
 * A native library's sources: { native: { malloc: the object defining the
 * malloc its buffers come from, heap: its own mallinfo2 or null } }, else
 * nothing.
 */
function nativeSource(runner) {
  const malloc = addon.mallocOrigin(runner);
  if (malloc === undefined) return {};
  const heap = addon.nativeHeap(runner) ? "mallinfo2 (the library's own: uordblks, arena + hblkhd, fordblks)" : null;
  return { native: { malloc: malloc || null, heap } };
}

/**
 * Op k's function fn as the loop calls it: through the swap pass's wrapper,
 * or the time-split pass's for a scenario (a raw module's batches stay
 * driven from inside wasm, as in the timed pass: its calls are all stamped).
 */
function opFn(w, fn, k) {
  if (w.swap) return w.swap.wrap(fn, k);
  if (w.timing && w.prepared.scenario) return w.timing.wrap(fn, k);
  return fn;
}

/** The runner of w.prepared: the C loop over its engine (V8, or the native one for a library). */
function createRunner(w) {
  const { prepared } = w;
  return addon.createRunner({
    ring: control,
    seed: config.seed,
    iterations: config.iterations ?? Infinity, // null: a --duration run without -n
    firstIteration: w.firstIteration,
    durationNs: (config.durationMs ?? 0) * 1e6,
    scenario: Boolean(prepared.scenario),
    state: prepared.state,
    ctx: prepared.ctx,
    ops: prepared.ops.map((op, k) => ({
      fn: opFn(w, op.fn, k),
      recv: op.recv,
      weight: op.weight,
      args: op.args,
    })),
    slots: prepared.slots,
    alloc: prepared.alloc,
    free: prepared.free,
    // The swap pass calls each op through its JS wrapper: the loop calls them, not the trampoline's driver.
    drive: w.swap ? null : prepared.drive,
    bufferMemory: prepared.bufferMemory,
    memories: w.memories.tracked.map((t) => ({
      memory: memoryOf(t),
      shared: t.shared,
      pagesSlot: prepared.sized?.indexOf(memoryOf(t)) ?? -1,
    })),
    counters: w.counting?.counters,
    native: prepared.native,
  });
}

/** Tells the main thread that setup failed, once the target's output has reached it. */
async function fatal(err) {
  await stdioTaken();
  const error = serializeError(err);
  // A scenario's WasmGC module on Node 20: the engine's own words suggest a flag that does not help.
  if (/enable with --experimental-wasm-gc/.test(error.message)) error.fix = WASMGC_FIX;
  post({ type: 'fatal', phase: 'setup', error });
}

/**
 * Loads and sets up the target, makes the runner and tells the main thread
 * it is ready; false (the main thread told why) when it could not.
 */
async function start(w, stdio) {
  try {
    w.prepared = await prepare(w, stdio);
    if (globalThis.WebAssembly !== WEBASSEMBLY)
      throw usageError(
        'WS_ESCENARIO',
        `${target.path} replaced globalThis.WebAssembly while it loaded or set up; wasm-soak finds the module's memories and allocator through it.`,
        'Leave globalThis.WebAssembly in place: wrap its functions (WebAssembly.instantiate = …) if the scenario must.',
      );
    checkBudgetOps(config.budgets, w.prepared.ops);
    if (w.threadedSeen && (config.countAllocs || config.timeSplit)) throw threadedCountingError();
  } catch (err) {
    await fatal(err);
    return false;
  }
  await yieldToEventLoop(); // Node looks for unhandled rejections between turns of the event loop
  const inSetup = w.rejections.take();
  if (inSetup) {
    post({ type: 'fatal', phase: 'setup', error: rejectionError(serializeError(inSetup.reason), 'setup()') });
    return false;
  }
  w.memories.start(); // memories dropped during setup are gone: the run tracks the living ones
  try {
    w.runner = createRunner(w);
  } catch (err) {
    if (!w.prepared.native) throw err;
    const { nativeOpenError } = await import('./targets/native.js');
    post({ type: 'fatal', phase: 'setup', error: serializeError(nativeOpenError(err, target.path)) });
    return false;
  }
  ready(w);
  return true;
}

/** What the run is about to soak, for the main thread. */
function ready(w) {
  const { runner, prepared, memories } = w;
  memories.tracked.forEach((t, index) => {
    if (t.declaredBytes) addon.censusScanLimit(runner, index, t.declaredBytes);
  });
  w.growFailures.attach(runner);
  if (config.blockContents) w.blockContents = createBlockContents(runner, config);
  if (prepared.wasmGc) w.held.enable();
  const { tracked } = memories;
  if (target.kind === 'module') for (const t of tracked) t.module = relative(process.cwd(), target.path) || target.path;
  const censuses = Array.from({ length: memories.censused() }, (_, k) => addon.census(runner, k, false));
  post({
    type: 'ready',
    name: prepared.scenario?.name ?? null,
    sources: {
      ...w.slow.describe(),
      census: censusSources(censuses, tracked),
      ...nativeSource(runner),
      ...wasmGcSource(prepared.wasmGc ?? w.wasmGcSeen),
    },
    instrumented: w.counting ? w.counting.instrumented : null,
    coverage: w.counting ? w.counting.coverage : null,
    ops: prepared.ops.map((op) => ({ name: op.name, weight: op.weight, signature: op.signature ?? null })),
    memories: tracked.map((t) => ({
      label: t.label,
      initialBytes: t.initialBytes,
      maximumBytes: t.maximumBytes ?? null,
      module: t.module ?? null,
      shared: t.shared,
    })),
  });
}

/** Runs the loop; a loop that itself failed is an outcome at the iteration it was about to run. */
async function run(w) {
  w.timing?.start(w.prepared.ops.length, w.capture.pristine);
  w.swap?.start(w.prepared.ops.length, w.capture.pristine);
  enter(PHASE.loop);
  w.sites?.reached(0);
  try {
    return await runLoop(w);
  } catch (err) {
    // e.g. the module's allocator gave no block for a buffer argument
    const outcome = { status: 'failed', error: err, phase: 'iteration', iteration: addon.completed(w.runner) };
    if (err?.code === 'WS_EALLOC') outcome.allocBytes = addon.failedAlloc(w.runner);
    return outcome;
  }
}

/** Runs a scenario's teardown(); returns the outcome, failed by it when the run had not failed already. */
async function teardown(w, outcome) {
  const { prepared } = w;
  if (!prepared.scenario?.teardown) return outcome;
  enter(PHASE.teardown);
  try {
    await prepared.scenario.teardown(prepared.state, prepared.ctx);
  } catch (err) {
    if (outcome.status !== 'failed') outcome = { status: 'failed', error: err, phase: 'teardown' };
  }
  await yieldToEventLoop(); // Node looks for unhandled rejections between turns of the event loop
  const inTeardown = w.rejections.take();
  if (inTeardown && outcome.status !== 'failed')
    return { status: 'failed', error: inTeardown.reason, rejection: 'teardown()', phase: 'teardown' };
  return outcome;
}

/** The done message's error of outcome, null when the run did not fail. */
function errorOf(w, outcome) {
  if (outcome.status !== 'failed') return null;
  const described = outcome.rejection
    ? rejectionError(serializeError(outcome.error), outcome.rejection)
    : failureOf(outcome, w.prepared.exitCodeOf, currentIteration());
  return { ...described, iteration: outcome.iteration, allocBytes: outcome.allocBytes };
}

/** The loop's iteration word (what ctx.iteration reads): the call running, or the last one run. */
const currentIteration = () => (control[CTL.iterationHigh] >>> 0) * 2 ** 32 + (control[CTL.iteration] >>> 0);

/**
 * The worker's life: start (load, set up, ready), run the loop, take the
 * last results before a scenario's teardown, tear down, end the log, and
 * say how it ended.
 */
async function main() {
  const w = await createState();
  // Without outputs (the library's in-memory run, which writes no file) a
  // raw module's WASI stdout and stderr are the process's own.
  const stdio = {
    stdin: openSync(devNull, 'r'),
    stdout: outputs ? openSync(outputs.stdout, 'a') : 1,
    stderr: outputs ? openSync(outputs.stderr, 'a') : 2,
  };
  if (!(await start(w, stdio))) return;
  let outcome = await run(w);
  const { runner, sites } = w;
  sites?.end(addon.completed(runner) - w.firstIteration);
  w.timing?.end(addon.completed(runner) - w.firstIteration);
  w.swap?.end();
  const blocks = w.blockContents?.result() ?? null; // before a scenario's teardown, which may free everything
  outcome = await teardown(w, outcome);
  enter(PHASE.end);
  if (outcome.status !== 'failed') addon.end(runner);
  const sitesResult = sites?.result() ?? null;
  sites?.close();
  w.threadHeaps?.close();
  closeSync(stdio.stdin);
  if (outputs) {
    closeSync(stdio.stdout);
    closeSync(stdio.stderr);
  }
  await stdioTaken();
  post({
    type: 'done',
    status: outcome.status,
    reason: outcome.reason ?? null,
    phase: outcome.phase ?? 'iteration',
    completed: addon.completed(runner),
    firstIteration: w.firstIteration,
    untrackedMemories: w.memories.untracked(),
    sites: sitesResult,
    frees: w.counting ? w.counting.frees() : null,
    timeSplit: w.timing?.result(addon.completed(runner) - w.firstIteration) ?? null,
    swap: w.swap?.result() ?? null,
    blocks,
    objects: w.objects?.result(w.prepared.ops.map((op) => op.name)) ?? null,
    threads: w.threads ? { ...w.threads.result(), heaps: w.threadHeaps.result(), wasiThreads: w.threadedSeen } : null,
    error: errorOf(w, outcome),
  });
}

main().catch((err) => post({ type: 'fatal', phase: 'worker', error: serializeError(err) }));
