// The analysis's facts in words: the sentence of every finding, of what the
// data could not decide, of every note, and of the counting pass's caveat.
// The analysis (src/analysis/) returns codes and numbers only; withSentences
// words them once, for every output (terminal, summary.json's `sentence`,
// summary.md, report.html, junit.xml). docs/verdicts.md says what each means.
import { growsWithCalls } from '../analysis/grows-with-calls.js';
import { namedSites } from '../analysis/sites.js';
import { TREND_METHOD } from '../analysis/verdict.js';
import { UNDECIDED_REASON, WASM32_MAX_BYTES } from '../protocol.js';
import { regressionSentence } from './baseline-words.js';
import { CAVEAT_WORDS } from './caveat-words.js';
import { garbageText, growingClassesText, heldObjectsText, sitesText, unfreedClassesText } from './evidence-words.js';
import { withFactWords } from './fact-words.js';
import { formatBytes, formatCount, formatMs, formatNs, formatPercent, plural } from './format.js';
import { THREAD_NOTES, threadNoteSentence } from './thread-words.js';

// Each verdict and finding kind in a few words, for banners and tables
// (test/unit/analysis/judge.test.js checks that every kind of C's list has an entry).
export const KIND_WORDS = Object.freeze({
  stable: 'stable',
  error: 'error',
  inconclusive: 'inconclusive',
  'memory-exhausted': 'memory exhausted',
  leak: 'leak',
  'unfreed-objects': 'objects never freed',
  fragmentation: 'fragmentation',
  growth: 'memory growth',
  slowdown: 'slowdown',
  'js-heap-growth': 'JS heap growth',
  budget: 'allocation budget exceeded',
  'stack-drift': 'stack drift',
  'hung-call': 'hung call',
  regression: 'regression',
  expectation: 'not as expected',
});

const SERIES_WORDS = {
  memory: 'Linear memory',
  'heap-top': 'The heap top',
  'heap-bytes': 'The allocator heap',
  'live-bytes': 'Live bytes',
  'js-heap': "The worker's JS heap",
  'threads-js-heap': 'The JS heap of the worker threads the target started (summed over them)',
  'stack-depth': 'The shadow stack',
  'free-holes': 'Free bytes between blocks',
};

/** A series' name as the subject of a sentence. */
const subject = (name) => SERIES_WORDS[name] ?? `Memory ${name.slice('memory:'.length)}`;

/** A slope per 1,000 calls in words. */
const rateOf = (slope) => `${formatBytes(slope.perKiloIterations)} per 1,000 calls`;

/** "+4.1 % (98 % interval +2 % to +6.3 %)" of an effect { relative, low, high }. */
const withInterval = (e) =>
  `${formatPercent(e.relative)} (98 % interval ${formatPercent(e.low)} to ${formatPercent(e.high)})`;

function describeProjection(p) {
  if (p == null) return '';
  const when = p.wallMs == null ? '' : ` (about ${formatMs(p.wallMs)})`;
  return ` At this pace it reaches ${formatBytes(p.limitBytes)} after about ${formatCount(p.iterations)} more calls${when}.`;
}

// The machine's own drift in words, as the control saw it (machine: the time
// series' facts): the reference workload's change and the batches
// preemption disturbed.
function machineWords(m) {
  if (!m?.controlled) return 'no reference workload was measured in this run';
  const disturbed =
    m.preemptedCalls > 0
      ? `; ${formatCount(m.preemptedCalls)} preempted calls left out${m.disturbedBatches > 0 ? `, ${formatCount(m.disturbedBatches)} of ${formatCount(m.batches)} batches mostly preempted` : ''}`
      : '';
  return `a reference workload timed in the same run changed by ${withInterval(m.change)}${disturbed}`;
}

// The decided change with the interval that decided it (docs/verdicts.md,
// "Time against the machine"): one statistic, decided and quoted. effect:
// { relative, low, high, method }.
function decidedWords(effect) {
  const against = effect.method === TREND_METHOD.againstMachine ? ' against the machine' : '';
  return `${formatPercent(effect.relative)} across the run${against} (98 % interval ${formatPercent(effect.low)} to ${formatPercent(effect.high)})`;
}

