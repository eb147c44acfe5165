// The order in which compared arms run their blocks: serial rounds, one
// block per arm each, so that drift of the machine hits every arm alike.
// Two arms run ABBA BAAB …; more arms a balanced order: round r runs the
// arms rotated by floor(r / 2), reversed in odd rounds, so over 2k rounds
// (k arms) each arm sits in each position equally often and follows each
// other arm as often as it precedes it.

/** The arm indices of round r among n arms. */
export function roundOrder(n, r) {
  const shift = Math.floor(r / 2) % n;
  const order = Array.from({ length: n }, (_, i) => (i + shift) % n);
  return r % 2 === 1 ? order.reverse() : order;
}

/** The block sequence of rounds rounds among n arms: [[arm, …] per round]. */
export const blockOrder = (n, rounds) => Array.from({ length: rounds }, (_, r) => roundOrder(n, r));

/**
 * The sequence as letters: "AB BA BA AB" (arm names by index); names longer
 * than one character (compare --arm, --package) separated by commas:
 * "0.9.1,0.9.2 0.9.2,0.9.1".
 */
export function describeOrder(order, names) {
  const sep = names.every((n) => n.length === 1) ? '' : ',';
  return order.map((round) => round.map((i) => names[i]).join(sep)).join(' ');
}
