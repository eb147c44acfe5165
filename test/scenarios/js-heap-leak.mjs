// Test scenario: a JS heap leak and nothing else. Each call keeps a small
// object in a list that is never trimmed (a cache without eviction), while
// the wasm module's memory stays put.
const kept = [];

export default {
  setup() {
    return {
      instance: new WebAssembly.Instance(
        new WebAssembly.Module(
          new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 5, 3, 1, 0, 1, 7, 10, 1, 6, 109, 101, 109, 111, 114, 121, 2, 0]),
        ),
      ),
    };
  },
  iteration(_state, i) {
    kept.push({ i, text: `request ${i}`, fields: new Array(24).fill(i) });
  },
};
