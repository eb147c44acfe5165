// Where a call's time goes (summary.timeSplit, --time-split) in words: the
// rows of summary.md's and report.html's table, and the advice per op,
// worded from the numbers. Text only: escaping is each format's.
import { formatBytes, formatCount, formatNs } from './format.js';

// The parts in the order the table and the figure show them, with their words.
export const PART_WORDS = {
  algorithm: 'algorithm',
  allocator: 'allocator',
  grow: 'memory.grow',
  glue: 'JS glue',
};

/** A share (0..1) as a percentage, "41 %" (one decimal under 10 %). */
export function sharePercent(r) {
  if (!Number.isFinite(r)) return '–';
  const p = r * 100;
  return `${p < 10 ? p.toFixed(1).replace(/\.0$/, '') : Math.round(p)} %`;
}

/** A speed-up bound, "1.7×". */
const times = (x) => `${x >= 10 ? Math.round(x) : x.toFixed(1)}×`;

/**
 * summary.timeSplit's ops as table rows: { name, calls, callNs, timedCallNs,
 * parts: { algorithm, allocator, grow, glue } as [ns per call, share],
 * allocatorInterval ("35–47 %"), allocsPerCall, bytesPerAlloc }; [] without it.
 */
export function timeSplitRows(s) {
  return (s.timeSplit?.ops ?? []).map((o) => ({
    name: o.op,
    calls: o.calls,
    callNs: o.callNs,
    timedCallNs: o.timedCallNs,
    parts: Object.fromEntries(Object.keys(PART_WORDS).map((k) => [k, [o.ns[k], o.shares[k]]])),
    allocatorInterval: `${sharePercent(o.allocatorShare.low)}–${sharePercent(o.allocatorShare.high)}`,
    allocsPerCall: o.allocsPerCall,
    bytesPerAlloc: o.bytesPerAlloc,
  }));
}

/** The advice of one op of summary.timeSplit (o), one sentence; the op's name as given (the format marks it). */
export function adviceSentence(o, name = o.op) {
  const { code, share, bound } = o.advice;
  const most = bound === null ? 'any' : `at most ${times(bound)}`;
  if (code === 'allocator') {
    const per = `${formatCount(o.allocsPerCall)} allocation${Math.round(o.allocsPerCall) === 1 ? '' : 's'} of ${formatBytes(o.bytesPerAlloc)} per call`;
    return (
      `the allocator takes ${sharePercent(share)} of ${name} (${per}; 95 % interval ${sharePercent(o.allocatorShare.low)}–${sharePercent(o.allocatorShare.high)}): ` +
      `fewer allocations or an arena will pay; a faster allocator makes it ${most} faster`
    );
  }
  if (code === 'grow')
    return (
      `memory.grow takes ${sharePercent(share)} of ${name} after warm-up (${formatCount(o.grow.steady.grows)} grows in ${formatCount(o.grow.steady.calls)} calls): ` +
      `a larger initial memory, or growing once to the high-water mark, makes it ${most} faster`
    );
  if (code === 'glue')
    return (
      `the JS around the wasm calls (the glue and its copies, and the scenario's own code such as making its inputs) takes ${sharePercent(share)} of ${name}: ` +
      `where it is the glue's, fewer, larger calls into the module, or views instead of copies, will pay; ${most} faster without it`
    );
  return (
    `${name} spends ${sharePercent(o.shares.algorithm)} in its own code: the allocator (${sharePercent(o.shares.allocator)}), ` +
    `memory.grow (${sharePercent(o.shares.grow)}) and the glue (${sharePercent(o.shares.glue)}) leave little to gain; the algorithm is where the time goes`
  );
}

/** Stamp costs where the module ran (an op's stampContext), "x per export call, …", the calibrated ones marked. */
function costWords(c) {
  const word = (k, what) => `${formatNs(c[k].ns)}${c[k].source === 'calibration' ? ' (calibrated)' : ''} per ${what}`;
  return `${word('x', 'export call')}, ${word('a', 'stamped allocator call')}, ${word('n', 'null sample')}`;
}

/** The ops' stamp costs in words, in parentheses: once when the ops share them (pooled), else per op. */
function contextWords(ops) {
  const measured = ops.filter((o) => o.stampContext);
  const words = measured.map((o) => costWords(o.stampContext));
  if (words.length === 0) return '';
  if (words.every((w) => w === words[0])) return ` (${words[0]}${words.length > 1 ? ', pooled over the ops' : ''})`;
  return ` (${measured.map((o, j) => `${o.op}: ${words[j]}`).join('; ')})`;
}

/** An op's parts' sum per call against the timed pass's call time, and the pass's drift on its unstamped calls. */
function sumWords(o) {
  const se = o.callSe > 0 ? ` ± ${formatNs(1.96 * o.callSe)}` : '';
  const drift =
    o.drift === null || o.drift === undefined
      ? ''
      : ` (its calls stamped nowhere ${o.drift < 0 ? '−' : '+'}${sharePercent(Math.abs(o.drift))} against the timed pass's)`;
  return `${o.op}: ${formatNs(o.callNs)}${se} against ${formatNs(o.timedCallNs)} timed${drift}`;
}

/**
 * One line under the table: how the parts were measured, the stamps' cost
 * taken off (where the module ran, per op, and the calibration's), and the
 * sum of the parts against the timed pass's call time, with how much
 * slower the pass ran its unstamped calls.
 */