// The second timed pass a slowdown was tested on (replica: the time facts'),
// in words: the same calls, or (memory asked for it too) another seed's.
function timeSecondPass(replica) {
  if (replica.sameCalls !== false) return 'a second pass of the same calls';
  return `a second run with another seed${replica.seed != null ? ` (seed ${replica.seed})` : ''}`;
}

// The slowdown in words: the change that decided it with its interval, the
// typical call of the early and late windows, what the machine did
// meanwhile, and the second pass that confirmed it.
function slowdownWords(f) {
  const e = f.effect;
  const against = e.method === TREND_METHOD.againstMachine ? ' against the machine' : '';
  const again = f.replica
    ? `, and again in ${timeSecondPass(f.replica)}: ${decidedWords({ ...f.replica.effect, method: e.method })}`
    : '';
  return `Time per call rises by ${formatPercent(e.relative)} across the run${against} (98 % interval ${formatPercent(e.low)} to ${formatPercent(e.high)}; typical call ${formatNs(f.windows.early.ns)} early, ${formatNs(f.windows.late.ns)} late; ${machineWords(f.machine)})${again}`;
}

// Why memory growth is growth, not a leak or fragmentation (GROWTH_CAUSE).
function growthWords(cause, what, rate) {
  switch (cause) {
    case 'live-peaks':
      return `${what} grows by ${rate} after warm-up; live bytes stay flat between calls but their peaks rise, so the heap grows to hold bursts of live data that are freed again — a leak in bursts cannot be told from growing bursts.`;
    case 'live-rising':
      return `${what} grows by ${rate} after warm-up; live bytes rose too, but unevenly (in steps, as live data freed late by a GC or a FinalizationRegistry makes them), so this run cannot call it a leak or bursts: a longer run (twice the calls) tells.`;
    case 'heap-end':
      return `${what} grows by ${rate} after warm-up while live bytes and the free bytes between blocks stay flat: the heap grew at its end (its free top chunk), to hold peaks of live bytes freed again between samples, not through fragmentation. Peaks that keep rising often come from objects freed late (a FinalizationRegistry, or a GC that runs later on a loaded machine); --count-allocs measures the peaks within calls.`;
    default:
      return `${what} grows by ${rate} after warm-up, but live bytes are not observable (the heap census recognised no allocator), so a leak cannot be told from fragmentation; --count-allocs (no rebuild), a scenario stats() returning liveBytes, or an exported mallinfo would tell.`;
  }
}

/** Why a memory.grow failed, in words, given its reason and the limit (bytes or null). */
function limitWords(reason, limit) {
  if (reason === 'wasm32-limit') return 'past the 4 GiB limit of wasm32';
  if (reason === 'declared-maximum')
    return `past its declared maximum${limit != null ? ` (${formatBytes(limit)})` : ''}`;
  const below = limit != null ? `its declared maximum (${formatBytes(limit)})` : 'its declared maximum (if any)';
  return `below ${below} and the 4 GiB of wasm32: the engine refused it (an engine page limit such as V8's --wasm-max-mem-pages, or no address space left)`;
}

/** The failed memory.grow calls of a pass in words (g: the grow facts of a memory-exhausted finding). */
function failedGrowWords(g) {
  const times = g.failedGrows === 1 ? 'once' : `${formatCount(g.failedGrows)} times`;
  const where = `${g.op != null ? 'iteration' : 'after iteration'} ${formatCount(g.iteration)}${g.op ? ` (op ${g.op})` : ''}`;
  const asked = g.bytes > 0 ? `${formatBytes(g.bytes)} more` : 'more memory';
  const seen =
    g.pass === 'counting' ? ' (seen by the counting pass, which reports every memory.grow inside the module)' : '';
  return `memory.grow failed ${times}${seen}, first at ${where}: it asked for ${asked} on a memory of ${formatBytes(g.memoryBytes)}, ${limitWords(g.reason, g.limitBytes)}. The module's allocations fail from there.`;
}

