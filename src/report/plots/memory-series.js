// Which series the memory figure draws, and what each is called: a
// judgement about the decoded run (where its heap and live bytes came from,
// which census, which trend, which memories grew) kept apart from the
// drawing (memory-figure.js) so that it can be tested on its own.
import { censusMetricsOf } from '../../analysis/census-metrics.js';
import { envelope } from './data.js';
import { MAX_POINTS } from './limits.js';
import { trendFor } from './window.js';

/** Whether series a and b are one series (one object, or the same values). */
const same = (a, b) => Boolean(a && b && (a === b || a.value === b.value));

// Where the memory figure's heap top and live bytes come from, for their key
// entries: the allocator's own statistics, the heap census (then its own
// live bytes line is that line: it is not drawn twice), the counting pass
// (as summary.sources.liveBytes names it), else the scenario's stats().
function memorySources(m, summary, { heap, live, census, censusname }) {
  const short = (t) => String(t).split(' (')[0]; // 'mallinfo (uordblks, …)' → 'mallinfo'
  const allocator = short(summary.sources?.allocator?.source ?? 'allocator');
  const liveIsCensus = same(live, census.censusLive);
  let liveSource = 'stats()';
  if (same(live, census.censusLiveHeld)) liveSource = 'held by the application: heap census after full GCs';
  else if (same(live, m.allocatorLive)) liveSource = allocator;
  else if (liveIsCensus) liveSource = censusname;
  else if (summary.sources?.liveBytes) liveSource = short(summary.sources.liveBytes);
  let heapSource = 'stats()';
  if (same(heap, m.allocatorHeap)) heapSource = allocator;
  else if (same(heap, census.censusHeap)) heapSource = censusname;
  return { heapSource, liveSource, liveIsCensus };
}

// The decoded run's series for each memory series name a finding or the
// summary may test (src/analysis/verdict.js), as drawn in the memory figure.
const MEMORY_TREND_SERIES = {
  memory: ['memfile', 'linear memory'],
  'heap-top': ['heapfile', 'the heap top'],
  'heap-bytes': ['heapfile', 'the allocator heap'],
  'live-bytes': ['livefile', 'live bytes'],
  'js-heap': ['jsheapfile', 'the JS heap'],
  'threads-js-heap': ['threadsheapfile', "the threads' JS heap"],
};

// The series drawn on the right axis: a trend of one of them puts its fit there too.
const RIGHT_AXIS = new Set(['jsheapfile', 'threadsheapfile']);

/**
 * Each memory that grew, when the run has several (the memory figure's
 * linear memory is their sum): one whose linear memory or heap census live
 * bytes rose from the first sample to the last. { memory, live } as blocks
 * for the figure, memory its linear memory as steps and live its census
 * live bytes (where the census recognised its allocator), each block titled
 * with the memory's label; rows [x, bytes].
 */
function grownMemories(data) {
  const memories = data.header?.memories ?? [];
  const memory = [],
    live = [];
  if (memories.length < 2) return { memory, live };
  const rose = (s) => s?.value.length > 0 && s.value.at(-1) > s.value[0];
  memories.forEach(({ label }, k) => {
    const s = data.metrics?.[`memory:${label}`];
    const census = censusMetricsOf(data.metrics, k).censusLive;
    if (!s?.value.length || !(rose(s) || rose(census))) return;
    const steps = Array.from(s.iter, (x, i) => [x, s.value[i]]);
    steps.push([Math.max(data.calls - 1, steps.at(-1)[0]), steps.at(-1)[1]]);
    memory.push({ title: `linear memory "${label}"`, rows: steps });
    if (census?.iter.length) {
      live.push({
        title: `live bytes of "${label}" (heap census)`,
        rows: envelope(census.iter, census.value, MAX_POINTS),
      });
    }
  });
  return { memory, live };
}

/**
 * The series the memory figure of decoded run data and its summary draws:
 * { heap, live, peak (peak live bytes within calls), census: { live (null
 * when it is the live bytes line), free, largest, held (the live bytes line
 * is the census after full GCs) }, censusname, censusTitle (the census in
 * the figure's description, or null), jsHeap, retained (jsHeap is the heap
 * retained after full GCs), threadsJsHeap (the target's threads' heaps
 * summed, each after its own full GC), rss (null when the JS heap is the finding, on
 * its own axis), heapSource, liveSource, trend (trendFor's, or null),
 * trendKey, trendWhat (the file and the words of the series it fits),
 * onRight (the trend is a JS heap's), grown (grownMemories') }; a
 * series { iter, value } or undefined when the run has none.
 */
export function memorySeries(data, summary) {
  const m = data.metrics ?? {};
  // Heap and live bytes from the scenario's stats(), else from the
  // allocator's own statistics. The verdict's input (analyze.js) may already
  // carry the allocator's heap or the counting pass's live bytes as
  // heapBytes / liveBytes: summary.sources names them, and a series that is
  // the allocator's own object is labelled as the allocator.
  const heap = m.heapBytes?.iter.length ? m.heapBytes : m.allocatorHeap;
  const live = m.liveBytes?.iter.length ? m.liveBytes : m.allocatorLive;
  const census = censusMetricsOf(m, summary.census?.memory?.index ?? 0);
  const censusLabel = summary.census?.memory?.label;
  const several = (summary.memory?.memories?.length ?? 0) > 1;
  const censusname = several && censusLabel ? `heap census of memory ${censusLabel}` : 'heap census';
  const { heapSource, liveSource, liveIsCensus } = memorySources(m, summary, { heap, live, census, censusname });
  // The JS heap retained after full GCs is what the js-heap trend tests;
  // the raw heap (with its GC sawtooth) only when that is missing. When it
  // is the finding the right axis is its own: RSS (hundreds of MiB) would
  // flatten it.
  const retained = m.jsHeapAfterGC?.iter.length > 0;
  const trend = trendFor(summary, (name) => name in MEMORY_TREND_SERIES);
  const [trendKey, trendWhat] = trend ? MEMORY_TREND_SERIES[trend.series] : [];
  const censusDrawn = (!liveIsCensus && census.censusLive?.iter.length) || census.censusFree?.iter.length;
  return {
    heap,
    live,
    peak: m.livePeak,
    // The heap census (when it ran) of the memory the verdicts read: bytes
    // in use (unless that is the live bytes line), free, the largest free block.
    census: {
      live: liveIsCensus ? null : census.censusLive,
      free: census.censusFree,
      largest: census.censusLargestFree,
      held: same(live, census.censusLiveHeld),
    },
    censusname,
    censusTitle: censusDrawn
      ? several && censusLabel
        ? `the heap census of memory "${censusLabel}"`
        : 'the heap census'
      : null,
    jsHeap: retained ? m.jsHeapAfterGC : m.jsHeap,
    retained,
    threadsJsHeap: m.threadsJsHeap,
    rss: RIGHT_AXIS.has(trendKey) ? null : m.rss,
    heapSource,
    liveSource,
    trend,
    trendKey,
    trendWhat,
    onRight: RIGHT_AXIS.has(trendKey),
    grown: grownMemories(data),
  };
}
