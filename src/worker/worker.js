// Worker bootstrap: captures memories, prepares the target, then lets the C
// addon own the iteration loop. Between batches it yields to this worker's
// event loop (outside the timed region) so promise jobs, timers and
// FinalizationRegistry callbacks run as they would in production, and takes
// the slow-cadence samples.
import './quiet-wasi.js'; // first: before node:wasi loads
import { closeSync, openSync } from 'node:fs';
import { devNull } from 'node:os';
import { relative } from 'node:path';
import { Writable } from 'node:stream';
import { inspect } from 'node:util';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import { addon } from '../addon.js';
import { usageError } from '../errors.js';
import { CENSUS_MEMORIES, CTL, METRIC, METRIC_CENSUS_STRIDE, PAGE_BYTES, PHASE, STATUS } from '../protocol.js';
import { createCounting } from './allocator/counting.js';
import { createSites } from './allocator/sites.js';
import { censusSources, createSources } from './allocator/sources.js';
import { createBlockContents } from './block-contents.js';
import { createBlockGate } from './blocks.js';
import { installCapture } from './capture.js';
import { createGrowFailures } from './grow-failures.js';
import { installObjectTracker, NativeFinalizationRegistry } from './objects.js';
import { rejectionError, watchRejections } from './rejections.js';
import { createStatsReader } from './stats-values.js';
import { createContext, loadScenario } from './targets/scenario.js';
import { WASMGC_FIX } from './targets/wasm-info.js';

const { ring, config, target, outputs } = workerData;
const control = new Int32Array(ring);

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

// Memories and instances are held weakly, so that a target that creates
// and drops instances is measured as it behaves (not kept alive by us), and
// in bounded numbers, so that such a target costs the harness nothing per
// iteration: past the caps, new ones are counted but not tracked.
const MAX_MEMORIES = 64;
const MAX_INSTANCES = 32;
const tracked = []; // { ref: WeakRef<Memory>, label, maximumBytes (null: unknown), shared, initialBytes }
const instances = []; // { ref: WeakRef<Instance> }: where allocator sources are looked for
const importedOf = new WeakMap(); // Instance -> its declared memory and stack-pointer imports
let untrackedMemories = 0;
let sources = null;
let sourcesSeen = 0;
const lateMemories = []; // [memory, entry] pairs awaiting addMemory at the next yield
let runner = null;
// What leaked blocks hold (--block-contents; the first timed pass only): created with the runner.
let blockContents = null;

const memoryOf = (entry) => entry.ref.deref();

/**
 * label, or label#2, label#3, … when another tracked memory (not self) has
 * it: a memory's series is named by its label (memory:<label>), and two
 * modules may export theirs under the same name (wasm-bindgen's "memory").
 */
function distinctLabel(label, self = null) {
  const taken = (l) => tracked.some((t) => t !== self && t.label === l);
  if (!taken(label)) return label;
  let n = 2;
  while (taken(`${label}#${n}`)) n++;
  return `${label}#${n}`;
}

// Failed memory.grow calls: from JS (the capture's Memory.prototype.grow
// hook) in every pass, from inside wasm in the counting pass's rewrite.
const growFailures = createGrowFailures();
// The counting pass rewrites every module's allocator (and memory.grow)
// before it compiles.
// With --sites, each allocation's site too (allocator/sites.js).
const sites =
  config.countPass && config.sites
    ? createSites({ control, iterations: config.iterations, symbols: config.symbols ?? null })
    : null;
const counting = config.countPass ? await createCounting({ onGrowFailed: growFailures.fromWasm, sites }) : null;

