// Calls of fixed cost long enough (about 100 µs) for the loop to watch each
// for preemption: soak/modules/work.wasm's step(), whose trip count the module
// reads from a volatile word of its data (soak/fixtures/work.c, `fx_steps`),
// set ten times higher once at setup.
import { readFile } from 'node:fs/promises';

/** The trip count and the kept step the fixture is built with (work.c: WORK, WORK − 1). */
const WORK = 10000;

export default {
  name: 'long-calls',
  async setup() {
    const bytes = await readFile(new URL('../../soak/modules/work.wasm', import.meta.url));
    const { instance } = await WebAssembly.instantiate(bytes, {});
    instance.exports._initialize?.();
    const words = new Uint32Array(instance.exports.memory.buffer);
    const at = words.findIndex((w, i) => w === WORK && words[i + 1] === WORK - 1);
    if (at < 0) throw new Error('work.wasm: the step count (10000, 9999) was not found; was work.c rebuilt?');
    words[at] = 10 * WORK;
    return instance.exports.step;
  },
  iteration(step, ctx) {
    step(ctx.iteration);
  },
};
