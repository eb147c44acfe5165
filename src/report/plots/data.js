// The gnuplot data files of the figures: numbers as gnuplot reads them,
// rows and quoted data blocks, and the envelope that thins a long series
// without losing its extremes.

// A number as gnuplot reads it: an integer as it is, else 7 significant digits.
export const num = (v) => (Number.isInteger(v) ? String(v) : v.toPrecision(7));

export const rows = (list) => `${list.map((r) => r.map(num).join(' ')).join('\n')}\n`;

const quoted = (s) => `"${String(s).replace(/["\r\n]/g, "'")}"`;

// gnuplot data blocks with a quoted header line each, read with `index i`
// and `title columnheader(1)`.
export const blocks = (list) => list.map((b) => `${quoted(b.title)}\n${rows(b.rows)}`).join('\n\n');

// Keeps the min and max of each of `max / 2` buckets, in order, so a slow
// series of any length plots fast without losing its extremes. Rows are
// [x, value], or [x, value, top] with `upper` (same length): top is the
// highest upper of the row's bucket (its own upper when nothing is thinned),
// so a band drawn from value to top loses no peak and sits on the line.
export function envelope(iter, value, max, upper = null) {
  const n = iter.length;
  const row = (i, top) => (upper ? [iter[i], value[i], top] : [iter[i], value[i]]);
  if (n <= max) return Array.from(iter, (_x, i) => row(i, upper?.[i]));
  const out = [],
    buckets = Math.floor(max / 2);
  for (let b = 0; b < buckets; b++) {
    const lo = Math.floor((b * n) / buckets),
      hi = Math.floor(((b + 1) * n) / buckets);
    let imin = lo,
      imax = lo,
      top = -Infinity;
    for (let i = lo; i < hi; i++) {
      if (value[i] < value[imin]) imin = i;
      if (value[i] > value[imax]) imax = i;
      if (upper) top = Math.max(top, upper[i]);
    }
    for (const i of imin <= imax ? [imin, imax] : [imax, imin]) out.push(row(i, top));
  }
  return out;
}
