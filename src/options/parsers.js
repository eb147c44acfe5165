// Value parsers of the option schema (schema.js). Each takes the text given
// on the command line and the option's name, and returns the value the run
// configuration holds, or throws a SoakError (exit 2) that names the option,
// what was wrong and an example that works.

import { usageError } from '../errors.js';
import { ARM_NAME_RULE, armNameProblem } from '../folder-names.js';
import { loadAddon } from '../native.js';
import { isBaselineFolder } from './baseline-ref.js';
import { REPORT_FORMATS } from './formats.js';

const optionError = (message, fix) => usageError('WS_EOPTION', message, fix);

/** An integer parser for the range [min, max]. */
export function integer({ min = 0, max = Number.MAX_SAFE_INTEGER } = {}) {
  return (text, name) => {
    if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
      throw optionError(
        `--${name} must be an integer from ${min} to ${max}, got "${text}".`,
        `Example: --${name} ${Math.max(min, 1000)}`,
      );
    }
    return Number(text);
  };
}

/** A power of two in [min, max] (ring sizes: the ring indexes with a mask). */
export function powerOfTwo({ min, max }) {
  const inRange = integer({ min, max });
  return (text, name) => {
    const n = inRange(text, name);
    if ((n & (n - 1)) !== 0) {
      throw optionError(
        `--${name} must be a power of two, got ${n}.`,
        `Example: --${name} ${2 ** Math.ceil(Math.log2(n))}`,
      );
    }
    return n;
  };
}

/** "30m", "2h", "45s", "1500ms" or plain seconds, more than 0, in milliseconds. */
export function parseDuration(text, name = 'duration') {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text);
  if (!m) {
    throw optionError(`--${name} must look like 90s, 30m or 2h, got "${text}".`, `Example: --${name} 30m`);
  }
  const ms = Number(m[1]) * { ms: 1, s: 1000, m: 60000, h: 3600000 }[m[2] ?? 's'];
  // Zero would read as "no limit" further down, the opposite of what it says.
  if (!(ms > 0)) {
    throw optionError(
      `--${name} must be longer than 0, got "${text}".`,
      `Leave --${name} out to run without a time limit, or give one such as --${name} 30m.`,
    );
  }
  return ms;
}

/** A size in bytes: "2G", "512M", "64K" (binary units) or plain bytes, at least 1 MiB. */
export function parseSize(text, name) {
  const m = /^(\d+)([KMG])?(?:i?B)?$/i.exec(text);
  const bytes = m ? Number(m[1]) * 1024 ** ' KMG'.indexOf((m[2] ?? ' ').toUpperCase()) : Number.NaN;
  if (!(bytes >= 1024 * 1024) || !Number.isSafeInteger(bytes)) {
    throw optionError(
      `--${name} must be a size of at least 1M, such as 2G or 512M, got "${text}".`,
      `Example: --${name} 2G`,
    );
  }
  return bytes;
}

/** A timeout: a duration as parseDuration takes it, or 0 (no timeout), in milliseconds. */
export function parseTimeout(text, name) {
  return text === '0' ? 0 : parseDuration(text, name);
}

/** "auto" or a whole number of warm-up iterations. */
export function parseWarmup(text, name = 'warmup') {
  if (text === 'auto') return 'auto';
  if (!/^\d+$/.test(text)) {
    throw optionError(`--${name} must be a whole number or auto, got "${text}".`, `Example: --${name} 1000`);
  }
  return Number(text);
}

/** A relative time drift such as 0.1 (10 %), in (0, 10). */
export function parseTimeThreshold(text, name = 'time-threshold') {
  const t = Number(text);
  if (!(t > 0 && t < 10)) {
    throw optionError(`--${name} must be a fraction such as 0.1 (10 %), got "${text}".`, `Example: --${name} 0.15`);
  }
  return t;
}

