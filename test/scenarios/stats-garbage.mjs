// Test scenario: stats() returns values that are no byte counts: a string,
// NaN, Infinity and 1e308 (liveBytes), and a real heapBytes.
const bad = ['12', Number.NaN, Number.POSITIVE_INFINITY, 1e308];
let samples = 0;
export default {
  setup() {
    return {};
  },
  iteration() {},
  stats() {
    return { liveBytes: bad[samples++ % bad.length], heapBytes: 65536 };
  },
};
