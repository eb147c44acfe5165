// Turns summary.json values into the words and numbers the reports show
// (HTML, Markdown, JUnit). Pure functions; no I/O.

import { bytesOf, printable } from '../analysis/blocks.js';
import { shellLine, withoutOptions } from '../options/argv.js';
import { FINDING_KINDS } from '../protocol.js';
import {
  formatCount as count,
  formatBytes,
  formatMs,
  formatNs,
  formatP,
  formatPercent,
  plural,
  trim,
} from './format.js';
import { KIND_WORDS } from './sentences.js';

export { formatBytes, formatMs, formatNs, formatP, formatPercent };

export function formatCount(n) {
  return Number.isFinite(n) ? count(n) : '–';
}

// A value with the unit a finding or series states ('bytes', 'ns', ...).
// A slope in ln(ns) is a relative change: shown as a signed percentage.
function formatQuantity(v, unit) {
  if (unit === 'bytes') return formatBytes(v);
  if (unit === 'ns') return formatNs(v);
  if (unit === 'ln(ns)') return Number.isFinite(v) ? formatPercent(Math.expm1(v)) : '–';
  return Number.isFinite(v) ? `${trim(v)}${unit ? ` ${unit}` : ''}` : '–';
}

/** A trend's slope with its interval: "34.4 KiB per 1,000 calls (95 % interval 33.0 KiB to 35.9 KiB)". */
export function slopeText({ perKiloIterations: k, low, high, unit }) {
  const ci =
    Number.isFinite(low) && Number.isFinite(high)
      ? ` (95 % interval ${formatQuantity(low, unit)} to ${formatQuantity(high, unit)})`
      : '';
  return `${formatQuantity(k, unit)} per 1,000 calls${ci}`;
}

// ---- which figure carries a finding ----

// Series the memory figure draws (names as src/analysis/verdict.js gives them).
const MEMORY_SERIES = new Set(['memory', 'heap-top', 'heap-bytes', 'live-bytes', 'js-heap']);
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

const FIGURE_ORDER = ['time', 'memory', 'stack', 'distribution', 'ops'];

/** Figure names in reading order: the one carrying the verdict's finding first, then the usual order. */
export function orderFigures(s, names) {
  const lead = findingFigure(leadFinding(s));
  const rank = (name) => (name === lead ? -1 : FIGURE_ORDER.indexOf(name) >>> 0);
  return [...names].sort((a, b) => rank(a) - rank(b));
}

// Notes a stable run's headline quotes: the facts that a flat verdict would
// hide (start-up growth, a sawtooth); below-floor trends are only counted.
const HEADLINE_NOTES = new Set(['startup-growth', 'sawtooth']);

/** The notes the headline quotes in full (summary.notes; only a stable run's). */
function headlineNotes(s) {
  return s.verdict === 'stable' ? (s.notes ?? []).filter((n) => HEADLINE_NOTES.has(n.kind)) : [];
}

/** The notes the headline does not quote, one sentence each ([] when none). */
export function noteLines(s) {
  const quoted = new Set(headlineNotes(s));
  return (s.notes ?? []).filter((n) => !quoted.has(n)).map((n) => n.sentence);
}

