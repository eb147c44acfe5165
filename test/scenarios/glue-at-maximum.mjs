// Test scenario: glue that never lets memory.grow fail, as Emscripten's
// emscripten_resize_heap checks the build's MAXIMUM_MEMORY before it grows:
// it grows a new WebAssembly.Memory({ initial: 1, maximum: 8 }) by a page
// per call until the declared maximum, then refuses by itself. The memory
// reaches its declared maximum (read from the descriptor): memory-exhausted.
const MAXIMUM_PAGES = 8;

export default {
  setup() {
    return { memory: new WebAssembly.Memory({ initial: 1, maximum: MAXIMUM_PAGES }) };
  },
  iteration(state, ctx) {
    if (ctx.iteration % 100 === 99 && state.memory.buffer.byteLength < MAXIMUM_PAGES * 65536) state.memory.grow(1);
  },
};