let wasmGcSeen = null; // { structs, arrays } of a WasmGC module a scenario instantiated
const capture = installCapture({
  transform: counting ? counting.transform : null,
  onGrowFailed: growFailures.fromJs,
  onGcTypes: (gc) => {
    wasmGcSeen ??= gc; // a scenario's WasmGC module (the first one instantiated from bytes)
  },
  onMemory(memory, label, maximumPages, owner) {
    if (tracked.length >= MAX_MEMORIES) {
      untrackedMemories++;
      return;
    }
    const entry = {
      ref: new WeakRef(memory),
      label: distinctLabel(label),
      shared: memory.buffer instanceof SharedArrayBuffer,
      initialBytes: memory.buffer.byteLength,
      maximumBytes: maximumPages === null ? null : maximumPages * PAGE_BYTES,
      module: owner,
    };
    tracked.push(entry);
    if (runner) lateMemories.push([memory, entry]);
  },
  onInstance(instance, imported) {
    if (instances.length >= MAX_INSTANCES) {
      const alive = instances.filter((x) => x.ref.deref() !== undefined);
      instances.length = 0;
      instances.push(...alive);
    }
    if (instances.length < MAX_INSTANCES) {
      instances.push({ ref: new WeakRef(instance) });
      importedOf.set(instance, imported);
    }
  },
  onLabel(memory, label, owner) {
    const index = tracked.findIndex((t) => memoryOf(t) === memory);
    if (index < 0) return;
    tracked[index].label = distinctLabel(label, tracked[index]);
    tracked[index].module = owner;
    if (runner) parentPort.postMessage({ type: 'label', index, label: tracked[index].label });
  },
});

const rejections = watchRejections();

// The glue's objects by class (objects.js): scenarios only, before the target loads.
const objects = target.kind === 'scenario' ? installObjectTracker({ control, callWord: CTL.call }) : null;

/** The loop's iteration word (what ctx.iteration reads): the call running, or the last one run. */
const currentIteration = () => (control[CTL.iterationHigh] >>> 0) * 2 ** 32 + (control[CTL.iteration] >>> 0);

/**
 * The summary's error of a failed outcome: a WASI proc_exit named as such
 * (node:wasi throws a symbol for it), anything else as serializeError says.
 */
function failureOf(outcome, prepared) {
  const code = outcome.phase === 'iteration' ? (prepared.exitCodeOf?.(outcome.error) ?? null) : null;
  if (code === null) return serializeError(outcome.error);
  return {
    name: 'Error',
    code: 'WS_EPROCEXIT',
    message: `the module called proc_exit(${code}) in iteration ${currentIteration()}`,
    stack: null,
  };
}

// Any thrown value, as the summary reports it: an Error (any subclass, also
// one from another realm) keeps its name, message and stack; anything else is
// described as what it is ("threw a string: 'x'", "threw undefined").
function serializeError(err) {
  try {
    return describeThrown(err);
  } catch (failure) {
    // A value whose very inspection throws (a Proxy whose traps throw).
    let why = 'reading it threw';
    try {
      why = `reading it threw ${String(failure?.message ?? failure)}`;
    } catch {}
    return {
      name: 'non-Error value',
      message: `threw a value that cannot be described (${why}; not an Error, so no stack)`,
      stack: null,
    };
  }
}

/** serializeError's description; may throw when reading err throws. */
function describeThrown(err) {
  const isError = err instanceof Error || Object.prototype.toString.call(err) === '[object Error]';
  if (isError) {
    return {
      name: err.name,
      message: String(err.message || err.name || 'an error without a message'),
      stack: err.stack,
      code: err.code,
      fix: err.fix,
      exitCode: err.exitCode,
    };
  }
  const what =
    err === undefined || err === null
      ? String(err)
      : `${typeof err === 'object' ? 'an object' : `a ${typeof err}`}: ${inspect(err, { depth: 2, breakLength: Infinity }).slice(0, 500)}`;
  return { name: 'non-Error value', message: `threw ${what} (not an Error, so no stack)`, stack: null };
}

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

const yieldToEventLoop = () => new Promise((resolve) => setImmediate(resolve));

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
 * Fails (exit 2) when a per-op budget (--max-allocs-per-call op=N) names an
 * op the run does not have: only here, once a raw module's or scenario's ops
 * are known, can such a budget be caught before any call.
 */
