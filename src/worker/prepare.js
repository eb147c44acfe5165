// Loading the target: a native library, a raw module or a scenario (its
// setup() run), as { scenario, state, ctx, ops, slots, alloc, free, drive, sized,
// bufferMemory, exitCodeOf, wasmGc, native } for the runner; and the checks
// that can only be made once its ops are known.
import { usageError } from '../errors.js';
import { PAGE_BYTES, PHASE } from '../protocol.js';
import { memoryOf } from './memories.js';
import { createContext, loadScenario } from './targets/scenario.js';

/**
 * Fails (exit 2) when a per-op budget (--max-allocs-per-call op=N) names an
 * op the run does not have: only here, once a raw module's or scenario's ops
 * are known, can such a budget be caught before any call.
 */
export function checkBudgetOps(budgets, ops) {
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

/**
 * Prepares w's target (w: the worker's state: target, config, control,
 * enter, capture, memories, objects); stdio: the file descriptors a raw
 * module's WASI gets.
 */
export async function prepare(w, stdio) {
  const { target, config } = w;
  if (target.kind === 'native') {
    const { prepareNativeTarget } = await import('./targets/native.js');
    return { scenario: null, bufferMemory: 0, ...prepareNativeTarget(target, config) };
  }
  if (target.kind === 'module') {
    const { prepareRawTarget } = await import('./targets/raw.js'); // after quiet-wasi.js
    const raw = await prepareRawTarget(target, config, stdio, w.capture.pristine);
    const tracked = w.memories.tracked;
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
      drive: raw.drive,
      sized: raw.sized,
      bufferMemory,
      exitCodeOf: raw.exitCodeOf,
      wasmGc: raw.info.gc,
    };
  }
  const { scenario, ops } = await loadScenario(target.path);
  const ctx = createContext({ seed: config.seed, control: w.control, track: w.capture.track, arm: target.arm ?? null });
  w.enter(PHASE.setup);
  const state = await scenario.setup(ctx);
  w.objects?.watchWebIdl(state); // WebIDL glue has no registry: its classes are found on the state
  return { scenario, state, ctx, ops, bufferMemory: 0 };
}
