// The time-split figure (--time-split): where each op's time goes, one
// stacked bar per op of its four parts (algorithm, allocator, memory.grow,
// JS glue) in ns per call, stamps taken off (summary.timeSplit).
import { timeUnit } from '../format.js';
import { PART_WORDS, sharePercent } from '../time-split-rows.js';
import { linearTics, ticList } from './axes.js';
import { num } from './data.js';
import { windowVars } from './window.js';

const quoted = (s) => `"${String(s).replace(/["\r\n]/g, "'")}"`;

/** The figure ({ name, vars, files, fileVars, desc }), or null without summary.timeSplit's calls. */
export function timeSplitFigure(summary, ctx) {
  const ops = (summary.timeSplit?.ops ?? []).filter((o) => o.calls > 0);
  if (!ops.length) return null;
  const parts = Object.keys(PART_WORDS);
  const hi = Math.max(...ops.map((o) => parts.reduce((a, p) => a + o.ns[p], 0)));
  const unit = timeUnit(hi);
  const tics = linearTics(hi / unit.div);
  const lines = ops.map((o) => [quoted(o.op), ...parts.map((p) => num(o.ns[p] / unit.div))].join(' '));
  const vars = {
    title: `Where the time goes, per call — ${ctx.title}`,
    xlabel: 'op',
    ylabel: `time per call (${unit.label}), stamps taken off`,
    xmax: 0,
    warmup: 0,
    ...windowVars(null),
    xticlist: '',
    yticlist: ticList(tics.values),
    y2ticlist: '',
    ymax: tics.max,
    ...Object.fromEntries(parts.map((p, i) => [`title${i + 1}`, PART_WORDS[p]])),
  };
  const shares = ops.map(
    (o) => `${o.op}: ${parts.map((p) => `${PART_WORDS[p]} ${sharePercent(o.shares[p])}`).join(', ')}`,
  );
  return {
    name: 'time-split',
    vars,
    files: { 'time-split.dat': `${lines.join('\n')}\n` },
    fileVars: { datafile: 'time-split.dat' },
    desc: `Time per call of each op in four parts, in ${unit.label}: ${shares.join('; ')}.`,
  };
}
