// The rows of the reports' tables, from summary.json values: a finding's
// evidence, the ops, the sources inside the allocator, the counting pass's
// allocations and the growth by op, the modules a scenario instantiated.
// Every output (HTML, Markdown, the terminal) draws its tables from these.
// Pure functions; no I/O.
import { formatBytes, formatCount, formatMs, formatNs, formatP, formatPercent, plural, slopeText } from './format.js';

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

// Rows of the per-op table: all ops together first, then each op.
export function opRows(s) {
  const rows = [];
  if (s.time) rows.push({ name: 'all ops', count: s.samples?.calls, threw: null, time: s.time });
  for (const op of s.ops ?? []) rows.push({ name: op.name, count: op.count, threw: op.threw, time: op.time });
  return rows;
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

/** The threads' CPU time (t: summary.sources.threads) in words. */
function threadsCpuText(t) {
  if (t.cpuMs == null) return 'their CPU time is not measured';
  const per = t.cpuPerCall;
  const perCall = per
    ? `, ${formatNs(per.ns)} per call${per.op != null ? ` of op ${per.op}` : ' of the run (its ops together)'}`
    : '';
  return `they used ${formatMs(t.cpuMs)} of CPU time (their own threads, as Linux counts them; not V8's shared helper threads)${perCall}`;
}

/** The threads' JS heaps (t.heaps: { taken, missed, samples }, or absent) in words. */
function threadsHeapText(t) {
  const h = t.heaps;
  if (!h) return 'their JS heaps are not measured';
  const asked = h.taken + h.missed;
  if (h.taken > 0) {
    const last = h.samples.at(-1)?.[1];
    const missed = h.missed > 0 ? `, ${formatCount(h.missed)} of ${formatCount(asked)} went unanswered` : '';
    return `their JS heaps, each after its own full GC, were read at ${plural(h.taken, 'checkpoint')} (summed, ${formatBytes(last ?? 0)} at the last${missed}) and judged apart as "threads-js-heap"`;
  }
  if (asked > 0)
    return `their JS heaps were not read: they answered none of the ${plural(asked, 'checkpoint')} (a thread inside one long call, as a wasi thread in its start function, never turns its event loop)`;
  return 'their JS heaps were not read: none was alive at a checkpoint';
}

/**
 * The worker threads a target started (summary.sources.threads: { started,
 * maxAlive, failed, cpuMs, cpuPerCall, heaps, wasiThreads }), in words: how
 * many, their CPU time and JS heaps where they were read.
 */
export function threadsText(t) {
  const built = t.wasiThreads ? 'the module is built for wasi-threads; ' : '';
  if (!t.started) return `${built}it started no worker thread in this run`;
  const failed = t.failed ? `, ${plural(t.failed, 'thread')} exited with an error` : '';
  // Only a wasi-threads module's threads share its memory (and allocate where the census reads).
  const shared = t.wasiThreads ? ', sharing its memory, whose allocations the heap census sees' : '';
  return `${built}${t.wasiThreads ? 'its loader' : 'it'} started ${plural(t.started, 'worker thread')} (at most ${formatCount(t.maxAlive)} at once${failed})${shared}; ${threadsCpuText(t)}; ${threadsHeapText(t)}; an op that returns a promise is timed to its settlement`;
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
  if (src.threads) rows.push({ what: 'worker threads', found: true, source: threadsText(src.threads), enable: null });
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
      cp.partial && cp.ofCalls
        ? `${cp.status} after ${formatCount(cp.calls)} of ${formatCount(cp.ofCalls)} calls`
        : cp.status,
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
      enable: src.threads?.wasiThreads
        ? 'refused for a module built for wasi-threads: its threads instantiate it out of reach (docs/allocator.md, "Threads")'
        : 'run with --count-allocs (a second, instrumented pass with the same seed)',
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
  return `The counting pass was cut short: these counts cover its first ${formatCount(a.calls)} of the run's ${formatCount(a.ofCalls)} calls, and no verdict uses its live bytes.`;
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
