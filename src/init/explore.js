// Runs in a child process of `wasm-soak init` (fork), so that a module that
// crashes, hangs or keeps its event loop alive cannot take init with it.
// Request (argv[2], JSON): { mode: 'explore', scenario, package, numeric }
// loads the module through the scenario's exported load(), decides a
// package's init steps, lists the API and probes it for ops that work;
// { mode: 'verify', scenario, calls } runs the written scenario's first op
// that many times. It reports { trying } while it probes and one final
// { result } or { error } over IPC.
import { pathToFileURL } from 'node:url';
import { createRandom } from '../worker/targets/rng.js';
import { isClass, probeTargets, walkApi } from './api-walk.js';
import { argumentLists } from './args.js';
import { installEntryCount } from './entry-count.js';
import { freeMethodOf, opRunner, release } from './op.js';

const PROBE_CALLS = 5;
const MAX_PROBES = 400;
const YIELD_EVERY = 100;

const ctxOf = (seed) => Object.freeze({ ...createRandom(seed), seed, iteration: 0, arm: null, track() {} });
const isWasmExports = (value) =>
  value !== null && typeof value === 'object' && Object.values(value).some((v) => v instanceof WebAssembly.Memory);
const hasFunctions = (value) =>
  value !== null && typeof value === 'object' && Object.values(value).some((v) => typeof v === 'function');
const turn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * The init steps of a package's namespace: its init() or initWasm() (or an
 * initialising default export) called once, keeping what it returns when that is the API
 * or the module's exports, then the `ready` promises of its objects.
 * Returns { steps, api, raw, initError }.
 */
async function packageSteps(ns) {
  const steps = [];
  let api = ns;
  let raw = null;
  const functions = Object.keys(ns).filter((k) => typeof ns[k] === 'function');
  const initial = ['init', 'initWasm', 'default'].find(
    (name) =>
      typeof ns[name] === 'function' &&
      !isClass(ns[name]) &&
      (name !== 'default' || /init|load|instantiate/i.test(ns[name].name) || functions.length === 1),
  );
  if (initial) {
    try {
      const result = await ns[initial]();
      if (isWasmExports(result)) raw = result;
      else if (hasFunctions(result)) api = result;
      steps.push({ call: initial, result: raw ? 'raw' : api !== ns ? 'api' : 'none' });
    } catch (err) {
      return { steps, api, raw, initError: `${initial}() failed: ${err?.message ?? err}` };
    }
  }
  const ready = Object.keys(api).filter((k) => typeof api[k]?.ready?.then === 'function' && !isClass(api[k]));
  if (ready.length > 0) {
    await Promise.all(ready.map((k) => api[k].ready));
    steps.push({ ready });
  }
  return { steps, api, raw, initError: null };
}

const isPrimitive = (v) => v === null || (typeof v !== 'object' && typeof v !== 'function');

/**
 * The first argument list that makes candidate work PROBE_CALLS times, as an
 * op (awaiting a promise it returns, freeing an object it makes), or null.
 * The op carries what the probe saw (counter: installEntryCount's): reach
 * { calls: calls into the module per op call, allocates: whether its
 * allocator was called or its memory grew, constant: no arguments and the
 * same primitive result every call }.
 */
async function probe(candidate, state, numeric, seed, counter) {
  for (const args of argumentLists(candidate.arity, numeric)) {
    const op = { ...candidate, args, awaits: false, free: candidate.free ?? null };
    try {
      const ctx = ctxOf(seed);
      const before = counter.count();
      const first = opRunner({ ...op, free: null })(state, ctx);
      op.awaits = typeof first?.then === 'function';
      const value = op.awaits ? await first : first;
      op.free = op.free ?? freeMethodOf(value);
      if (op.free) release(state.api, op.free, value);
      let same = args.length === 0 && isPrimitive(value);
      for (let i = 1; i < PROBE_CALLS; i++) {
        const next = await opRunner({ ...op, free: null })(state, ctx);
        same = same && Object.is(next, value);
        if (op.free) release(state.api, op.free, next);
      }
      const after = counter.count();
      const allocates = after.allocs > before.allocs || after.bytes > before.bytes;
      op.reach = {
        calls: (after.calls - before.calls) / PROBE_CALLS,
        allocates,
        constant: same && !allocates,
      };
      return op;
    } catch {
      // This argument list does not suit it; try the next.
    }
  }
  return null;
}

/** 0: enters the module and allocates, 1: enters it, 2: a constant or never enters it (not chosen). */
const rank = ({ reach }) => (reach.calls === 0 || reach.constant ? 2 : reach.allocates ? 0 : 1);

/** The module's own allocator pair on raw, as an 'alloc' op (what a placeholder op shows working), or null. */
function allocOp(raw) {
  if (!raw) return null;
  for (const [malloc, free] of [
    ['__wbindgen_malloc', '__wbindgen_free'],
    ['malloc', 'free'],
    ['_malloc', '_free'],
  ]) {
    if (typeof raw[malloc] === 'function' && typeof raw[free] === 'function') {
      return { form: 'alloc', alloc: { malloc, free, mallocArity: raw[malloc].length, freeArity: raw[free].length } };
    }
  }
  return null;
}

async function explore({ scenario, package: isPackage, numeric, seed }) {
  const counter = installEntryCount();
  const mod = await import(pathToFileURL(scenario).href);
  let { api, raw } = await mod.load();
  let steps = [];
  if (isPackage) {
    const decided = await packageSteps(api);
    if (decided.initError) return { initError: decided.initError };
    ({ steps, api } = decided);
    raw = decided.raw ?? raw;
  }
  const entries = walkApi(api, numeric);
  const working = [];
  const skipped = [];
  const state = { api, raw };
  // Where no instance was seen (no wasm module here at all) nothing can be told apart: keep them all.
  const known = () => counter.seen();
  for (const candidate of probeTargets(entries, numeric).slice(0, MAX_PROBES)) {
    process.send({ trying: candidate.path.join('.') });
    const op = await probe(candidate, state, numeric, seed, counter);
    if (op) (rank(op) < 2 || !known() ? working : skipped).push(op);
    if (working.length === 3) break;
    await turn();
  }
  if (known()) working.sort((a, b) => rank(a) - rank(b));
  else for (const op of working) op.reach = null;
  // What the probe learnt of each entry it found working, for the listing.
  const reached = [...working, ...skipped].map((op) => ({
    path: op.path,
    form: op.form,
    factory: op.factory,
    reach: op.reach,
  }));
  return { steps, entries, working, skipped: skipped.map(opLabel), reached, allocator: allocOp(raw) };
}

async function verify({ scenario, calls, seed }) {
  const { default: s } = await import(pathToFileURL(scenario).href);
  const ctx = ctxOf(seed);
  const state = await s.setup(ctx);
  const run = Object.values(s.ops)[0].run;
  for (let i = 0; i < calls; i++) {
    await run(state, ctx);
    if (i % YIELD_EVERY === YIELD_EVERY - 1) await turn();
  }
  await s.teardown?.(state, ctx);
  return { calls };
}

/** Why a working op was skipped, as the placeholder's comment says it. */
const opLabel = (op) =>
  `${op.path.join('.')}${op.factory ? `.${op.factory}` : ''} ${op.reach.constant ? 'returns a constant' : 'never entered the module (pure JS)'}`;

const request = JSON.parse(process.argv[2]);
(request.mode === 'verify' ? verify(request) : explore(request)).then(
  (result) => process.send({ result }, () => process.exit(0)),
  (err) => process.send({ error: `${err?.name ?? 'Error'}: ${err?.message ?? err}` }, () => process.exit(0)),
);