function checkBudgetOps(budgets, ops) {
  const names = ops.map((op) => op.name);
  for (const [kind, budget] of Object.entries(budgets ?? {})) {
    for (const op of Object.keys(budget?.ops ?? {})) {
      if (names.includes(op)) continue;
      const option = kind === 'allocs' ? '--max-allocs-per-call' : '--max-bytes-per-call';
      throw usageError(
        'WS_EOPTION',
        `${option} ${op}=… names the op "${op}", which the run does not have (its ops: ${names.join(', ')}).`,
        `Name one of ${names.join(', ')}, or give one budget for every op (${option} N).`,
      );
    }
  }
}

async function prepare(stdio) {
  if (target.kind === 'native') {
    const { prepareNativeTarget } = await import('./targets/native.js');
    return { scenario: null, bufferMemory: 0, ...prepareNativeTarget(target, config) };
  }
  if (target.kind === 'module') {
    const { prepareRawTarget } = await import('./targets/raw.js'); // after quiet-wasi.js
    const raw = await prepareRawTarget(target, config, stdio, capture.pristine);
    const pages = raw.info.memories.map((m) => (m.max === null ? null : m.max * PAGE_BYTES));
    raw.memoryNames.forEach((name, i) => {
      const t = tracked.find((x) => memoryOf(x) === raw.instance.exports[name]);
      if (t) t.maximumBytes = pages[i] ?? null;
    });
    const bufferMemory = raw.memoryNames.length
      ? tracked.findIndex((t) => memoryOf(t) === raw.instance.exports[raw.memoryNames[raw.bufferMemory]])
      : 0;
    return {
      scenario: null,
      state: undefined,
      ctx: undefined,
      ops: raw.ops,
      slots: raw.slots,
      alloc: raw.alloc,
      free: raw.free,
      bufferMemory,
      exitCodeOf: raw.exitCodeOf,
      wasmGc: raw.info.gc,
    };
  }
  const { scenario, ops } = await loadScenario(target.path);
  const ctx = createContext({ seed: config.seed, control, track: capture.track, arm: target.arm ?? null });
  enter(PHASE.setup);
  const state = await scenario.setup(ctx);
  objects?.watchWebIdl(state); // WebIDL glue has no registry: its classes are found on the state
  return { scenario, state, ctx, ops, bufferMemory: 0 };
}

// The JS heap sampled at an arbitrary moment includes garbage not yet
// collected, and linear memory holds blocks that only that garbage keeps:
// glue frees them from FinalizationRegistry callbacks, which run once a GC
// has found their objects and the event loop has turned. At HELD_CHECKPOINTS
// evenly spaced points of the run (by iterations, or by time for a
// --duration run), outside the timed region, the worker collects the
// garbage, waits until the finalizers have run, and samples what the
// application still holds: the JS heap (jsHeapAfterGC), each memory's census
// live bytes (censusLiveHeld) and the glue's objects by class; the time it
// took is censusHeldNs. Until the glue has made an object, every other
// checkpoint takes the JS heap after a GC alone (nothing a finalizer frees
// holds linear memory). Raw modules have no JS glue (the JS heap is the
// harness's own, nothing is finalized), so only scenarios pay for them, and
// raw WasmGC modules, whose struct and array objects live in that heap.

/**
 * V8's gc(), taken from a fresh context: --expose-gc is on only while that
 * context is created (V8 flags are process-wide; the host's stay as they
 * were), and the target's globals do not get it. The gc() of any context
 * collects this whole isolate.
 */
function exposeGc() {
  if (runInNewContext('typeof gc') === 'function') return runInNewContext('gc'); // the host has it on
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc');
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}
// A raw WasmGC module's objects live in the JS heap: it gets them too (prepare).
let collectGarbage = target.kind === 'scenario' ? exposeGc() : null;
const HELD_CHECKPOINTS = 32;
let checkpoint = 0;

