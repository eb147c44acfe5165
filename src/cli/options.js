// Turns command-line arguments into a validated run configuration. Every
// problem becomes a SoakError (exit 2) that names the option and the fix.
import { parseArgs } from 'node:util';
import { FINDING_KINDS } from '../protocol.js';
import { usageError } from './exit-codes.js';

export const DEFAULTS = Object.freeze({
  iterations: 20000,
  durationMs: null,
  warmup: 'auto',
  slowEvery: 1000,
  slowMs: 1000,
  yieldEvery: 1000,
  yieldMs: 2,
  ringRecords: 1 << 18,
  timeThreshold: 0.1,
  failOn: FINDING_KINDS,
});

const RUN_OPTIONS = {
  call: { type: 'string' },
  args: { type: 'string', multiple: true },
  alloc: { type: 'string' },
  iterations: { type: 'string', short: 'n' },
  duration: { type: 'string' },
  seed: { type: 'string' },
  out: { type: 'string', short: 'o' },
  warmup: { type: 'string' },
  json: { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  'slow-every': { type: 'string' },
  'slow-ms': { type: 'string' },
  'yield-every': { type: 'string' },
  'yield-ms': { type: 'string' },
  'ring-records': { type: 'string' },
  'time-threshold': { type: 'string' },
  'fail-on': { type: 'string' },
  'require-plots': { type: 'boolean' },
  'count-allocs': { type: 'boolean' },
  'max-allocs-per-call': { type: 'string' },
  'max-bytes-per-call': { type: 'string' },
  format: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

/** Parses argv (after the subcommand) with the run options plus `extra`. */
export function parseCommand(argv, extra = {}) {
  try {
    return parseArgs({ args: argv, options: { ...RUN_OPTIONS, ...extra }, allowPositionals: true, strict: true });
  } catch (err) {
    throw usageError(
      'WS_EUSAGE',
      err.message.replace(/\. To specify.*$/s, '.'),
      'Run `wasm-soak --help` for the options.',
    );
  }
}

function integer(name, text, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}) {
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw usageError(
      'WS_EOPTION',
      `--${name} must be an integer from ${min} to ${max}, got "${text}".`,
      `Example: --${name} ${Math.max(min, 1000)}`,
    );
  }
  return Number(text);
}

/** Parses "30m", "2h", "45s", "1500ms" or plain seconds into milliseconds. */
export function parseDuration(text) {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text ?? '');
  if (!m) {
    throw usageError(
      'WS_EOPTION',
      `--duration must look like 90s, 30m or 2h, got "${text}".`,
      'Example: --duration 30m',
    );
  }
  const scale = { ms: 1, s: 1000, m: 60000, h: 3600000 }[m[2] ?? 's'];
  return Number(m[1]) * scale;
}

/** Parses --call "parse:5,reset:1" into [{ name, weight }]. */
export function parseCalls(text) {
  const calls = text.split(',').map((part) => {
    const m = /^([^:,\s]+)(?::(\d+))?$/.exec(part.trim());
    if (!m || (m[2] !== undefined && Number(m[2]) < 1)) {
      throw usageError(
        'WS_EOPTION',
        `--call has a malformed entry "${part}".`,
        'Give export names with optional positive integer weights, e.g. --call parse:5,reset:1',
      );
    }
    return { name: m[1], weight: m[2] === undefined ? 1 : Number(m[2]) };
  });
  return calls;
}

/**
 * Parses one --args value. Either "SPEC" (every op) or "op=SPEC" (one op),
 * SPEC being comma-separated per-parameter sources: iter, random,
 * random:LO..HI, buf:MIN..MAX (one (ptr, len) pair), or an integer constant.
 */
export function parseArgSpec(text) {
  const eq = text.indexOf('=');
  const op = eq > 0 ? text.slice(0, eq) : null;
  const params = (eq > 0 ? text.slice(eq + 1) : text).split(',').map((p) => p.trim());
  const bad = (p) =>
    usageError(
      'WS_EOPTION',
      `--args has an unknown parameter source "${p}".`,
      'Use iter, random, random:LO..HI, buf:MIN..MAX or an integer, e.g. --args buf:16..4096',
    );
  const sources = params.map((p) => {
    if (p === 'iter' || p === 'iteration') return { kind: 'iter' };
    if (p === 'random') return { kind: 'random', lo: 0, hi: 2 ** 31 - 1 };
    let m = /^random:(-?\d+)\.\.(-?\d+)$/.exec(p);
    if (m) {
      const [lo, hi] = [Number(m[1]), Number(m[2])];
      if (lo > hi) throw bad(p);
      return { kind: 'random', lo, hi };
    }
    m = /^buf:(\d+)\.\.(\d+)$/.exec(p);
    if (m) {
      const [lo, hi] = [Number(m[1]), Number(m[2])];
      if (lo > hi || hi > 2 ** 30) throw bad(p);
      return { kind: 'buf', lo, hi };
    }
    if (/^-?\d+$/.test(p)) return { kind: 'const', lo: Number(p), hi: Number(p) };
    throw bad(p);
  });
  return { op, sources };
}

