// The progress line's preliminary verdict in words (the live analysis's
// facts, src/analysis/live.js preliminary()).
import { visible } from './escape.js';
import { formatBytes, formatCount } from './format.js';

/** "never freed: 1,234 Foo, 56 Bar (GC)": the classes of unfreed (live.js) by their objects, or null. */
function unfreedWords(unfreed) {
  const parts = [];
  const list = (classes, count) => classes.map((c) => `${formatCount(count(c))} ${visible(c.name)}`).join(', ');
  if (unfreed?.left.length) parts.push(`never freed: ${list(unfreed.left, (c) => c.reclaimed)} (left to the GC)`);
  if (unfreed?.lost.length) parts.push(`lost: ${list(unfreed.lost, (c) => c.collected)} (collected, never freed)`);
  return parts.length ? parts.join(' · ') : null;
}

/**
 * "memory +1.2 MiB since warm-up · preliminary verdict: leak (so far) ·
 * never freed: 1,234 Foo (left to the GC)", or null before the first
 * analysis. p: preliminary()'s facts, or null. Class names are shown with
 * their control characters made visible.
 */
export function preliminaryWords(p) {
  if (!p) return null;
  if (p.error) return `preliminary verdict unavailable (${p.error})`;
  const later = p.countingFollows ? '; the counting pass follows' : '';
  const tested = p.tested
    ? `preliminary verdict: ${p.verdict} (so far${later})`
    : 'preliminary verdict: too few calls yet';
  const objects = unfreedWords(p.unfreed);
  const verdict = objects ? `${tested} · ${objects}` : tested;
  if (p.memoryChange === null) return verdict;
  const since = p.sinceWarmup ? 'since warm-up' : 'since start';
  return `memory ${p.memoryChange >= 0 ? '+' : ''}${formatBytes(p.memoryChange)} ${since} · ${verdict}`;
}

/**
 * Why a leaking run ended early, one sentence: d is the stop's facts
 * (src/analysis/early-stop.js decided(), summary.json's earlyStop).
 */
export function earlyStopWords(d) {
  const of = d.plannedCalls ? ` of ${formatCount(d.plannedCalls)}` : '';
  const what = d.series === 'live-bytes' ? 'live bytes' : d.series;
  return (
    `the leak was decided after ${formatCount(d.calls)}${of} calls (${what} +${formatBytes(d.slope)} per 1,000 calls, ` +
    `interval ${formatBytes(d.low)}–${formatBytes(d.high)}, p = ${d.pValue.toPrecision(2)}), so the run ended there; ` +
    '--full-run runs every planned call.'
  );
}
