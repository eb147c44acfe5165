// "Did you mean": the known word nearest to a mistyped command or option.

/** The edit distance of a and b (insertions, deletions, substitutions, swaps of neighbours). */
function distance(a, b) {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * The candidate nearest to word: within two edits (one for words of three
 * letters or fewer), or one that word begins (--iteration for --iterations
 * is both); null when none is near or two are equally near.
 */
export function closest(word, candidates) {
  const limit = word.length <= 3 ? 1 : 2;
  const scored = candidates
    .map((c) => ({ c, d: c.startsWith(word) && word.length >= 3 ? 0.5 : distance(word, c) }))
    .filter((x) => x.d <= limit)
    .sort((x, y) => x.d - y.d);
  if (scored.length === 0 || (scored.length > 1 && scored[0].d === scored[1].d)) return null;
  return scored[0].c;
}