/**
 * Parses a per-call budget: "N" (every op), "op=N,…" (those ops) or both,
 * "N,op=M". Returns { all: N | null, ops: { name: N } }.
 */
export function parseBudget(name, text) {
  const budget = { all: null, ops: {} };
  for (const part of text.split(',')) {
    const m = /^(?:([^=\s]+)=)?(\d+)$/.exec(part.trim());
    if (!m) {
      throw usageError(
        'WS_EOPTION',
        `--${name} has a malformed entry "${part}".`,
        `Give a whole number for every op, per-op limits, or both, e.g. --${name} 8 or --${name} 8,parse=2`,
      );
    }
    if (m[1]) budget.ops[m[1]] = Number(m[2]);
    else budget.all = Number(m[2]);
  }
  return budget;
}

/** Builds the run configuration from parsed values; throws SoakError (exit 2). */
export function runConfig(values) {
  const cfg = { ...DEFAULTS };
  if (values.iterations !== undefined)
    cfg.iterations = integer('iterations', values.iterations, { min: 1, max: 2 ** 32 - 2 });
  if (values.duration !== undefined) cfg.durationMs = parseDuration(values.duration);
  cfg.seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 32) : integer('seed', values.seed);
  if (values.warmup !== undefined && values.warmup !== 'auto') cfg.warmup = integer('warmup', values.warmup);
  if (typeof cfg.warmup === 'number' && cfg.warmup >= cfg.iterations) {
    throw usageError(
      'WS_EOPTION',
      `--warmup ${cfg.warmup} leaves no iterations to measure out of ${cfg.iterations}.`,
      'Use a smaller --warmup, more --iterations, or --warmup auto.',
    );
  }
  // With the default yield cadence a very fast export would spend a tenth of
  // its time turning the event loop, so the default comes with a floor (at
  // most one yield per 0.5 ms); a cadence given explicitly is kept exactly.
  cfg.yieldFloorMs = values['yield-every'] === undefined ? 0.5 : 0;
  if (values['slow-every'] !== undefined) cfg.slowEvery = integer('slow-every', values['slow-every'], { min: 1 });
  if (values['slow-ms'] !== undefined) cfg.slowMs = integer('slow-ms', values['slow-ms'], { min: 1 });
  if (values['yield-every'] !== undefined) cfg.yieldEvery = integer('yield-every', values['yield-every'], { min: 1 });
  if (values['yield-ms'] !== undefined) cfg.yieldMs = integer('yield-ms', values['yield-ms'], { min: 1 });
  if (values['ring-records'] !== undefined) {
    cfg.ringRecords = integer('ring-records', values['ring-records'], { min: 16, max: 1 << 24 });
    if ((cfg.ringRecords & (cfg.ringRecords - 1)) !== 0) {
      throw usageError(
        'WS_EOPTION',
        `--ring-records must be a power of two, got ${cfg.ringRecords}.`,
        'Example: --ring-records 65536',
      );
    }
  }
  if (values['time-threshold'] !== undefined) {
    const t = Number(values['time-threshold']);
    if (!(t > 0 && t < 10)) {
      throw usageError(
        'WS_EOPTION',
        `--time-threshold must be a fraction such as 0.1 (10 %), got "${values['time-threshold']}".`,
        'Example: --time-threshold 0.15',
      );
    }
    cfg.timeThreshold = t;
  }
  if (values['fail-on'] !== undefined) {
    const kinds = values['fail-on'] === 'none' ? [] : values['fail-on'].split(',').map((k) => k.trim());
    for (const k of kinds) {
      if (!FINDING_KINDS.includes(k)) {
        throw usageError(
          'WS_EOPTION',
          `--fail-on names an unknown finding kind "${k}".`,
          `Use a comma-separated list of ${FINDING_KINDS.join(', ')}, or none.`,
        );
      }
    }
    cfg.failOn = kinds;
  }
  cfg.calls = values.call === undefined ? null : parseCalls(values.call);
  cfg.args = (values.args ?? []).map(parseArgSpec);
  if (values.alloc !== undefined) {
    const names = values.alloc.split(',');
    if (names.length !== 2 || names.some((n) => !n)) {
      throw usageError(
        'WS_EOPTION',
        `--alloc must name an allocator and its free function, got "${values.alloc}".`,
        'Example: --alloc my_alloc,my_free',
      );
    }
    cfg.alloc = { malloc: names[0], free: names[1] };
  } else {
    cfg.alloc = null;
  }
  cfg.budgets = {
    allocs:
      values['max-allocs-per-call'] === undefined
        ? null
        : parseBudget('max-allocs-per-call', values['max-allocs-per-call']),
    bytes:
      values['max-bytes-per-call'] === undefined
        ? null
        : parseBudget('max-bytes-per-call', values['max-bytes-per-call']),
  };
  // Budgets are checked on the counting pass's exact counts.
  cfg.countAllocs = Boolean(values['count-allocs']) || cfg.budgets.allocs !== null || cfg.budgets.bytes !== null;
  cfg.json = Boolean(values.json);
  cfg.quiet = Boolean(values.quiet);
  cfg.requirePlots = Boolean(values['require-plots']);
  cfg.formats = values.format ? values.format.split(',') : null;
  return cfg;
}