/** A memory-exhausted finding in words: the series that reached its limit, the allocator that ran dry, or failed grows. */
function exhaustedWords(f) {
  if (f.series === 'memory.grow') return failedGrowWords(f);
  let base;
  if (f.series === 'allocator') {
    const what = f.bytes == null ? 'a buffer argument' : `a ${formatBytes(f.bytes)} buffer argument`;
    const where = f.iteration != null ? ` at iteration ${formatCount(f.iteration)}${f.op ? ` (op ${f.op})` : ''}` : '';
    base = `The module's allocator returned no usable block for ${what}${where}: its memory is exhausted, and the run stopped there.`;
  } else {
    const limit =
      f.limitBytes >= WASM32_MAX_BYTES
        ? 'the 4 GiB limit of wasm32'
        : `its declared maximum (${formatBytes(f.limitBytes)})`;
    base = `${subject(f.series)} reached ${formatBytes(f.bytes)} at iteration ${formatCount(f.iteration)}${f.op != null ? ` (op ${f.op})` : ''}: ${limit}. From there every memory.grow fails, so the module's allocations fail.`;
  }
  return f.grow ? `${base} ${failedGrowWords(f.grow)}` : base;
}

/** A broken allocation budget in words. */
function budgetWords(f) {
  const bytes = f.series === 'bytes-per-call';
  const amount = bytes ? formatBytes(f.value) : formatCount(f.value);
  const allowed = bytes ? formatBytes(f.limit) : formatCount(f.limit);
  const what = bytes ? 'of allocations' : 'allocations';
  return `Call ${formatCount(f.iteration)} (op ${f.op}) made ${amount} ${what}; the budget is ${allowed} per call (--max-${bytes ? 'bytes' : 'allocs'}-per-call).`;
}

