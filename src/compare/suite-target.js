// Suite targets that compare builds: a target with "arms" (modules, or
// name → module for one scenario) runs as `wasm-soak compare` under the
// suite's options, and its "expect" names the winners: { "smaller": arm
// (smallest gzip -9 size), "faster": arm (a real time difference in its
// favour against every other arm) }.
import { resolve } from 'node:path';
import { usageError } from '../errors.js';
import { ARM_NAME_RULE, armNameProblem } from '../folder-names.js';

/** The suite keys of a comparison target, besides name, call, args, alloc, seed and expect. */
export const COMPARE_KEYS = ['arms', 'blocks', 'blockCalls', 'control', 'boundary', 'checkOutputs', 'failIfSlower'];

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * Validates target t (with "arms") of a suite whose folder is base; where
 * names it in errors. Returns t with paths resolved and compare: { paths,
 * arms: [{ name, path }] | null, names }.
 */
export function resolveCompareTarget(t, base, where) {
  const fix =
    'A comparison target has "arms": ["a.wasm", "b.wasm", …] (modules, with "call"), or "scenario" and "arms": { "name": "a.wasm", … }.';
  if (t.module) throw usageError('WS_ESUITE', `${where} has both "module" and "arms".`, fix);
  const list = Array.isArray(t.arms);
  const entries = list ? t.arms.map((p, i) => [LETTERS[i], p]) : Object.entries(t.arms ?? {});
  if (entries.length < 2 || entries.some(([, p]) => typeof p !== 'string') || list === Boolean(t.scenario)) {
    throw usageError('WS_ESUITE', `${where}: "arms" must list at least two modules.`, fix);
  }
  for (const [name] of entries) {
    const problem = armNameProblem(name);
    if (problem) {
      throw usageError(
        'WS_ESUITE',
        `${where}: the arm name "${name}" ${problem}.`,
        `Name each arm with ${ARM_NAME_RULE}: it is the arm's result folder's name.`,
      );
    }
  }
  const arms = entries.map(([name, p]) => ({ name, path: resolve(base, p) }));
  const scenario = t.scenario ? resolve(base, t.scenario) : null;
  const names = arms.map((a) => a.name);
  for (const [key, arm] of Object.entries(t.expect ?? {})) {
    if (!['smaller', 'faster'].includes(key) || !names.includes(arm)) {
      throw usageError(
        'WS_ESUITE',
        `${where}: "expect" of a comparison is { "smaller": arm, "faster": arm } with arms ${names.join(', ')}; got ${JSON.stringify(t.expect)}.`,
        fix,
      );
    }
  }
  return {
    ...t,
    path: scenario ?? arms[0].path,
    expect: t.expect ?? null,
    compare: { paths: scenario ? [scenario] : arms.map((a) => a.path), arms: scenario ? arms : null, names },
  };
}

/** The compare argv of target t under the suite-wide options compare takes. */
export function compareArgv(t, shared) {
  const argv = [...t.compare.paths];
  for (const a of t.compare.arms ?? []) argv.push(`--arm=${a.name}=${a.path}`);
  if (t.call) argv.push('--call', t.call);
  for (const a of t.args ?? []) argv.push(`--args=${a}`);
  if (t.alloc) argv.push('--alloc', t.alloc);
  if (t.seed !== undefined) argv.push('--seed', String(t.seed));
  if (t.blocks !== undefined) argv.push('--blocks', String(t.blocks));
  if (t.blockCalls !== undefined) argv.push('--block-calls', String(t.blockCalls));
  if (t.failIfSlower !== undefined) argv.push('--fail-if-slower', String(t.failIfSlower));
  for (const [key, flag] of [
    ['control', '--control'],
    ['boundary', '--boundary'],
    ['checkOutputs', '--check-outputs'],
  ]) {
    if (t[key]) argv.push(flag);
  }
  return [...argv, ...shared];
}

/** Whether arm is faster than every other arm, each difference real. */
function isFaster(result, arm) {
  const diffs = result.differences.filter((d) => d.role === 'arm');
  if (arm === result.arms[0].name) return diffs.every((d) => d.time.real && d.time.low > 0);
  const d = diffs.find((x) => x.arm === arm);
  return Boolean(d?.time.real && d.time.high < 0);
}

/**
 * The expectations of t that the comparison's result does not meet, as
 * facts: [{ expect: 'smaller', want, arm (the smallest) } | { expect:
 * 'faster', want } | { expect: 'outputs', mismatch (a checked output that
 * differs) }]; report/compare-words.js words them.
 */
export function unmetExpectations(t, result) {
  const out = [];
  const arms = result.arms.filter((a) => a.role === 'arm');
  const smallest = arms.reduce((a, b) => (b.size.gzip < a.size.gzip ? b : a));
  if (t.expect?.smaller && smallest.name !== t.expect.smaller) {
    out.push({ expect: 'smaller', want: t.expect.smaller, arm: smallest.name });
  }
  if (t.expect?.faster && !isFaster(result, t.expect.faster)) out.push({ expect: 'faster', want: t.expect.faster });
  for (const m of result.outputs.mismatches) out.push({ expect: 'outputs', mismatch: m });
  return out;
}