// Finalizers run as tasks after the GC that found their objects. A canary
// object, made garbage just before the GC, is finalized in the same way:
// once its callback has run and two turns of the event loop ran no more of
// the glue's callbacks, the finalizers of that GC have run. Bounded: a
// target that keeps the event loop busy gets at most MAX_SETTLE_TURNS turns.
const MAX_SETTLE_TURNS = 200;
let canaries = 0;
const canary = new NativeFinalizationRegistry(() => canaries++);
/** Makes one object garbage under the canary's watch (a function of its own: nothing keeps it). */
const plantCanary = () => canary.register(new Array(1), null);

/** Collects the garbage and waits until its finalizers have run. */
async function collectAndSettle() {
  const want = canaries + 1;
  plantCanary();
  collectGarbage();
  let last = objects.cleanups();
  let quiet = 0;
  for (let turn = 0; turn < MAX_SETTLE_TURNS && !(canaries >= want && quiet >= 2); turn++) {
    await yieldToEventLoop();
    const now = objects.cleanups();
    quiet = now === last ? quiet + 1 : 0;
    last = now;
  }
}

/** Takes the held sample when one is due (see above). */
async function heldSample(completed, elapsedMs) {
  const due = config.iterations === null ? Infinity : (checkpoint * config.iterations) / HELD_CHECKPOINTS;
  const dueMs = config.durationMs ? (checkpoint * config.durationMs) / HELD_CHECKPOINTS : Infinity;
  if (!collectGarbage || (completed < due && elapsedMs < dueMs)) return;
  checkpoint++;
  // No glue object seen yet: nothing a finalizer frees holds linear memory,
  // so every other checkpoint takes the JS heap after a GC alone.
  if (!objects?.seen()) {
    if (checkpoint % 2 === 1) {
      collectGarbage();
      addon.metric(runner, METRIC.jsHeapAfterGC, getHeapStatistics().used_heap_size);
    }
    return;
  }
  const started = process.hrtime.bigint();
  enter(PHASE.eventLoop);
  await collectAndSettle();
  enter(PHASE.stats);
  addon.metric(runner, METRIC.jsHeapAfterGC, getHeapStatistics().used_heap_size);
  for (let k = 0; k < censusedMemories(); k++) {
    const c = addon.census(runner, k, false);
    if (c.status === 'taken') addon.metric(runner, METRIC.censusLiveHeld + k * METRIC_CENSUS_STRIDE, c.liveBytes);
  }
  objects.snapshot(completed);
  addon.metric(runner, METRIC.censusHeldNs, Number(process.hrtime.bigint() - started));
}

const readStats = createStatsReader();

async function slowSample(prepared, elapsedMs) {
  addon.metric(runner, METRIC.jsHeap, getHeapStatistics().used_heap_size);
  addon.sampleMemories(runner);
  if (instances.length !== sourcesSeen) {
    sources = createSources(liveInstances());
    sourcesSeen = instances.length;
  }
  sources.sample((id, value) => addon.metric(runner, id, value));
  for (let k = 0; k < censusedMemories(); k++) addon.census(runner, k, true);
  blockContents?.sample(addon.completed(runner) - testFirstIteration(), elapsedMs, censusedMemories());
  const own = prepared.native ? addon.nativeHeap(runner) : null;
  if (own) {
    addon.metric(runner, METRIC.allocatorLive, own.live);
    addon.metric(runner, METRIC.allocatorHeap, own.heap);
    addon.metric(runner, METRIC.allocatorFree, own.free);
  }
  const stats = prepared.scenario?.stats;
  if (stats) {
    const s = readStats(await stats.call(prepared.scenario, prepared.state), addon.completed(runner) - 1);
    if (Number.isFinite(s.liveBytes)) addon.metric(runner, METRIC.liveBytes, s.liveBytes);
    if (Number.isFinite(s.heapBytes)) addon.metric(runner, METRIC.heapBytes, s.heapBytes);
  }
  await heldSample(addon.completed(runner), elapsedMs);
}

function trackLateMemories() {
  while (lateMemories.length > 0) {
    const [memory, entry] = lateMemories.shift();
    const index = addon.addMemory(runner, memory, entry.shared);
    parentPort.postMessage({ type: 'memory', index, label: entry.label, initialBytes: entry.initialBytes });
  }
}

