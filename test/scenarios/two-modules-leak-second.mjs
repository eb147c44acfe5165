// Test scenario: two Emscripten modules, each with its own memory (16 MiB,
// fixed), as a package that instantiates a decoder and an encoder does. The
// first (clean-emscripten) churns a bounded working set; the second
// (leak-emscripten) leaks about 36 B per call. Both memories stay flat: only
// the second memory's heap census can see the leak, and the finding must
// name that memory, never the first one's census.
import { loadFixture } from '../../soak/scenarios/_fixture-stats.mjs';

export default {
  async setup() {
    const clean = await loadFixture('clean-emscripten');
    const leak = await loadFixture('leak-emscripten');
    return { clean, leak };
  },
  iteration({ clean, leak }, ctx) {
    if (clean.step(ctx.iteration) < 0 || leak.step(ctx.iteration) < 0) throw new Error('step() failed to allocate');
  },
};
