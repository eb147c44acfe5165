// What the heap census says of a run (docs/summary.md, "census"): one
// census per memory; the memory whose census the verdicts read; the
// allocator recognised, and which sizes of in-use chunks accumulate over the
// trend window, from the census's size-class histogram (class k: chunks of
// 2^k to 2^(k+1) bytes, headers included).
import {
  CENSUS_CLASSES,
  CENSUS_KIND,
  CENSUS_KIND_TEXT,
  CENSUS_MEMORIES,
  METRIC,
  METRIC_CENSUS_CLASS_BASE,
} from '../protocol.js';
import { censusMetricsOf } from './census-metrics.js';

const KIND_NAMES = Object.fromEntries(Object.entries(CENSUS_KIND).map(([name, id]) => [id, name]));
const CLASS_METRICS = Object.entries(METRIC)
  .filter(([, id]) => id >= METRIC_CENSUS_CLASS_BASE && id < METRIC_CENSUS_CLASS_BASE + CENSUS_CLASSES)
  .map(([name, id]) => ({ name, k: id - METRIC_CENSUS_CLASS_BASE }));

// Size classes a finding names: the ones that grew most, at most this many,
// each with at least this share of the largest gain (smaller gains are the
// churn of a working set, not what accumulates).
const NAMED_CLASSES = 3;
const NAMED_SHARE = 0.1;

/** The value of series s in effect at iteration t (its first point before it starts). */
function valueAt(s, t) {
  let v = s.value[0];
  for (let i = 0; i < s.iter.length && s.iter[i] <= t; i++) v = s.value[i];
  return v;
}

/** How much series s rose from its first point to its last (0 without points). */
const rise = (s) => (s?.value.length > 0 ? s.value[s.value.length - 1] - s.value[0] : 0);

/**
 * The memory whose heap census the verdicts read (its index among
 * data.header.memories): of the memories whose census recognised an
 * allocator, the one whose linear memory or census live bytes rose most from
 * the first sample to the last; when none rose, the one holding the most
 * live bytes at the end. -1 when no census recognised anything. Another
 * memory's census never explains this one's growth.
 */
export function judgingMemory(data) {
  const memories = data.header?.memories ?? [];
  let best = -1;
  let bestRise = 0;
  let bestLive = 0;
  for (let k = 0; k < Math.min(Math.max(memories.length, 1), CENSUS_MEMORIES); k++) {
    const live = censusMetricsOf(data.metrics, k).censusLive;
    if (!live || live.value.length === 0) continue;
    const linear = memories[k] ? data.metrics[`memory:${memories[k].label}`] : undefined;
    const r = Math.max(rise(live), rise(linear));
    const end = live.value[live.value.length - 1];
    if (best < 0 || r > bestRise || (r === bestRise && end > bestLive)) {
      best = k;
      bestRise = r;
      bestLive = end;
    }
  }
  return best;
}

/**
 * The census summary of memory k (default 0) in decoded run data over
 * window { from, to }: null when no census of it was recorded; else
 * { recognised, kind, kindText, censuses, firstAt, classes, growing } where
 * classes lists every size class seen with its in-use chunk count at the
 * window's start and end, and growing the classes that gained the most
 * chunks (at most NAMED_CLASSES, largest gain first).
 */
export function censusSummary(data, window, k = 0) {
  const m = censusMetricsOf(data.metrics, k);
  const kinds = m.censusKind;
  if (!kinds || kinds.value.length === 0) return null;
  let first = -1;
  for (let i = 0; i < kinds.value.length && first < 0; i++) if (kinds.value[i] !== CENSUS_KIND.none) first = i;
  const censuses = kinds.value.length;
  if (first < 0)
    return { recognised: false, kind: null, kindText: null, censuses, firstAt: null, classes: [], growing: [] };
  const classes = [];
  for (const { name, k } of CLASS_METRICS) {
    const s = m[name];
    if (!s || s.value.length === 0) continue;
    const start = valueAt(s, window.from);
    const end = valueAt(s, window.to);
    classes.push({ fromBytes: 2 ** k, toBytes: 2 ** (k + 1), start, end, change: end - start });
  }
  const gains = classes.filter((c) => c.change > 0).sort((a, b) => b.change - a.change);
  const growing = gains.filter((c) => c.change >= NAMED_SHARE * gains[0].change).slice(0, NAMED_CLASSES);
  return {
    recognised: true,
    kind: KIND_NAMES[kinds.value[first]] ?? null,
    kindText: CENSUS_KIND_TEXT[kinds.value[first]] ?? null,
    censuses,
    firstAt: kinds.iter[first],
    classes,
    growing,
  };
}
