// The shadow stack figure: its depth, with the stack-drift trend.
import { byteUnit, formatCount } from '../format.js';
import { linearTics, ticList, xTics } from './axes.js';
import { envelope, rows } from './data.js';
import { MAX_POINTS } from './limits.js';
import { fittedLine, testedWindow, trendFor, trendVars, warmupEnd, windowVars } from './window.js';

// The shadow stack's depth (the first stack pointer seen minus each one),
// with the stack-drift trend or the tested series' fit.
export function stackFigure(data, summary, ctx) {
  const sp = data.metrics?.stackPointer;
  if (!sp || sp.iter.length < 2) return null;
  const n = data.calls,
    xs = ctx.x;
  const depth = Float64Array.from(sp.value, (v) => sp.value[0] - v);
  const isStack = (name) => name === 'stack-depth';
  // A depth that never changes in the calls tested is a line of text in the
  // reports (words.js stackFlatText: "flat at N B"), not an empty chart.
  const from = testedWindow(summary, isStack)?.from ?? warmupEnd(summary, 'memory', n);
  const tested = depth.filter((_, i) => sp.iter[i] >= from);
  if ((tested.length ? tested : depth).every((d, _, all) => d === all[0])) return null;
  const points = envelope(sp.iter, depth, MAX_POINTS);
  const trend = trendFor(summary, isStack, { tested: true });
  const fit =
    trend && fittedLine(points, trend.slope.perKiloIterations / 1000, trend.window?.from ?? 0, trend.window?.to ?? n);
  const top = Math.max(0, ...points.map((p) => p[1]), ...(fit ?? []).map((p) => p[1]));
  const unit = byteUnit(top),
    t = linearTics((top * 1.04) / unit.div || 1);
  const scale = (list) => list.map(([x, y]) => [x / xs.div, y / unit.div]);
  const files = { 'stack.dat': rows(scale(points)) };
  if (fit) files['stack-trend.dat'] = rows(scale(fit));
  const vars = {
    title: `Shadow stack — ${ctx.title}`,
    xlabel: xs.label,
    yunit: unit.label,
    ymax: t.max,
    yticlist: ticList(t.values),
    y2ticlist: '',
    warmup: warmupEnd(summary, 'memory', n) / xs.div,
    xmax: n / xs.div,
    xticlist: xTics(n / xs.div),
    ...windowVars(trend?.window ?? testedWindow(summary, isStack), xs),
    ...trendVars(fit && trend, 'stack depth'),
  };
  return {
    name: 'stack',
    vars,
    files,
    fileVars: { datafile: 'stack.dat', trendfile: 'stack-trend.dat' },
    desc: `Shadow stack depth over ${formatCount(n)} iterations in ${unit.label}${fit ? `; ${vars.trendnote}` : ''}.`,
  };
}