/** Finding f's sentence; ctx: { findings, memoryCount, sites, error } of the result it is in. */
function findingSentence(f, ctx) {
  const rate = f.slope ? rateOf(f.slope) : '';
  const what = f.series ? subject(f.series) : '';
  let text;
  switch (f.kind) {
    case 'leak':
      text = `${what} grow by ${rate} after warm-up and never come back: a leak.${describeProjection(f.projection)}`;
      break;
    case 'unfreed-objects':
      text = f.lost
        ? `${what} grow by ${rate} after warm-up and never come back: objects the application never freed were collected by the garbage collector with no free, and their glue has no finalizer, so their memory is lost. Since warm-up, ${unfreedClassesText(f.classes, true)}. Free each one (free(), delete()) when done with it.${describeProjection(f.projection)}`
        : `${f.slope ? `${what} grows by ${rate} after warm-up while the live bytes the application holds stay flat: objects` : 'Objects'} the application never freed wait for the garbage collector, whose finalizers free their memory only when it runs, and linear memory never shrinks.${garbageText(f.garbage)} Since warm-up, ${unfreedClassesText(f.classes, false)}. Call free() on each when done with it.${describeProjection(f.projection)}`;
      break;
    case 'fragmentation':
      text = `${what} grows by ${rate} while live bytes and their peaks stay flat: the allocator is fragmenting.${describeProjection(f.projection)}`;
      break;
    case 'growth':
      text = `${growthWords(f.cause, what, rate)}${describeProjection(f.projection)}`;
      break;
    case 'stack-drift': {
      const p = f.projection;
      text = `The shadow stack pointer sinks by ${rate} and is never restored: something allocates on the wasm stack without giving it back, and the module will corrupt its memory or trap when the stack runs out.${p ? ` At this pace the stack pointer reaches address 0 after about ${formatCount(p.iterations)} more calls (sooner if static data lies below the stack).` : ''}`;
      break;
    }
    case 'js-heap-growth':
      text =
        f.series === 'threads-js-heap'
          ? `${what} grows by ${rate} after warm-up, each thread's heap read after its own full GC: ${
              f.poolGrowing
                ? `the pool kept starting threads, from ${formatCount(f.poolGrowing.aliveFrom)} alive at warm-up's end to ${formatCount(f.poolGrowing.aliveTo)} at the end, each with a heap of its own (see the note), or a thread keeps objects alive that it no longer needs`
                : 'a thread keeps objects alive that it no longer needs'
            } (each thread is its own V8 isolate; the soak worker's heap is judged apart).`
          : f.wasmGc
            ? `${what} grows by ${rate}: the module is a WasmGC module (${plural(f.wasmGc.structs, 'struct type')} and ${plural(f.wasmGc.arrays, 'array type')}), whose objects live in the engine's garbage-collected heap, not in linear memory, so the JS heap after full GCs is where its leak shows: it keeps objects reachable that it no longer needs.`
            : `${what} grows by ${rate}: the JS glue keeps objects alive (often a FinalizationRegistry that never gets to run).`;
      break;
    case 'slowdown': {
      const memoryGrows = ctx.findings.some((x) => x !== f && x.kind !== 'slowdown' && TREND_KINDS.has(x.kind));
      // A slowdown beside memory that grows with the calls was not timed again (analyze.js toReplicate).
      const explained = !f.replica && ctx.findings.some((x) => x !== f && growsWithCalls(x));
      text = `${slowdownWords(f)}${
        explained
          ? ', as memory grows with the calls (see the memory finding): the growing heap explains it, and it recurs with the heap, so the calls were not timed again'
          : memoryGrows
            ? ', and memory grows as well (see the memory finding)'
            : ' while memory shows no sustained growth'
      }.`;
      break;
    }
    case 'memory-exhausted':
      return exhaustedWords(f);
    case 'budget':
      return budgetWords(f);
    case 'hung-call':
      return ctx.error?.message ?? ''; // the run's error says what hung and which limit it passed
    default:
      return f.sentence ?? '';
  }
  if (f.replica?.confirmed && f.series !== 'time') text += ` It recurred in ${secondRunWords(f.replica)}.`;
  text += heldObjectsText(f.objects);
  if (f.neverFrees)
    text +=
      ' The allocator never frees: every allocation stays live (the heap census saw its heap top only rise, with untouched memory above it), so every allocation a call makes is part of the leak.';
  const classes = growingClassesText(f.sizeClasses);
  if (classes) text += ` Sizes that accumulate: ${classes}.`;
  const sites = f.sites ? sitesText(ctx.sites) : '';
  if (sites) text += ` ${sites}`;
  if (f.memory && ctx.memoryCount > 1)
    text += ` It is in memory "${f.memory.label}"${f.memory.module ? ` of ${f.memory.module}` : ''}.`;
  return text;
}

// The kinds the trend tests find (memory ones and the slowdown), whose
// sibling a slowdown's sentence mentions.
const TREND_KINDS = new Set([
  'leak',
  'unfreed-objects',
  'fragmentation',
  'growth',
  'stack-drift',
  'js-heap-growth',
  'memory-exhausted',
  'slowdown',
]);

const LIVE_SOURCES =
  'live bytes: run with --count-allocs, or give the scenario a stats() returning liveBytes, or use a build whose allocator the heap census recognises';

// Why a rise another seed's run does not repeat is no growth of the code.
const WANDER_WORDS = "a working set wanders with its run's own draws";

// The second run a memory finding or question was tested on (s.replica:
// its pattern, slope and seed), in words.
function secondRunWords(again) {
  const seed = again?.seed != null ? `seed ${again.seed}, ` : '';
  const there = again?.slope ? `${again.pattern}, ${rateOf(again.slope)}` : again?.pattern;
  return `a second run with another seed (${seed}a fresh instance: ${there})`;
}