// The banner: ok (green) only for a completed or interrupted run judged stable.
// A stable run's text leads with what its notes say memory did (start-up
// growth, a sawtooth), so that a flat verdict does not read as flat memory.
export function verdictLine(s) {
  const calls = formatCount(s.iterations?.completed ?? s.samples?.calls);
  if (s.status === 'failed') {
    // A crash still leaves the calls recorded up to the last flush, judged
    // (the verdict of the run is "error"; summary.recordedVerdict judges those calls).
    const judged =
      s.findings && s.recordedVerdict
        ? `. On the ${formatCount(s.samples.calls)} calls recorded: ${KIND_WORDS[s.recordedVerdict]}`
        : '';
    return {
      ok: false,
      title: 'Run failed',
      text: `${s.error ? `Failed ${describeFailure(s.error)}` : 'The run failed'}${judged}.`.replace(/\.\.$/, '.'),
    };
  }
  const partial = s.status === 'interrupted' ? ' (interrupted: judged on the calls completed)' : '';
  if (!s.verdict)
    return { ok: false, title: 'No verdict', text: `${calls} calls; no trend analysis in this summary${partial}.` };
  const word = KIND_WORDS[s.verdict] ?? s.verdict;
  if (s.verdict === 'stable') {
    const facts = headlineNotes(s).map((n) => `${n.sentence} `);
    const below = (s.notes ?? []).filter((n) => n.kind === 'below-floor').length;
    const floor = below
      ? `; ${below === 1 ? 'one trend' : `${formatCount(below)} trends`} below the memory floor (see the notes)`
      : '';
    return {
      ok: true,
      title: 'Stable',
      text: `${facts.join('')}No leak, fragmentation, growth or slowdown found in ${calls} calls${floor}${partial}.`,
    };
  }
  const title = word[0].toUpperCase() + word.slice(1);
  // A verdict that names no finding (inconclusive): neither green nor red,
  // and its first undecided series says why.
  if (!FINDING_KINDS.includes(s.verdict) && !s.findings?.length) {
    const why = s.inconclusive?.[0]?.sentence ?? `No finding could be called in ${calls} calls.`;
    return { ok: false, unsure: true, title, text: `${why}${partial}`.trim() };
  }
  const first = leadFinding(s)?.sentence ?? '';
  return { ok: false, title, text: `${first}${partial}`.trim() };
}

// What the data left undecided, one line each ("reason: sentence"); [] when
// nothing was (summary.inconclusive, docs/summary.md).
export function undecidedLines(s) {
  return (s.inconclusive ?? []).map((u) => `${u.reason}: ${u.sentence}`);
}

/** The tool and version that wrote the summary: "wasm-soak 0.1.0". */
export const toolName = (s) => `${s.tool?.name ?? 'wasm-soak'} ${s.tool?.version ?? '(version unknown)'}`.trim();

/**
 * Where and why a failed run failed, from summary.error: "at iteration 500
 * (op step): unreachable", "in stats near iteration 999: …".
 */
export function describeFailure(e) {
  if (!e) return 'the run failed';
  const at = e.iteration != null ? `iteration ${e.iteration}${e.op != null ? ` (op ${e.op})` : ''}` : null;
  const where = e.phase === 'iteration' && at ? `at ${at}` : `in ${e.phase ?? 'the run'}${at ? ` near ${at}` : ''}`;
  // An Error's own name (ParseError, TypeError) is part of what happened.
  const named = e.name && e.name !== 'Error' && e.name !== 'non-Error value' ? `${e.name}: ` : '';
  return `${where}: ${named}${e.message}`;
}

// Label/value pairs backing a finding's sentence.
export function findingEvidence(f) {
  const rows = [];
  if (f.series) rows.push(['series', f.series]);
  // A budget finding is about one call: its iteration and op, not a window.
  if (f.iteration != null)
    rows.push(['call', `iteration ${formatCount(f.iteration)}${f.op != null ? ` (op ${f.op})` : ''}`]);
  else if (f.op != null) rows.push(['op', f.op]);
  if (f.window && !(f.iteration != null && f.window.to - f.window.from <= 1)) {
    rows.push(['window', `iterations ${formatCount(f.window.from)}–${formatCount(f.window.to)}`]);
  }
  if (f.value != null) {
    const bytes = f.series === 'bytes-per-call';
    const amount = (v) =>
      bytes ? formatBytes(v) : `${formatCount(v)} ${f.series === 'allocs-per-call' ? 'allocations' : ''}`.trim();
    rows.push(['value', `${amount(f.value)}${f.limit != null ? ` (budget ${amount(f.limit)} per call)` : ''}`]);
  }
  if (f.slope) rows.push(['slope', slopeText(f.slope)]);
  if (f.pValue != null) rows.push(['p-value', formatP(f.pValue)]);
  if (f.effect) {
    const { relative, low, high } = f.effect;
    const ci =
      Number.isFinite(low) && Number.isFinite(high) ? ` (${formatPercent(low)} to ${formatPercent(high)})` : '';
    rows.push(['effect', `${formatPercent(relative)} over the window${ci}`]);
  }
  if (f.projection) {
    const p = f.projection;
    rows.push([
      'projection',
      `reaches ${formatBytes(p.limitBytes)} after ${formatCount(p.iterations)} calls` +
        (Number.isFinite(p.wallMs) ? ` (about ${formatMs(p.wallMs)} of running)` : ''),
    ]);
  }
  return rows;
}

