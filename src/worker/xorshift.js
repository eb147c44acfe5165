// The passes' own random draws (the time split's countdowns and control
// calls, the swap's halves): xorshift32 streams, the same in every pass of
// a run, apart from the scenario's seeded inputs (targets/rng.js).

/** A xorshift32 stream from seed (non-zero): a function returning its next value, a uint32. */
export function xorshift32(seed) {
  let x = seed | 0;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
}