// A memory finding that a second run with another seed did not show, in
// words. s: the series' facts (its slope, and the second run's as
// s.replica). Live bytes: the working set's own wander; the heap: peaks of
// blocks freed late (growth held by peaks), or its wander.
function memoryNotReplicatedWords(what, s, more) {
  const second = secondRunWords(s.replica);
  if (s.name === 'live-bytes')
    return `${what} rose by ${rateOf(s.slope)} after warm-up (p = ${s.pValue.toPrecision(2)}), but not in ${second}: ${WANDER_WORDS}, and a rise that another run's draws do not repeat is that wander, not a leak of the code. A longer run (${more}) would tell.`;
  return `${what} grew by ${rateOf(s.slope)} after warm-up while live bytes did not (the heap grew to hold peaks of blocks freed later, or wandered), but not in ${second}: peaks of blocks freed late follow when the glue's garbage is collected and its finalizers run, and a wander follows the run's own draws, not the calls. A longer run (${more}) would show whether it levels off.`;
}

// A time verdict the machine's own drift kept from deciding, in words. t:
// the time series' facts.
function machineNoiseWords(t, more) {
  const threshold = formatPercent(t.threshold);
  const alone = t.machine.callsAlone;
  const adjusted = t.effect.method === TREND_METHOD.againstMachine;
  if (adjusted && t.effect.low >= t.threshold)
    return `Against the machine, time per call rose by ${withInterval(t.effect)} across the run, but the calls' own time did not show it (${formatPercent(alone.relative)}, 98 % interval ${formatPercent(alone.low)} to ${formatPercent(alone.high)}), while ${machineWords(t.machine)}. The machine got faster as the calls stayed level, or the reference workload and the module answer the machine differently: a run on a quieter machine (${more}), or the builds side by side with wasm-soak compare (ABBA blocks), would decide it.`;
  const against = adjusted ? withInterval(t.effect) : 'unknown (too few undisturbed batches)';
  return `Time per call rose by ${formatPercent(alone.relative)} across the run (98 % interval ${formatPercent(alone.low)} to ${formatPercent(alone.high)}), but ${machineWords(t.machine)}: against the machine the change is ${against}, not shown to reach the ${threshold} threshold. The machine, not the module, slowed: a run on a quieter machine (${more}), or the builds side by side with wasm-soak compare (ABBA blocks), would decide it.`;
}

/**
 * A memory series' value at the tested window's start and end (s: its facts):
 * a step series' (linear memory's) from its growth events, exact, else its
 * first and last segment levels. Every sentence about what memory did after
 * warm-up quotes these, the numbers the judge read.
 */
function afterWarmup(s) {
  const e = s?.events;
  if (e) return { from: e.baseBytes, to: e.baseBytes + e.grownBytes, events: e.count };
  return { from: s?.start, to: s?.end, events: null };
}

/**
 * "38.0 MiB → 69.7 MiB after warm-up (272 growth events)" of afterWarmup(s),
 * more: what else the parentheses say.
 */
function risenWords(s, more = []) {
  const a = afterWarmup(s);
  const count = a.events ? [`${formatCount(a.events)} growth event${a.events === 1 ? '' : 's'}`] : [];
  const said = [...count, ...more];
  return `${formatBytes(a.from)} → ${formatBytes(a.to)} after warm-up${said.length ? ` (${said.join(', ')})` : ''}`;
}

