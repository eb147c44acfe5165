// A module whose cost per call rises linearly, for bench/accuracy-real.js: each
// call runs soak/modules/work.wasm's step(), a dependent chain of 64-bit
// multiply-adds whose trip count the module reads from a volatile word of its
// data (soak/fixtures/work.c, `fx_steps`). Before call i the scenario writes
// base × (1 + DRIFT × i / (N − 1)) there, so the last call does DRIFT more work
// than the first, whatever the run's length.
//
//   WS_ACCURACY_CALLS  N, the run's iteration count (required: a scenario does
//                      not see -n)
//   WS_ACCURACY_DRIFT  the relative rise from the first call to the last
//                      (default 0.2; 0 is the same workload without drift)
import { readFile } from 'node:fs/promises';

/** The trip count and the kept step the fixture is built with (work.c: WORK, WORK − 1). */
const WORK = 10000;

/** Returns the index (in 32-bit words) of `fx_steps`: the word WORK followed by WORK − 1. */
function findSteps(words) {
  for (let i = 0; i + 1 < words.length; i++) {
    if (words[i] === WORK && words[i + 1] === WORK - 1) return i;
  }
  throw new Error('work.wasm: the step count (10000, 9999) was not found in its memory; was work.c rebuilt?');
}

/** Reads a numeric environment variable; throws naming it when it is missing or not a number. */
function numberFromEnv(name, fallback) {
  const text = process.env[name];
  if (text === undefined || text === '') {
    if (fallback === undefined) throw new Error(`set ${name} (see bench/scenarios/work-drift.mjs)`);
    return fallback;
  }
  const value = Number(text);
  if (!Number.isFinite(value)) throw new Error(`${name} must be a number, not ${JSON.stringify(text)}`);
  return value;
}

export default {
  name: 'work-drift',
  async setup() {
    const calls = numberFromEnv('WS_ACCURACY_CALLS');
    const drift = numberFromEnv('WS_ACCURACY_DRIFT', 0.2);
    const bytes = await readFile(new URL('../../soak/modules/work.wasm', import.meta.url));
    const { instance } = await WebAssembly.instantiate(bytes, {});
    instance.exports._initialize?.();
    const words = new Uint32Array(instance.exports.memory.buffer);
    // The module never grows its memory, so this view stays attached.
    return {
      step: instance.exports.step,
      words,
      at: findSteps(words),
      perCall: (WORK * drift) / Math.max(1, calls - 1),
    };
  },
  iteration(state, ctx) {
    state.words[state.at] = Math.round(WORK + state.perCall * ctx.iteration);
    state.step(ctx.iteration);
  },
};