/**
 * The memories that get a heap census, 0 to n-1: every tracked memory the
 * loop has (those awaiting addMemory not yet), the first CENSUS_MEMORIES.
 */
function censusedMemories() {
  return Math.min(tracked.length - lateMemories.length, CENSUS_MEMORIES);
}

/** The instances still alive, as createSources takes them. */
function liveInstances() {
  const out = [];
  for (const x of instances) {
    const instance = x.ref.deref();
    if (instance) out.push({ instance, imports: importedOf.get(instance) });
  }
  return out;
}

// A slow sample is due every --slow-every iterations, a yield every
// --yield-every iterations but no sooner than config.yieldFloorMs after the
// last (the floor applies to the default cadence, see src/options/schema.js); --slow-ms
// and --yield-ms bound the time between them.

/**
 * Runs the loop to its end; returns { status, reason, error }. Long: the
 * batches, the yields and the samples between them share the run's state.
 */
async function loop(prepared) {
  const yieldNs = config.yieldMs * 1e6;
  const started = performance.now();
  let nextSlowIteration = config.slowEvery;
  let lastSlow = started;
  let nextYieldIteration = config.yieldEvery;
  let lastYield = started;
  const gate = config.blockCalls
    ? createBlockGate({
        control,
        blockCalls: config.blockCalls,
        calls: config.iterations,
        slots: config.checkOutputs ? prepared.slots : null,
        post: (m) => parentPort.postMessage(m),
        enter,
      })
    : null;
  // The calls since the last check for an unhandled rejection: one of them made it.
  let checkedFrom = addon.completed(runner);
  const rejected = () => {
    const r = rejections.take();
    const to = addon.completed(runner) - 1;
    const from = Math.min(checkedFrom, to);
    checkedFrom = to + 1;
    if (!r) return null;
    return { status: 'failed', error: r.reason, rejection: { from, to }, phase: 'iteration', iteration: to };
  };
  for (;;) {
    // Run to the next due point; one already passed waits on its floor, so
    // check again after another --yield-every iterations.
    gate?.wait(addon.completed(runner));
    const done = addon.completed(runner);
    const untilYield = nextYieldIteration > done ? nextYieldIteration - done : config.yieldEvery;
    const untilSlow = nextSlowIteration > done ? nextSlowIteration - done : config.yieldEvery;
    const untilBlock = gate ? gate.budget(done) : config.yieldEvery;
    const untilSites = sites ? sites.budget(done - testFirstIteration()) : config.yieldEvery;
    const st = addon.runBatch(
      runner,
      Math.min(untilYield, untilSlow, untilBlock, untilSites, config.yieldEvery),
      yieldNs,
    );
    if (st === STATUS.full) {
      // Back-pressure: ask for a drain and sleep until the main thread frees slots.
      const read = Atomics.load(control, CTL.read);
      parentPort.postMessage({ type: 'drain' });
      Atomics.wait(control, CTL.read, read, 200);
      continue;
    }
    if (st === STATUS.async) {
      enter(PHASE.pending);
      try {
        await addon.pending(runner);
        addon.settle(runner, false, undefined);
      } catch (err) {
        addon.settle(runner, true, err);
        return { status: 'failed', error: err };
      }
      enter(PHASE.loop);
      const failed = rejected();
      if (failed) return failed;
    }
    trackLateMemories();
    const now = performance.now();
    const completed = addon.completed(runner);
    sites?.reached(completed - testFirstIteration());
    const finished = st !== STATUS.yield && st !== STATUS.async;
    if (completed >= nextSlowIteration || now - lastSlow >= config.slowMs || finished) {
      enter(PHASE.stats);
      try {
        await slowSample(prepared, now - started);
      } catch (err) {
        return {
          status: 'failed',
          error: err,
          phase: prepared.scenario?.stats ? 'stats' : 'slow sample',
          iteration: completed - 1, // the sample follows this call
        };
      }
      enter(PHASE.loop);
      nextSlowIteration = completed + config.slowEvery;
      lastSlow = now;
    }
    gate?.reached(completed);
    if (st === STATUS.threw) return { status: 'failed', error: addon.error(runner), phase: 'iteration' };
    if (st === STATUS.done) return { status: 'completed', reason: 'iterations' };
    if (st === STATUS.deadline) return { status: 'completed', reason: 'duration' };
    if (st === STATUS.stopped) return { status: 'interrupted', reason: 'signal' };
    if (
      (completed >= nextYieldIteration && now - lastYield >= config.yieldFloorMs) ||
      now - lastYield >= config.yieldMs ||
      st === STATUS.async
    ) {
      enter(PHASE.eventLoop);
      await yieldToEventLoop();
      enter(PHASE.loop);
      nextYieldIteration = completed + config.yieldEvery;
      lastYield = performance.now();
      const failed = rejected();
      if (failed) return failed;
    }
  }
}