/** What the data could not decide (u), in words, with what would decide it; s: its series' facts. */
function undecidedSentence(u, s) {
  const what = u.series === 'time' ? 'the time test' : subject(u.series);
  const more = `about ${formatCount(u.moreCalls)} more calls`;
  switch (UNDECIDED_REASON[u.reason]) {
    case UNDECIDED_REASON['few-calls']:
      return `Too few calls after warm-up for ${what.toLowerCase()}: ${more} would let it decide.`;
    case UNDECIDED_REASON['few-samples']:
      return `${what} has ${formatCount(s.points)} samples after warm-up, too few to tell flat from growing: ${more} at this sampling rate (or a smaller --slow-every) would decide it.`;
    case UNDECIDED_REASON['late-step']:
      return `${what} took a large step late in the run (iteration ${formatCount(s.events.lastLarge)}; ${formatBytes(s.events.grownBytes)} over the tested window) and live bytes are not observed, so a plateau cannot yet be told from a leak under a coarse growth policy. ${more[0].toUpperCase()}${more.slice(1)} (a plateau as long as the run before the step) would decide it, or ${LIVE_SOURCES}.`;
    case UNDECIDED_REASON['still-rising']:
      return `${what} rose ${risenWords(s, [`p = ${s.pValue.toPrecision(2)}`])} and ${u.series === 'live-bytes' ? 'have' : 'has'} not levelled off${s.events ? ', still setting new highs as its climb slowed' : ''}${s.replica?.confirmed ? `, and still rose in ${secondRunWords(s.replica)}` : ''}: ${more} would show whether it plateaus.`;
    case UNDECIDED_REASON['spans-threshold']:
      return `Time per call rises by ${decidedWords(s.effect)}, which may or may not reach the ${formatPercent(s.threshold)} threshold: ${more} would decide it.`;
    case UNDECIDED_REASON.unsustained:
      return `Time per call rises by ${decidedWords(s.effect)}, but not through the run: the first half alone implies ${formatPercent(s.halves.first)}, the second half ${formatPercent(s.halves.second)} (each half must rise on its own, p < 0.1): a step or a stretch of the module's own wander, which a run that long again (${more}) would tell from a sustained slowdown.`;
    case UNDECIDED_REASON['not-replicated']:
      if (u.series !== 'time') return memoryNotReplicatedWords(what, s, more);
      return `Time per call rose by ${decidedWords(s.effect)}, but ${s.replica.sameCalls !== false ? 'a second pass of the same calls (the same seed, a fresh instance)' : timeSecondPass(s.replica)} did not: ${decidedWords({ ...s.replica.effect, method: s.effect.method })}, no significant rise that reaches the ${formatPercent(s.threshold)} threshold. A rise that does not recur is this run's own wander (the module's state in that run, or the machine's), not a drift of the code: a longer run (${more}) would tell.`;
    case UNDECIDED_REASON['machine-noise']:
      return machineNoiseWords(s, more);
    default:
      return '';
  }
}

// The reasons a memory series that rose is left open, not a plateau.
const OPEN_RISES = new Set(['still-rising', 'late-step']);

/**
 * What the run shows that is no finding (n), in words; s: its series' facts,
 * open: what the run left undecided (summary.inconclusive).
 */
function noteSentence(n, s, open = []) {
  if (THREAD_NOTES.has(n.kind)) return threadNoteSentence(n);
  if (n.kind === 'objects-left-to-gc')
    return `Since warm-up, ${unfreedClassesText(n.classes, false)}.${garbageText(n.garbage)} Memory stayed flat in this run, but the garbage can pile up under other loads, and linear memory never shrinks: call free() on each when done with it.`;
  const what = subject(n.series);
  switch (n.kind) {
    case 'gc-garbage':
      return `${what} grew by ${formatBytes(n.perKiloCalls ?? 0)} per 1,000 calls after warm-up while the live bytes the application holds stayed flat: garbage awaiting the collector, which the glue frees only through finalizers (since warm-up, ${unfreedClassesText(n.classes, false)}). Not a finding: these objects have no free method, and each full GC returns their memory.`;
    case 'below-floor': {
      const f = s.belowFloor;
      const relative = formatPercent(f.floorRelative).replace('+', '');
      const floor = `${formatBytes(f.floorPerCall)} per call and ${relative}`;
      const later = Number.isFinite(n.moreCalls)
        ? ` At this rate it would pass ${relative} after about ${formatCount(n.moreCalls)} more calls.`
        : '';
      // A rise the shape tests left open (not sustained) is no question either.
      const not = s?.pattern === 'sustained' ? 'not a finding' : 'neither a finding nor an open question';
      return `${what} grew by ${formatBytes(n.perCall * 1000)} per 1,000 calls (${formatPercent(n.relative)} of ${n.series === 'live-bytes' ? 'their' : 'its'} level over the tested window): below the floor of ${floor}, so ${not}.${later}`;
    }
    case 'startup-growth':
      return `Memory grew ${formatBytes(n.fromBytes)} → ${formatBytes(n.toBytes)} during the first ${formatCount(n.iterations)} calls (start-up)${afterStartup(n, s, open)}.`;
    case 'rise-not-repeated': {
      const p = s?.pValue != null ? ` (p = ${s.pValue.toPrecision(2)})` : '';
      return `${what} rose ${formatBytes(n.fromBytes)} → ${formatBytes(n.toBytes)} after warm-up in this run without levelling off${p}, but not in ${secondRunWords(s?.replica)}: ${WANDER_WORDS}, so the rise was this run's wander, not growth of the code.`;
    }
    case 'sawtooth':
      return `${what} fall sharply ${formatCount(n.falls)} times after warm-up (by up to ${formatBytes(n.largestFallBytes)}, about every ${formatCount(Math.round(n.everyCalls))} calls): something frees them in bursts, likely finalizers (a FinalizationRegistry runs when the event loop turns) or a cache that is flushed.`;
    default:
      return '';
  }
}