/** A relative change gate: "5%", "0.05" (a fraction) or "none" (no gate); a fraction in [0, 10) or null. */
export function parseGate(text, name) {
  if (text === 'none') return null;
  const m = /^(\d+(?:\.\d+)?)(%)?$/.exec(text);
  const value = m ? Number(m[1]) / (m[2] ? 100 : 1) : Number.NaN;
  if (!(value >= 0 && value < 10)) {
    throw optionError(
      `--${name} must be a percentage such as 5%, a fraction such as 0.05, or none, got "${text}".`,
      `Example: --${name} 5%`,
    );
  }
  return value;
}

const SIZE_UNITS = { B: 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 };

/**
 * A gate's tolerance parser: text is a relative part (`10%`), an absolute
 * part (bytes such as `1MiB`, `512KiB`, `4096` when unit is 'bytes'; a
 * whole number when unit is 'count') or both joined by `+` (`20%+1MiB`).
 * Returns { relative: a fraction or null, absolute: bytes/count or null };
 * a gate fires only on a rise beyond every part given (`0`: any rise).
 */
export function tolerance(unit) {
  const example = unit === 'bytes' ? '20%+1MiB' : '1%+10';
  return (text, name) => {
    const out = { relative: null, absolute: null };
    for (const part of text.split('+')) {
      const pct = /^(\d+(?:\.\d+)?)%$/.exec(part);
      const size = unit === 'bytes' ? /^(\d+(?:\.\d+)?)(?:([KMG])i?B?|B)?$/i.exec(part) : /^(\d+)$/.exec(part);
      if (pct && out.relative === null) out.relative = Number(pct[1]) / 100;
      else if (size && out.absolute === null)
        out.absolute = Math.round(Number(size[1]) * (SIZE_UNITS[(size[2] ?? 'B').toUpperCase()] ?? 1));
      else {
        const what = unit === 'bytes' ? 'a size such as 1MiB' : 'a number of allocations such as 10';
        throw optionError(
          `--${name} must be a percentage such as 10%, ${what}, or both joined by +, got "${text}".`,
          `Example: --${name} ${example}`,
        );
      }
    }
    return out;
  };
}

/**
 * Whether rise (above base) is beyond tol (tolerance()'s): beyond each part
 * given, a relative part read against base. A rise of 0 or less never is.
 */
export function beyondTolerance(rise, base, tol) {
  if (!(rise > 0)) return false;
  if (tol.relative !== null && rise <= tol.relative * base) return false;
  return !(tol.absolute !== null && rise <= tol.absolute);
}

/** A baseline reference, NAME or DIR (src/options/baseline-ref.js): a NAME must be one folder name. */
export function parseBaselineRef(text, name) {
  isBaselineFolder(text, name);
  return text;
}

/** A compare arm of a scenario, "NAME=PATH": { name, path }. */
export function parseArm(text, name) {
  const example = `Example: --${name} dlmalloc=build/dlmalloc.wasm`;
  const m = /^([^=]*)=(.+)$/.exec(text);
  if (!m) throw optionError(`--${name} must be NAME=PATH, got "${text}".`, example);
  const problem = armNameProblem(m[1]);
  if (problem) {
    throw optionError(
      `--${name} ${text}: the arm name "${m[1]}" ${problem}.`,
      `Name the arm with ${ARM_NAME_RULE}. ${example}`,
    );
  }
  return { name: m[1], path: m[2] };
}

/** The finding kinds that name a verdict, in severity order, as C defines them (read from the addon on use). */
export const findingKinds = () => loadAddon().constants.findingKinds;

/** "none" or a comma-separated list of finding kinds, and "inconclusive". */
export function parseFailOn(text, name = 'fail-on') {
  if (text === 'none') return [];
  const kinds = text.split(',').map((k) => k.trim());
  const known = findingKinds();
  for (const k of kinds) {
    if (!known.includes(k) && k !== 'inconclusive') {
      throw optionError(
        `--${name} names an unknown finding kind "${k}".`,
        `Use a comma-separated list of ${known.join(', ')}, inconclusive, or none.`,
      );
    }
  }
  return kinds;
}

