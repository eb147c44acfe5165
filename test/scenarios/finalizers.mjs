// Test scenario: glue that frees through a FinalizationRegistry, like
// wasm-bindgen's. Each iteration allocates a wrapper registered for cleanup;
// stats() reports how many wrappers were never cleaned up. The callbacks
// only run when the worker's event loop turns.
const registry = new FinalizationRegistry((state) => {
  state.cleaned++;
});

export default {
  setup() {
    return { created: 0, cleaned: 0 };
  },
  iteration(state) {
    const wrapper = { payload: new Array(64).fill(state.created) };
    registry.register(wrapper, state);
    state.created++;
  },
  stats(state) {
    return { liveBytes: state.created - state.cleaned };
  },
};
