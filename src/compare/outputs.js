// Checked outputs (compare --check-outputs): every arm runs the same seeded
// calls, so for each call its results, folded into one 64-bit value by the
// argument trampoline, must agree with the first arm's. Compared per block
// (the block's values are its checksum); a block that differs is searched
// for the first differing call.

const hex = (v) => `0x${BigInt.asUintN(64, v).toString(16)}`;

/**
 * The first differing call of round r in each arm against arms[0] (the
 * boundary arm is not checked): [{ arm, block, iteration, expected, got }]
 * (report/compare-words.js words them). Each arm's blocks map holds the
 * worker's block reports ({ outputs: BigInt64Array }).
 */
export function firstMismatch(arms, r, blockCalls) {
  const base = arms[0].blocks.get(r)?.outputs;
  const out = [];
  if (!base) return out;
  for (const arm of arms.slice(1)) {
    if (arm.role === 'boundary') continue;
    const values = arm.blocks.get(r)?.outputs;
    if (!values) continue;
    const j = values.findIndex((v, i) => v !== base[i]);
    if (j < 0) continue;
    const iteration = r * blockCalls + j;
    out.push({
      arm: arm.name,
      block: r,
      iteration,
      expected: hex(base[j]),
      got: hex(values[j]),
    });
  }
  return out;
}