// Shortest run of printable bytes a hint quotes, and the longest it quotes.
const HINT_MIN = 4;
const HINT_MAX = 40;
// Runs a hint quotes at most.
const HINT_RUNS = 2;

/** The runs of printable bytes in bytes, as strings. */
function printableRuns(bytes) {
  const runs = [];
  let run = '';
  for (const b of bytes) {
    if (printable(b)) run += String.fromCharCode(b);
    else if (run) {
      runs.push(run);
      run = '';
    }
  }
  if (run) runs.push(run);
  return runs;
}

/**
 * The text leaked blocks hold, quoted for a one-line hint ('"session-token-
 * 000123", "session-token-000871"'): the longest runs of at least HINT_MIN
 * printable bytes, one per block, at most HINT_RUNS of them, each cut to
 * HINT_MAX characters; '' when no block holds such a run.
 */
function blocksHint(blocks) {
  const runs = [];
  for (const b of blocks ?? []) {
    const longest = printableRuns(bytesOf(b.hex)).reduce((a, r) => (r.length > a.length ? r : a), '');
    if (longest.length >= HINT_MIN && !runs.includes(longest)) runs.push(longest);
  }
  return runs
    .slice(0, HINT_RUNS)
    .map((r) => JSON.stringify(r.length > HINT_MAX ? `${r.slice(0, HINT_MAX)}…` : r))
    .join(', ');
}

/**
 * A one-line hint of what finding f's blocks hold ('blocks allocated after
 * warm-up hold "session-token-006450", …'), or '' when f has no blocks or
 * none holds text. The quoted text is printable ASCII, JSON-quoted.
 */
export function blocksHintLine(f) {
  const hint = blocksHint(f.blocks);
  return hint ? `blocks allocated after warm-up hold ${hint}` : '';
}

// Rows of the per-op table: all ops together first, then each op.
export function opRows(s) {
  const rows = [];
  if (s.time) rows.push({ name: 'all ops', count: s.samples?.calls, threw: null, time: s.time });
  for (const op of s.ops ?? []) rows.push({ name: op.name, count: op.count, threw: op.threw, time: op.time });
  return rows;
}

// ---- inside the allocator (summary.sources, .allocations, .growthAttribution) ----

// A count that may be an interpolated quantile (2, 2.5, 3,335.2).
export function formatAllocs(v) {
  return Number.isFinite(v) ? trim(v, 4) : '–';
}

const SOURCE_LABELS = [
  ['heapTop', 'heap top'],
  ['allocator', 'allocator statistics'],
  ['stackPointer', 'stack pointer'],
  ['census', 'heap census'],
  ['gc', 'WasmGC objects'],
];

// Entry points the counting pass instrumented, per module ([[names], ...]).
export function instrumentedText(list) {
  if (!Array.isArray(list) || !list.length) return 'none';
  const mods = list.map(
    (names, i) => `${list.length > 1 ? `module ${i + 1}: ` : ''}${names?.length ? names.join(', ') : 'none'}`,
  );
  return mods.join('; ');
}

// Rows { what, found, source, enable } of the sources table: each automatic
// source (found or what would enable it), where live bytes come from, and the
// counting pass. [] when the summary has no sources.
export function sourceRows(s) {
  const src = s.sources;
  if (!src) return [];
  const rows = SOURCE_LABELS.filter(([k]) => src[k]).map(([k, what]) => ({
    what,
    found: src[k].source != null,
    source: src[k].source ?? null,
    enable: src[k].source == null ? (src[k].enable ?? null) : null,
  }));
  rows.push({
    what: 'live bytes',
    found: src.liveBytes != null,
    source: src.liveBytes ?? null,
    enable:
      src.liveBytes == null
        ? 'a scenario stats() returning liveBytes, an allocator with statistics or one the heap census recognises (above), or --count-allocs'
        : null,
  });
  if (src.memoryGrow)
    rows.push({
      what: 'failed memory.grow',
      // Without a counting pass a memory at its maximum hides them.
      found: src.memoryGrow.enable == null,
      source: src.memoryGrow.source,
      enable: src.memoryGrow.enable ?? null,
    });
  const cp = src.countingPass;
  if (cp) {
    const parts = [
      cp.partial && cp.ofCalls ? `${cp.status} after ${count(cp.calls)} of ${count(cp.ofCalls)} calls` : cp.status,
      `instrumented ${instrumentedText(cp.instrumented)}`,
    ];
    const how = (cp.entryPoints ?? []).filter((e) => e.how !== 'export' && e.how !== 'name section');
    if (how.length) parts.push(how.map((e) => `${e.name}: ${e.how}`).join(', '));
    if (cp.error) parts.push(`error${cp.error.phase ? ` (${cp.error.phase})` : ''}: ${cp.error.message}`);
    rows.push({
      what: 'counting pass',
      found: cp.status !== 'failed',
      source: parts.join('; '),
      enable: cp.note ?? null,
    });
  } else {
    rows.push({
      what: 'counting pass',
      found: false,
      source: null,
      enable: 'run with --count-allocs (a second, instrumented pass with the same seed)',
    });
  }
  return rows;
}