/**
 * A WasmGC module's source (gc: inspectModule's { structs, arrays }, or
 * null): { gc: { source, structs, arrays } }, {} for another module. Its
 * objects live in the engine's heap, which the JS heap after full GCs
 * measures (heldSample), not in linear memory.
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

/** The runner of prepared: the C loop over its engine (V8, or the native one for a library). */
function createRunner(prepared) {
  return addon.createRunner({
    ring: control,
    seed: config.seed,
    iterations: config.iterations ?? Infinity, // null: a --duration run without -n
    firstIteration: testFirstIteration(),
    durationNs: (config.durationMs ?? 0) * 1e6,
    scenario: Boolean(prepared.scenario),
    state: prepared.state,
    ctx: prepared.ctx,
    ops: prepared.ops.map((op) => ({ fn: op.fn, recv: op.recv, weight: op.weight, args: op.args })),
    slots: prepared.slots,
    alloc: prepared.alloc,
    free: prepared.free,
    bufferMemory: prepared.bufferMemory,
    memories: tracked.map((t) => ({ memory: memoryOf(t), shared: t.shared })),
    counters: counting?.counters,
    native: prepared.native,
  });
}

/**
 * The worker's life: load the target, set it up, tell the main thread it is
 * ready, run the loop, take the last samples, tear down, and say how it
 * ended. Long: those steps in order, each commented.
 */
