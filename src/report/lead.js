// Which finding leads a report and which figure carries it: the findings in
// the order the reports tell them, the figure that draws a finding's
// series, the figures in reading order. Pure functions; no I/O.
import { FINDING_KINDS } from '../protocol.js';
import { formatBytes } from './format.js';

/**
 * The findings in the order the reports tell them: the verdict's kind first,
 * then by summary.severityOrder (FINDING_KINDS when absent; other kinds
 * last), in summary order within a kind. So a memory finding is never told
 * after a slowdown the run also found.
 */
export function orderedFindings(s) {
  const order = s.severityOrder ?? FINDING_KINDS;
  const rank = (f) => (f.kind === s.verdict ? -1 : order.indexOf(f.kind) >>> 0);
  return [...(s.findings ?? [])].sort((a, b) => rank(a) - rank(b));
}

/** The finding the verdict names: the first of the verdict's kind, else the first. */
export function leadFinding(s) {
  return orderedFindings(s)[0] ?? null;
}

// Series the memory figure draws (names as src/analysis/verdict.js gives them).
const MEMORY_SERIES = new Set(['memory', 'heap-top', 'heap-bytes', 'live-bytes', 'js-heap', 'threads-js-heap']);

export const isTimeSeries = (name) => typeof name === 'string' && name.startsWith('time');

const isMemorySeries = (name) =>
  typeof name === 'string' && (MEMORY_SERIES.has(name) || name.startsWith('memory:') || name.startsWith('census'));

/** The figure that draws a finding's series: 'time', 'memory', 'stack', or null (a budget's call). */
export function findingFigure(f) {
  if (isTimeSeries(f?.series)) return 'time';
  if (f?.series === 'stack-depth') return 'stack';
  if (isMemorySeries(f?.series) || f?.slope?.unit === 'bytes') return 'memory';
  return null;
}

const FIGURE_ORDER = ['time', 'memory', 'stack', 'distribution', 'ops', 'time-split'];

/** Figure names in reading order: the one carrying the verdict's finding first, then the usual order. */
export function orderFigures(s, names) {
  const lead = findingFigure(leadFinding(s));
  const rank = (name) => (name === lead ? -1 : FIGURE_ORDER.indexOf(name) >>> 0);
  return [...names].sort((a, b) => rank(a) - rank(b));
}

/**
 * The shadow stack in one sentence when its depth never changed in the calls
 * tested: figures (the names of the figures drawn) hold none for it
 * although the run read the stack pointer. "flat at N B …", N the depth
 * (the first stack pointer read minus the current one) of the tested
 * series. Null when the stack was not read, moved (its figure is drawn) or
 * no figure was drawn at all.
 */
export function stackFlatText(s, figures) {
  const source = s.sources?.stackPointer?.source;
  if (!source || figures.length === 0 || figures.includes('stack')) return null;
  const depth = s.series?.find((x) => x.name === 'stack-depth')?.end ?? 0;
  const below = depth ? ` ${formatBytes(depth)} below the first value read` : '';
  return `flat at ${formatBytes(depth)}: the stack pointer (${source}) stayed put${below} in the calls tested, so no figure is drawn`;
}

export function figureTitle(s) {
  return `${s.name ?? 'wasm-soak'}${s.seed != null ? ` (seed ${s.seed})` : ''}`;
}