/**
 * The sentence that labels the counts of a counting pass cut short
 * (summary.allocations), '' for one that covered every call.
 */
export function partialCountText(a) {
  if (!a?.partial) return '';
  return `The counting pass was cut short: these counts cover its first ${count(a.calls)} of the run's ${count(a.ofCalls)} calls, and no verdict uses its live bytes.`;
}

// Rows of the per-op allocation table: all ops first (when more than one op),
// then each op, with the timed pass's medians beside the counting pass's
// (allocations.timedMedians: { median, ops: { name: median } }, or absent).
export function allocationRows(s) {
  const a = s.allocations;
  if (!a) return [];
  const timed = a.timedMedians ?? null;
  const ops = a.ops ?? [];
  const row = (name, x, leftBehind, countMedian, timedMedian) => ({
    name,
    calls: x.calls,
    allocs: x.allocs ?? {},
    frees: x.frees?.total ?? null,
    bytes: x.bytes ?? {},
    liveLeftBehind: leftBehind,
    countMedianNs: countMedian ?? null,
    timedMedianNs: timedMedian ?? null,
  });
  const rows = [];
  if (ops.length !== 1) {
    const frees = ops.reduce((t, o) => t + (o.frees?.total ?? 0), 0);
    const left =
      a.live && Number.isFinite(a.live.end) && Number.isFinite(a.live.start) ? a.live.end - a.live.start : null;
    rows.push(row('all ops', { ...a, frees: { total: frees } }, left, a.timeMedianNs, timed?.median));
  }
  for (const o of ops) {
    const count = o.timeMedianNs ?? (ops.length === 1 ? a.timeMedianNs : null);
    rows.push(
      row(o.name, o, o.liveLeftBehind, count, timed?.ops?.[o.name] ?? (ops.length === 1 ? timed?.median : null)),
    );
  }
  return rows;
}

// Rows of the growth attribution table, ops that grew memory or left live
// bytes behind first.
export function growthRows(s) {
  const list = s.growthAttribution ?? [];
  return [...list].sort(
    (x, y) => (y.grownBytes ?? 0) - (x.grownBytes ?? 0) || (y.liveLeftBehind ?? 0) - (x.liveLeftBehind ?? 0),
  );
}

// Relative change of the median from the early to the late window.
export function medianChange(time) {
  const a = time?.early?.median,
    b = time?.late?.median;
  return Number.isFinite(a) && Number.isFinite(b) && a > 0 ? (b - a) / a : NaN;
}

/** The shell command line that reproduces the run of summary s (its reproduce, else its command quoted), or ''. */
export function reproduceCommand(s) {
  if (s.reproduce) return s.reproduce;
  return Array.isArray(s.command) ? shellLine(s.command) : '';
}

/**
 * The command that runs the target again as this run ran (seed included),
 * without its -o/--out, so that it never overwrites this result folder: the
 * evidence. add: arguments to append (['--count-allocs']); replace: the
 * options (long names) they set, which are dropped from the run's own
 * command first (a new -n replaces -n and --duration: the run then makes
 * that many calls). '' when the summary has no command.
 */
export function rerunCommand(s, { add = [], replace = [] } = {}) {
  if (!Array.isArray(s.command)) return '';
  const [tool, command, ...argv] = s.command;
  const kept = withoutOptions(argv, ['out', ...replace]);
  return shellLine([tool, command, ...kept, ...add]);
}