async function main() {
  // Without outputs (the library's in-memory run, which writes no file) a
  // raw module's WASI stdout and stderr are the process's own.
  const stdio = {
    stdin: openSync(devNull, 'r'),
    stdout: outputs ? openSync(outputs.stdout, 'a') : 1,
    stderr: outputs ? openSync(outputs.stderr, 'a') : 2,
  };
  let prepared;
  try {
    prepared = await prepare(stdio);
    if (globalThis.WebAssembly !== WEBASSEMBLY)
      throw usageError(
        'WS_ESCENARIO',
        `${target.path} replaced globalThis.WebAssembly while it loaded or set up; wasm-soak finds the module's memories and allocator through it.`,
        'Leave globalThis.WebAssembly in place: wrap its functions (WebAssembly.instantiate = …) if the scenario must.',
      );
    checkBudgetOps(config.budgets, prepared.ops);
  } catch (err) {
    await stdioTaken();
    const error = serializeError(err);
    // A scenario's WasmGC module on Node 20: the engine's own words suggest a flag that does not help.
    if (/enable with --experimental-wasm-gc/.test(error.message)) error.fix = WASMGC_FIX;
    parentPort.postMessage({ type: 'fatal', phase: 'setup', error });
    return;
  }
  await yieldToEventLoop(); // Node looks for unhandled rejections between turns of the event loop
  const inSetup = rejections.take();
  if (inSetup) {
    const error = rejectionError(serializeError(inSetup.reason), 'setup()');
    parentPort.postMessage({ type: 'fatal', phase: 'setup', error });
    return;
  }
  // Memories dropped during setup are gone: the run tracks the living ones.
  for (let i = tracked.length - 1; i >= 0; i--) if (!memoryOf(tracked[i])) tracked.splice(i, 1);
  try {
    runner = createRunner(prepared);
  } catch (err) {
    if (!prepared.native) throw err;
    const { nativeOpenError } = await import('./targets/native.js');
    parentPort.postMessage({ type: 'fatal', phase: 'setup', error: serializeError(nativeOpenError(err, target.path)) });
    return;
  }
  growFailures.attach(runner);
  if (config.blockContents) blockContents = createBlockContents(runner, config);

  sources = createSources(liveInstances());
  sourcesSeen = instances.length;
  if (prepared.wasmGc) collectGarbage ??= exposeGc();
  if (target.kind === 'module') for (const t of tracked) t.module = relative(process.cwd(), target.path) || target.path;
  const censuses = Array.from({ length: censusedMemories() }, (_, k) => addon.census(runner, k, false));
  parentPort.postMessage({
    type: 'ready',
    name: prepared.scenario?.name ?? null,
    sources: {
      ...sources.describe(),
      census: censusSources(censuses, tracked),
      ...nativeSource(runner),
      ...wasmGcSource(prepared.wasmGc ?? wasmGcSeen),
    },
    instrumented: counting ? counting.instrumented : null,
    coverage: counting ? counting.coverage : null,
    ops: prepared.ops.map((op) => ({ name: op.name, weight: op.weight, signature: op.signature ?? null })),
    memories: tracked.map((t) => ({
      label: t.label,
      initialBytes: t.initialBytes,
      maximumBytes: t.maximumBytes ?? null,
      module: t.module ?? null,
      shared: t.shared,
    })),
  });
  enter(PHASE.loop);
  sites?.reached(0);
  let outcome;
  try {
    outcome = await loop(prepared);
  } catch (err) {
    // The loop itself failed (e.g. the module's allocator gave no block for a
    // buffer argument): at the iteration it was about to run.
    outcome = { status: 'failed', error: err, phase: 'iteration', iteration: addon.completed(runner) };
    if (err?.code === 'WS_EALLOC') outcome.allocBytes = addon.failedAlloc(runner);
  }
  sites?.end(addon.completed(runner) - testFirstIteration());
  // Before a scenario's teardown, which may free everything.
  const blocks = blockContents?.result() ?? null;
  if (prepared.scenario?.teardown) {
    enter(PHASE.teardown);
    try {
      await prepared.scenario.teardown(prepared.state, prepared.ctx);
    } catch (err) {
      outcome = outcome.status === 'failed' ? outcome : { status: 'failed', error: err, phase: 'teardown' };
    }
    await yieldToEventLoop(); // Node looks for unhandled rejections between turns of the event loop
    const inTeardown = rejections.take();
    if (inTeardown && outcome.status !== 'failed')
      outcome = { status: 'failed', error: inTeardown.reason, rejection: 'teardown()', phase: 'teardown' };
  }
  enter(PHASE.end);
  if (outcome.status !== 'failed') addon.end(runner);
  const sitesResult = sites?.result() ?? null;
  sites?.close();
  closeSync(stdio.stdin);
  if (outputs) {
    closeSync(stdio.stdout);
    closeSync(stdio.stderr);
  }
  await stdioTaken();
  parentPort.postMessage({
    type: 'done',
    status: outcome.status,
    reason: outcome.reason ?? null,
    phase: outcome.phase ?? 'iteration',
    completed: addon.completed(runner),
    firstIteration: testFirstIteration(),
    untrackedMemories,
    sites: sitesResult,
    frees: counting ? counting.frees() : null,
    blocks,
    objects: objects?.result(prepared.ops.map((op) => op.name)) ?? null,
    error:
      outcome.status === 'failed'
        ? {
            ...(outcome.rejection
              ? rejectionError(serializeError(outcome.error), outcome.rejection)
              : failureOf(outcome, prepared)),
            iteration: outcome.iteration,
            allocBytes: outcome.allocBytes,
          }
        : null,
  });
}

main().catch((err) => parentPort.postMessage({ type: 'fatal', phase: 'worker', error: serializeError(err) }));