/** A comma-separated list of report formats (REPORT_FORMATS). */
export function parseFormats(text, name = 'format') {
  const formats = text.split(',').map((f) => f.trim());
  const bad = formats.filter((f) => !REPORT_FORMATS.includes(f));
  if (bad.length) {
    throw optionError(
      `--${name} has unknown formats: ${bad.map((f) => `"${f}"`).join(', ')}.`,
      `Use a comma-separated list of ${REPORT_FORMATS.join(', ')}, e.g. --${name} html,md.`,
    );
  }
  return formats;
}

/** "ALLOC,FREE": the module's allocator and free function for buf arguments. */
export function parseAlloc(text, name = 'alloc') {
  const names = text.split(',');
  if (names.length !== 2 || names.some((n) => !n)) {
    throw optionError(
      `--${name} must name an allocator and its free function, got "${text}".`,
      `Example: --${name} my_alloc,my_free`,
    );
  }
  return { malloc: names[0], free: names[1] };
}

/** "parse:5,reset:1" into [{ name, weight }]. */
export function parseCalls(text, name = 'call') {
  return text.split(',').map((part) => {
    const m = /^([^:,\s]+)(?::(\d+))?$/.exec(part.trim());
    if (!m || (m[2] !== undefined && Number(m[2]) < 1)) {
      throw optionError(
        `--${name} has a malformed entry "${part}".`,
        `Give export names with optional positive integer weights, e.g. --${name} parse:5,reset:1`,
      );
    }
    return { name: m[1], weight: m[2] === undefined ? 1 : Number(m[2]) };
  });
}

/**
 * One --args value: "SPEC" (every op) or "op=SPEC" (one op), SPEC being
 * comma-separated per-parameter sources: iter, random, random:LO..HI,
 * buf:MIN..MAX (one (ptr, len) pair), or an integer constant. Returns
 * { op: name | null, sources: [{ kind, lo, hi }] }.
 */
export function parseArgSpec(text, name = 'args') {
  const eq = text.indexOf('=');
  const op = eq > 0 ? text.slice(0, eq) : null;
  const params = (eq > 0 ? text.slice(eq + 1) : text).split(',').map((p) => p.trim());
  const bad = (p) =>
    optionError(
      `--${name} has an unknown parameter source "${p}".`,
      `Use iter, random, random:LO..HI, buf:MIN..MAX or an integer, e.g. --${name} buf:16..4096`,
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
 * A per-call budget: "N" (every op), "op=N,…" (those ops) or both,
 * "N,op=M". Returns { all: N | null, ops: { name: N } }.
 */
export function parseBudget(text, name) {
  const budget = { all: null, ops: {} };
  for (const part of text.split(',')) {
    const m = /^(?:([^=\s]+)=)?(\d+)$/.exec(part.trim());
    if (!m) {
      throw optionError(
        `--${name} has a malformed entry "${part}".`,
        `Give a whole number for every op, per-op limits, or both, e.g. --${name} 8 or --${name} 8,parse=2`,
      );
    }
    if (m[1]) budget.ops[m[1]] = Number(m[2]);
    else budget.all = Number(m[2]);
  }
  return budget;
}

/** "K/N" with 1 <= K <= N: the Kth of N shards of a suite, as { k, n }. */
export function parseShard(text, name) {
  const m = /^(\d+)\/(\d+)$/.exec(text);
  const k = m ? Number(m[1]) : 0;
  const n = m ? Number(m[2]) : 0;
  if (!m || n < 1 || k < 1 || k > n) {
    throw optionError(
      `--${name} must be K/N with 1 <= K <= N, got "${text}".`,
      `Example: --${name} 2/4 runs the second of four shares of the suite.`,
    );
  }
  return { k, n };
}