// ---- what to do next ----

// An op that leaves less than this share of the top op's live bytes per call is not named as a lead.
const LEFTOVER_FLOOR = 0.01;

// What a counting pass would add to a memory finding, by kind (and a growth
// finding's cause).
const COUNTING_TELLS = {
  growth: 'it tells a leak (live bytes grow) from fragmentation (they stay flat) and names the op that allocates',
  'growth:live-peaks': 'it measures the peak of live bytes within each call and names the op whose bursts grow',
  'growth:live-rising':
    'it counts live bytes at every allocation and free, with no GC timing in them, and names the op that keeps them',
  'growth:heap-end':
    'it measures the peak of live bytes within each call, the peaks that grew the heap, and names the op that makes them',
  leak: 'it names the op that leaves bytes live and how many per call',
  fragmentation: 'it shows which op allocates how many bytes per call: the sizes that fragment the heap',
  default: 'it counts what each op allocates and leaves behind',
};
// How much longer an inconclusive run should go: a trend's interval narrows
// with the run's length to the power 1.5, so 4 times the calls make it about
// 8 times narrower.
const LONGER = 4;

/**
 * The next steps a reader can take, drawn from what the run knew, most
 * useful first: [{ text, command }] (command: a shell line, or null). The
 * last is always the command that reproduces the run without -o.
 * Long: one rule per kind of evidence, each commented, in the order of their use.
 */
