// Test scenario: stats() throws on its second sample.
let samples = 0;
export default {
  setup() {
    return {};
  },
  iteration() {},
  stats() {
    if (++samples === 2) throw new Error('stats broke');
    return { liveBytes: 0 };
  },
};
