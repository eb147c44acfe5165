// The ops figure: the median time of each op in windows across the run.
import { OPS_CELL, OPS_FIELDS } from '../../protocol.js';
import { isTimeSeries } from '../lead.js';
import { timeAxis, xTics } from './axes.js';
import { blocks } from './data.js';
import { OP_WINDOWS } from './limits.js';
import { testedWindow, warmupEnd, windowVars } from './window.js';

/** The ops figure ({ name, vars, files, fileVars, desc }), or null with fewer than two ops called. */
export function opsFigure(addon, data, summary, ctx) {
  const ops = data.header?.ops ?? [];
  const n = data.calls;
  if (ops.length < 2 || n < 2) return null;
  const windows = Math.min(OP_WINDOWS, n);
  const out = addon.decimateOps(data.elapsed, data.op, 0, n, ops.length, windows);
  const medians = [];
  const perOp = ops.map((op, _k) => ({ title: op.name, rows: [] }));
  for (let w = 0; w < windows; w++) {
    const centre = (Math.floor((w * n) / windows) + Math.floor(((w + 1) * n) / windows) - 1) / 2;
    for (let k = 0; k < ops.length; k++) {
      const med = out[(w * ops.length + k) * OPS_FIELDS + OPS_CELL.median];
      if (Number.isFinite(med)) {
        perOp[k].rows.push([centre, med]);
        medians.push(med);
      }
    }
  }
  const used = perOp.filter((b) => b.rows.length);
  if (used.length < 2) return null;
  medians.sort((a, b) => a - b);
  const xs = ctx.x;
  const logy = medians[0] > 0 && medians.at(-1) / medians[0] > 50;
  const axis = timeAxis(medians[0], medians.at(-1) * (logy ? 1 : 1.05), logy);
  const unit = axis.unit;
  const files = {
    'ops.dat': blocks(used.map((b) => ({ title: b.title, rows: b.rows.map(([x, v]) => [x / xs.div, v / unit.div]) }))),
  };
  const vars = {
    title: `Median time per op (${windows} windows) — ${ctx.title}`,
    xlabel: xs.label,
    yunit: unit.label,
    logy: logy ? 1 : 0,
    ymin: axis.min,
    ymax: axis.max,
    yticlist: axis.tics,
    y2ticlist: '',
    warmup: warmupEnd(summary, 'time', n) / xs.div,
    xmax: n / xs.div,
    xticlist: xTics(n / xs.div),
    ...windowVars(testedWindow(summary, isTimeSeries), xs),
    nops: used.length,
  };
  return {
    name: 'ops',
    vars,
    files,
    fileVars: { datafile: 'ops.dat' },
    desc: `Median time of each op (${used.map((b) => b.title).join(', ')}) in ${windows} windows, in ${unit.label}.`,
  };
}