export function timeSplitNote(s) {
  const t = s.timeSplit;
  const c = t.stampCost;
  const against = t.ops.filter((o) => o.timedCallNs > 0).map(sumWords);
  const rates = t.ops.map((o) => o.sampling.rate);
  const lo = Math.min(...rates);
  const hi = Math.max(...rates);
  const rate = lo === hi ? formatCount(lo) : `${formatCount(lo)} to ${formatCount(hi)}`;
  return (
    `Time-split pass: the same calls with memory.grow and the exports stamped, and the allocator's calls counted ` +
    `with 1 in ${rate} stamped at random (its time per call: the stamped calls' mean time, times its calls); each op's calls after warm-up, ` +
    `its slowest ${sharePercent(1 - t.typical)} left out (a preemption moves no part). ` +
    `The stamps' own cost is taken off: what they add to a call where the module runs, from a scenario's calls stamped nowhere (1 in 4, at random), ` +
    `each against the timed pass's same call${contextWords(t.ops)}; ` +
    `between their clock reads, the null samples' interval, and on empty wrappers in the same pass ${formatNs(c.x.inner)} per export call; ` +
    `${formatNs(c.u.outer)} per other allocator call and ${formatNs(c.g.outer)} per memory.grow, as calibrated. ` +
    `Memory.grow took ${sharePercent(t.run.grow.warmup.share)} of warm-up and ${sharePercent(t.run.grow.steady.share)} after it. ` +
    `Parts' sum per call${against.length ? `: ${against.join('; ')}` : ''}.`
  );
}

/**
 * The allocator's events of the run by kind and size class as rows { kind,
 * range ("32 B–64 B"; a free's: its size is not known), events (the
 * stamped ones scaled to all), nsPerEvent (the mean), medianNs }, the
 * busiest classes first, at most limit.
 */
export function classRows(s, limit = 8) {
  const rows = [];
  for (const [kind, list] of Object.entries(s.timeSplit?.run?.classes ?? {}))
    for (const r of list)
      rows.push({
        kind,
        range:
          r.sizeClass === null
            ? 'any (not known)'
            : `${formatBytes(2 ** r.sizeClass)}–${formatBytes(2 ** (r.sizeClass + 1))}`,
        events: r.events,
        nsPerEvent: r.nsPerEvent,
        medianNs: r.medianNs,
      });
  return rows.sort((a, b) => b.events - a.events).slice(0, limit);
}

/**
 * Each op's advice as { before, op, after }: the sentence, capitalised and
 * ending in a full stop, around the op's name, which each format marks as code.
 */
export function adviceParts(s) {
  const MARK = '\u0001';
  return (s.timeSplit?.ops ?? []).map((o) => {
    const text = adviceSentence(o, MARK);
    const [before, after] = (text.charAt(0).toUpperCase() + text.slice(1)).split(MARK);
    return { before, op: o.op, after: `${after}.` };
  });
}

// Why the swap measured no op, by summary.timeSplit.swap.status.
const SWAP_RUN_WORDS = {
  'not-swapped':
    'no allocator the swap can route safely (its allocation, free and reallocation found, not only boundary wrappers)',
  'no-region': "the module's allocator gave no region",
  overflow: 'the region could not hold every allocation, so some went to the module’s own allocator',
};

/** ns that may be below 0 (an estimate near 0), with a minus sign: "−6.40 µs". */
const signedNs = (ns) => (ns < 0 ? `−${formatNs(-ns)}` : formatNs(ns));
/** An interval of ns, "26 ns–51 ns". */
const nsInterval = (low, high) => `${signedNs(low)}–${signedNs(high)}`;

/**
 * The allocator swap's rows (summary.timeSplit.swap), [] without it:
 * { name, swap (the allocator's ns per call from the swap and its 95 %
 * interval, or why the op is left out), stamped (the time-split pass's),
 * agree ('yes', 'no' or '–') }.
 */
export function swapRows(s) {
  const swap = s.timeSplit?.swap;
  if (!swap) return [];
  return swap.ops.map((o) => {
    let measured = `${signedNs(o.allocatorNs)} (${nsInterval(o.low, o.high)})`;
    if (swap.status !== 'measured') measured = `not measured: ${SWAP_RUN_WORDS[swap.status]}`;
    else if (o.status === 'keeps-memory')
      measured = `left out: ${formatCount(o.keptCalls)} call${o.keptCalls === 1 ? '' : 's'} kept blocks past the call (the op keeps memory between calls)`;
    else if (o.status === 'no-calls') measured = 'left out: no typical call';
    return {
      name: o.op,
      swap: measured,
      stamped: o.stamped ? `${signedNs(o.stamped.ns)} (${nsInterval(o.stamped.low, o.stamped.high)})` : '–',
      agree: o.agree === null ? '–' : o.agree ? 'yes' : 'no',
    };
  });
}

/** One line under the swap's table: how it is measured and what it cannot see. */
export function swapNote(s) {
  const { costs, regionBytes } = s.timeSplit.swap;
  return (
    `Allocator swap: the same calls again with the module's allocator routed (no rebuild), in blocks of calls drawn at random, to a bump allocator ` +
    `(a region of ${formatBytes(regionBytes)} taken once from the module's own allocator, reset whenever none of its blocks is live) or to the module's own. ` +
    `The own allocator's calls less the bump allocator's, less what the routing costs more one way (${formatNs(costs.own)} per allocator call to its own, ` +
    `${formatNs(costs.bump)} to the bump allocator, on an allocator that does nothing), is what the allocator costs beyond handing out memory; ` +
    'its interval is over the blocks and also holds the routing’s whole cost, which the module’s own code can make larger than on an empty allocator.'
  );
}
