// The figures' axes: the iteration scale, and tics of linear, log and time
// axes, each label written by the one number formatter.
import { formatTick, timeUnit } from '../format.js';
import { num } from './data.js';

export function iterScale(n) {
  if (n >= 2e6) return { div: 1e6, label: 'iteration (millions)' };
  if (n >= 2e4) return { div: 1e3, label: 'iteration (thousands)' };
  return { div: 1, label: 'iteration' };
}

// A gnuplot tic list, each label written by the one number formatter.
export const ticList = (values, suffix = '') =>
  values.length ? `(${values.map((v) => `"${formatTick(v)}${suffix}" ${num(v)}`).join(', ')})` : '';

// Tics of a linear axis from lo (0 unless given; rounded down to a tic)
// that reaches at least hi: about five at a step of 1, 2, 2.5 or 5 times a
// power of ten. { values, min, max } (the first and last tic).
export function linearTics(hi, lo = 0) {
  if (!(hi > lo)) return { values: [lo, lo + 1], min: lo, max: lo + 1 };
  const raw = (hi - lo) / 5,
    p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * p).find((x) => x >= raw);
  const first = Math.floor(lo / step + 1e-9),
    last = Math.ceil(hi / step - 1e-9);
  const values = Array.from({ length: last - first + 1 }, (_, i) => Number(((first + i) * step).toPrecision(12)));
  return { values, min: values[0], max: values.at(-1) };
}

// Tics of a log axis from lo to hi: powers of ten, with 2 and 5 (or more
// steps) between them when the range spans less than two decades.
export function logTics(lo, hi) {
  if (!(lo > 0) || !(hi > lo)) return [];
  const steps = [[1], [1, 2, 5], [1, 1.5, 2, 3, 5, 7]];
  for (const mant of hi / lo >= 100 ? steps : steps.slice(1)) {
    const tics = [];
    for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
      for (const m of mant) {
        const v = Number((m * 10 ** e).toPrecision(3));
        if (v >= lo && v <= hi) tics.push(v);
      }
    }
    if (tics.length >= 4 && tics.length <= 14) return tics;
  }
  const decades = [];
  for (let e = Math.ceil(Math.log10(lo)); e <= Math.floor(Math.log10(hi)); e++) decades.push(10 ** e);
  return decades;
}

// The iteration axis's tics, written like every other number (2,000, not 2000).
export const xTics = (xmax) => ticList(linearTics(xmax).values.filter((v) => v <= xmax * (1 + 1e-9)));

// The y axis of a time figure whose plotted values run from lo to hi (ns):
// its unit (from the top), range and tics, log or linear from 0.
export function timeAxis(lo, hi, logy) {
  if (logy) {
    // The unit of the axis's geometric middle, so decades either side read
    // as 0.1 … 10,000 rather than 0.001 … 10; a larger one when a tick
    // would still pass 10,000.
    for (let unit = timeUnit(Math.sqrt(lo * hi)); ; unit = timeUnit(unit.div * 1e4)) {
      const min = (lo / unit.div) * 0.9,
        max = (hi / unit.div) * 1.1,
        tics = logTics(min, max);
      if (!(tics.at(-1) > 1e4) || unit.label === 's') return { unit, min, max, tics: ticList(tics) };
    }
  }
  const unit = timeUnit(hi),
    t = linearTics(hi / unit.div);
  return { unit, min: 0, max: t.max, tics: ticList(t.values) };
}
