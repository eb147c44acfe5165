// The header of a pass's log (docs/log-format.md, "JSON header"): the
// command that reproduces the run, the target, the configuration, and what
// the worker found when it was ready (ops, memories, allocator sources).
import { shellLine } from '../options/argv.js';
import { LOG_VERSION } from '../protocol.js';
import { TOOL } from '../version.js';
import { describeEnvironment } from './env.js';

/** The argv that reproduces a run: the original one with its seed pinned. */
export function pinSeed(argv, seed) {
  const out = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--seed') i++;
    else if (!argv[i].startsWith('--seed=')) out.push(argv[i]);
  }
  return [...out, '--seed', String(seed)];
}

/** The log header of a pass of target under cfg and argv, once the worker said ready. */
export function buildHeader({ target, cfg, argv, ready }) {
  const command = ['wasm-soak', ...pinSeed(argv, cfg.seed)];
  return {
    format: 'wasm-soak-log',
    version: LOG_VERSION,
    tool: TOOL,
    createdAt: new Date().toISOString(),
    command,
    reproduce: shellLine(command),
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