export function nextSteps(s) {
  const steps = [];
  const lead = leadFinding(s);
  const figure = findingFigure(lead);
  const counted = s.sources?.countingPass != null;
  const calls = s.iterations?.completed ?? s.samples?.calls ?? 0;
  if (s.status === 'failed') {
    steps.push({
      text: `Fix the error above${s.error?.iteration != null ? ` (it came at iteration ${formatCount(s.error.iteration)})` : ''}; the command below runs the same calls again.`,
      command: null,
    });
  }
  if (s.verdict === 'inconclusive') {
    // The calls the analysis says would decide (by the run's own rates), else LONGER times the run.
    const more = Math.max(0, ...(s.inconclusive ?? []).map((u) => u.moreCalls).filter(Number.isFinite));
    const n = more > 0 ? Math.ceil(calls + more) : Math.max(1, calls) * LONGER;
    const why =
      more > 0
        ? "by this run's own rates, that is enough to decide"
        : `a trend's interval narrows about ${LONGER ** 1.5} times, enough to call it`;
    steps.push({
      text: `Run longer (${formatCount(n)} calls): ${why}.`,
      command: rerunCommand(s, { add: ['-n', String(n)], replace: ['iterations', 'duration'] }),
    });
  }
  if (figure === 'memory' && !counted && lead?.series !== 'js-heap') {
    steps.push({
      text: `Run again with --count-allocs (no rebuild): a second pass with the same seed counts every allocation; ${COUNTING_TELLS[`${lead.kind}:${lead.cause}`] ?? COUNTING_TELLS[lead.kind] ?? COUNTING_TELLS.default}.`,
      command: rerunCommand(s, { add: ['--count-allocs'], replace: ['count-allocs'] }),
    });
  }
  const classes = s.census?.growing ?? [];
  if (classes.length && lead) {
    const sizes = classes.map(
      (c) => `+${formatCount(c.change)} of ${formatBytes(c.fromBytes)}–${formatBytes(c.toBytes)}`,
    );
    steps.push({
      text: `The heap census saw in-use chunks of these sizes accumulate since warm-up: ${sizes.join(', ')}. Look for the allocation of that size the op makes on every call (headers included: a chunk is a few bytes larger than the request).`,
      command: null,
    });
  }
  if (figure === 'memory' && s.allocations && lead?.series !== 'js-heap') {
    // The counting pass's per-op bytes left live, the most first; an op under
    // LEFTOVER_FLOOR of the top one's is no lead. Where the census saw which
    // chunk sizes accumulate, it says the size: the leftover per call may be
    // many small allocations, not one of its size.
    const leftovers = (s.allocations.ops ?? [])
      .map((o) => ({ name: o.name, calls: o.calls, total: o.liveLeftBehind, per: o.liveLeftBehind / o.calls }))
      .filter((o) => o.per >= 1)
      .sort((a, b) => b.per - a.per);
    const sized = classes.length
      ? 'look for what it allocates and never frees, of the chunk sizes the census saw accumulate (above)'
      : 'look for an allocation of about that size that is never freed';
    for (const o of leftovers.filter((x) => x.per >= leftovers[0].per * LEFTOVER_FLOOR))
      steps.push({
        text: `${o.name} leaves ${formatBytes(o.per)} live per call on average (${formatBytes(o.total)} over ${formatCount(o.calls)} calls): ${sized}.`,
        command: null,
      });
  }
  if (figure === 'memory' && lead?.series !== 'js-heap') {
    const grew = growthRows(s).filter((g) => g.growthEvents > 0 || g.liveLeftBehind > 0);
    const top = grew[0];
    if (top && (s.growthAttribution?.length ?? 0) > 1) {
      const left = top.liveLeftBehind > 0 ? `, left ${formatBytes(top.liveLeftBehind)} live behind` : '';
      steps.push({
        text: `Start with ${top.op}: memory grew most during it (${plural(top.growthEvents, 'growth event')}, ${formatBytes(top.grownBytes)}${left}).`,
        command: null,
      });
    }
  }
  if (lead?.series === 'js-heap') {
    steps.push({
      text: s.sources?.gc?.source
        ? "The JS heap grows, and this WasmGC module's struct and array objects live there: look for where the module keeps them reachable per call (a global, table or array that only grows, a cache never emptied), or for objects the JS side keeps."
        : 'The JS heap grows, not wasm memory: look for objects the JS glue keeps per call (caches, closures, objects only a FinalizationRegistry frees, whose callbacks run only when the event loop turns).',
      command: null,
    });
  }
  if (figure === 'time' && (s.memory?.growthEvents ?? 0) <= (s.memory ? 1 : 0)) {
    steps.push({
      text: 'Calls slow down while memory stays put: look for work per call that grows with what the module has accumulated (a list or table searched on every call, a cache that is never trimmed).',
      command: null,
    });
  }
  if (figure === 'time') {
    const worst = (s.ops ?? [])
      .map((o) => ({ name: o.name, change: medianChange(o.time) }))
      .filter((o) => Number.isFinite(o.change))
      .sort((a, b) => b.change - a.change)[0];
    if (worst && (s.ops?.length ?? 0) > 1)
      steps.push({
        text: `Start with ${worst.name}: its median grew most (${formatPercent(worst.change)} from the early to the late window).`,
        command: null,
      });
  }
  if (lead?.series === 'stack-depth') {
    steps.push({
      text: 'Look for a function that moves the shadow stack pointer down (alloca, a large local array, a varargs call) and returns without restoring it: often hand-written or generated glue.',
      command: null,
    });
  }
  steps.push({ text: 'Reproduce this run (same seed; without -o, so this folder is kept):', command: rerunCommand(s) });
  return steps;
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

/**
 * The modules the run instantiated, in their order of instantiation, each
 * with the labels of its memories (summary.memory.memories[].module: "module
 * #1 (instantiated by glue.js)", a raw target's path, or null for a memory no
 * module declared): [{ module, memories }].
 */
export function instantiatedModules(s) {
  const byModule = new Map();
  for (const m of s.memory?.memories ?? []) {
    const key = m.module ?? null;
    if (!byModule.has(key)) byModule.set(key, []);
    byModule.get(key).push(m.label);
  }
  return [...byModule].map(([module, memories]) => ({ module, memories }));
}

/**
 * The modules a scenario instantiated, in words: 'module #1 (instantiated by
 * glue.js): memory "memory"; module #2 (…): memory "memory#2"'; null when
 * the summary names none.
 */
export function modulesText(s) {
  const list = instantiatedModules(s);
  if (!list.length) return null;
  const memories = (labels) =>
    `${labels.length === 1 ? 'memory' : 'memories'} ${labels.map((l) => `"${l}"`).join(', ')}`;
  return list.map(({ module, memories: labels }) => `${module ?? 'no module'}: ${memories(labels)}`).join('; ');
}

export function figureTitle(s) {
  return `${s.name ?? 'wasm-soak'}${s.seed != null ? ` (seed ${s.seed})` : ''}`;
}