// What linear memory did after the start-up of note n, in words, from its
// series' facts s as the judge read them: flat, a rise it judged (a finding,
// or a question in open), or a rise no larger than a plateau's. Growth after
// warm-up is never worded as start-up.
function afterStartup(n, s, open) {
  if (!s?.tested) return '';
  const a = afterWarmup(s);
  if (!(a.to > a.from)) return ', then stayed flat';
  const left = open.some((u) => u.series === n.series && OPEN_RISES.has(u.reason));
  if (s.pattern === 'sustained' || left) return `, then kept rising: ${risenWords(s)}`;
  return `, then ${risenWords(s)}, no sustained growth`;
}

/**
 * facts (a summary, or analyzeRun's { series, findings, inconclusive,
 * notes }) with every finding, undecided test and note worded (`sentence`),
 * the counting pass's caveat (`sources.countingPass.note`), the gates
 * broken against a baseline (`baseline.regressions`) and the facts
 * fact-words.js words. Returns a new object; facts is not changed.
 */
export function withSentences(facts) {
  const result = withFactWords(facts);
  const bySeries = new Map((result.series ?? []).map((s) => [s.name, s]));
  const ctx = {
    findings: result.findings ?? [],
    memoryCount: result.memory?.memories?.length ?? 0,
    sites: namedSites(result.sites),
    error: result.error,
  };
  const out = {
    ...result,
    findings: ctx.findings.map((f) => ({ ...f, sentence: findingSentence(f, ctx) })),
    inconclusive: (result.inconclusive ?? []).map((u) => ({
      ...u,
      sentence: undecidedSentence(u, bySeries.get(u.series)),
    })),
    notes: (result.notes ?? []).map((n) => ({
      ...n,
      sentence: noteSentence(n, bySeries.get(n.series), result.inconclusive),
    })),
  };
  const b = result.baseline;
  if (b?.regressions)
    out.baseline = { ...b, regressions: b.regressions.map((g) => ({ ...g, sentence: regressionSentence(g, b) })) };
  const pass = result.sources?.countingPass;
  if (pass) {
    const note = pass.caveat ? CAVEAT_WORDS[pass.caveat](pass) : null;
    out.sources = { ...result.sources, countingPass: { ...pass, note } };
  }
  // Why no site is ranked by growth: the pass's caveat.
  const caveat = result.sites?.growthCaveat;
  if (caveat && pass) {
    // Boundary wrappers alone would blame the calls that pass buffers in; the other caveats, any site.
    const blame = caveat === 'boundary-only' ? ', which would blame the calls that pass buffers in' : '';
    const growthNote = `no site is ranked by its live bytes' growth${blame}: ${CAVEAT_WORDS[caveat](pass)}`;
    out.sites = { ...result.sites, growthNote };
  }
  return out;
}
