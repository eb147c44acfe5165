// What a reader can do next, drawn from what the run knew, and the shell
// commands the reports print: the one that reproduces the run, and reruns
// of it with other options. Pure functions; no I/O.
import { shellLine, withoutOptions } from '../options/argv.js';
import { formatBytes, formatCount, formatPercent, plural } from './format.js';
import { findingFigure, leadFinding } from './lead.js';
import { growthRows, medianChange } from './tables.js';

// The JS heap series (src/analysis/verdict.js): the soak worker's, the target's threads'.
const JS_HEAPS = new Set(['js-heap', 'threads-js-heap']);

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
  // A wasi-threads module's counting pass is refused (docs/allocator.md, "Threads").
  if (figure === 'memory' && !counted && !JS_HEAPS.has(lead?.series) && !s.sources?.threads?.wasiThreads) {
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
  if (figure === 'memory' && s.allocations && !JS_HEAPS.has(lead?.series)) {
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
  if (figure === 'memory' && !JS_HEAPS.has(lead?.series)) {
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
  if (lead?.series === 'threads-js-heap') {
    steps.push({
      text: "The JS heap of the worker threads the target started grows, not the soak worker's: look for what the thread code keeps per message or per job (a queue never drained, results kept after they were posted back, a cache in the thread).",
      command: null,
    });
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
