// Loads and validates a scenario module (worker side) and builds its ctx.

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { usageError } from '../../errors.js';
import { CTL } from '../../protocol.js';
import { createRandom } from './rng.js';

const SHAPE =
  "A scenario's default export is { name?, setup(ctx), iteration(state, ctx) } or { name?, setup(ctx), ops: { name: { weight, run(state, ctx) } } }, with optional teardown(state, ctx) and stats(state).";

/** Imports the scenario at path and checks its shape; exit-2 errors on problems. */
export async function loadScenario(path) {
  const abs = resolve(path);
  if (!existsSync(abs)) {
    throw usageError('WS_ENOENT', `Cannot find the scenario ${path}.`, 'Check the path.');
  }
  let mod;
  try {
    mod = await import(pathToFileURL(abs).href);
  } catch (err) {
    throw Object.assign(
      usageError(
        'WS_ESCENARIO',
        `The scenario ${path} failed to load: ${err.message}.`,
        'Fix the error in the scenario module (run it with node to see the full stack).',
      ),
      { cause: err },
    );
  }
  const s = mod.default;
  const bad = (what) => usageError('WS_ESCENARIO', `The scenario ${path} ${what}.`, SHAPE);
  if (!s || typeof s !== 'object') throw bad('has no default export object');
  if (typeof s.setup !== 'function') throw bad('has no setup(ctx) function');
  if (s.iteration !== undefined && s.ops !== undefined) throw bad('has both iteration and ops; keep one');
  if (typeof s.iteration !== 'function' && (typeof s.ops !== 'object' || s.ops === null)) {
    throw bad('has neither an iteration(state, ctx) function nor an ops object');
  }
  for (const name of ['teardown', 'stats']) {
    if (s[name] !== undefined && typeof s[name] !== 'function') throw bad(`has a ${name} that is not a function`);
  }
  const ops =
    typeof s.iteration === 'function'
      ? [{ name: 'iteration', weight: 1, fn: s.iteration, recv: s }]
      : Object.entries(s.ops).map(([name, op]) => {
          if (!op || typeof op.run !== 'function') throw bad(`has an op "${name}" without a run(state, ctx) function`);
          const weight = op.weight ?? 1;
          if (!Number.isInteger(weight) || weight < 1)
            throw bad(`has an op "${name}" whose weight is not a positive integer`);
          return { name, weight, fn: op.run, recv: op };
        });
  if (ops.length === 0) throw bad('has an empty ops object');
  if (ops.length > 65535) throw bad('has more than 65535 ops');
  return { scenario: s, ops };
}

/**
 * ctx.arm of the arm an instance runs: { name, path } (compare --arm), with
 * compare --package also package ({ name, version, integrity, resolved,
 * root, dir }) and import(specifier = its name) / require(…), which resolve
 * from the version's own folder of the package cache; null outside compare.
 */
function armOf(arm) {
  if (!arm) return null;
  if (!arm.package) return Object.freeze({ ...arm });
  const { importer, ...pkg } = arm.package;
  const requireHere = createRequire(join(pkg.root, 'package.json'));
  return Object.freeze({
    ...arm,
    package: Object.freeze(pkg),
    import: (specifier = pkg.name) => import(importer).then((m) => m.default(specifier)),
    require: (specifier = pkg.name) => requireHere(specifier),
  });
}

/**
 * Builds the ctx passed to setup/iteration: seeded helpers, the seed, the
 * live iteration index (read from the ring's control word, so the loop does
 * not touch ctx per call) and track(memory, label).
 */
export function createContext({ seed, control, track, arm = null }) {
  const random = createRandom(seed);
  return Object.freeze({
    ...random,
    seed,
    // compare --arm NAME=PATH: the arm this instance runs ({ name, path } of its module), else null.
    arm: armOf(arm),
    get iteration() {
      // The loop publishes the 64-bit iteration as two words: low, then high.
      return (control[CTL.iterationHigh] >>> 0) * 2 ** 32 + (control[CTL.iteration] >>> 0);
    },
    track(memory, label) {
      if (!(memory instanceof WebAssembly.Memory)) throw new TypeError('ctx.track expects a WebAssembly.Memory');
      track(memory, label);
    },
  });
}
