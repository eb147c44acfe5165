// A run against its baseline in words, for the terminal, summary.md,
// report.html and junit.xml alike.
import { formatBytes, formatNs, formatPercent, formatTolerance } from './format.js';

const signed = (n, f) => (n === null ? '–' : `${n > 0 ? '+' : n < 0 ? '-' : ''}${f(Math.abs(n))}`);

/** Lines describing summary.baseline: the comparison, then each regression. */
export function baselineLines(b) {
  const lines = [
    `against baseline ${b.name} (${b.dir}, saved ${b.createdAt})${b.sameTarget ? ', same module' : ', another build'}`,
  ];
  if (b.time) {
    const t = b.time;
    const interval = `95 %: ${formatPercent(t.low)} to ${formatPercent(t.high)}`;
    lines.push(
      `time per call ${formatNs(t.baseline)} → ${formatNs(t.current)}: ${formatPercent(t.change)} (${interval})${t.withinNoise ? ', within noise' : ''}`,
    );
  }
  if (b.counts) {
    const c = b.counts;
    lines.push(
      c.exact
        ? `allocations ${signed(c.allocs, String)}, bytes ${signed(c.bytes, String)} over the same calls (exact); live bytes at the end ${signed(c.liveEnd, formatBytes)}`
        : `allocations per call ${signed(c.allocsPerCall, (x) => x.toPrecision(3))} (not the same calls: another seed or iteration count)`,
    );
  }
  lines.push(
    `memory high-water ${formatBytes(b.highWater.baseline)} → ${formatBytes(b.highWater.current)}; verdict ${b.verdict ? `${b.verdict.from} → ${b.verdict.to}` : 'unchanged'}`,
  );
  if (b.sizes)
    lines.push(
      `size raw ${signed(b.sizes.raw, String)} B, gzip -9 ${signed(b.sizes.gzip, String)} B, brotli ${signed(b.sizes.brotli, String)} B`,
    );
  for (const g of b.regressions) lines.push(`REGRESSION (${g.metric}): ${g.sentence}`);
  return lines;
}

/**
 * A run's comparison with its baseline (b: summary.baseline) in one line, for
 * a suite's table where the target passed: "against baseline nightly: time
 * +1.2 % (within noise), allocations +0 (exact), high-water 3.1 MiB → 3.3 MiB,
 * verdict unchanged".
 */
export function baselineBrief(b) {
  const parts = [];
  if (b.time) parts.push(`time ${formatPercent(b.time.change)}${b.time.withinNoise ? ' (within noise)' : ''}`);
  if (b.counts)
    parts.push(
      b.counts.exact
        ? `allocations ${signed(b.counts.allocs, String)} (exact)`
        : `allocations per call ${signed(b.counts.allocsPerCall, (x) => x.toPrecision(3))}`,
    );
  parts.push(`high-water ${formatBytes(b.highWater.baseline)} → ${formatBytes(b.highWater.current)}`);
  parts.push(`verdict ${b.verdict ? `${b.verdict.from} → ${b.verdict.to}` : 'unchanged'}`);
  return `against baseline ${b.name}: ${parts.join(', ')}`;
}

/** A gate a run broke against its baseline (g, summary.baseline's b), in words. */
export function regressionSentence(g, b) {
  const pct = (x) => `${(x * 100).toFixed(1)} %`;
  switch (g.metric) {
    case 'time': {
      const t = b.time;
      const machine = t.machine ? ', each run against its machine' : '';
      return `time per call rose ${pct(t.change)} against baseline ${b.name}${machine} (95 % interval ${(t.low * 100).toFixed(1)}–${pct(t.high)}), beyond --fail-if-slower ${pct(g.gate)}`;
    }
    case 'allocations': {
      const c = b.counts;
      const more = c.exact
        ? `${c.allocs} more allocations than baseline ${b.name} over the same ${g.calls} calls`
        : `${c.allocsPerCall.toPrecision(3)} more allocations per call than baseline ${b.name} (not the same calls: another seed or iteration count)`;
      return `${more}${g.tolerance ? `, beyond the tolerance of ${formatTolerance(g.tolerance, false)}` : ''} (--fail-if-more-allocs)`;
    }
    case 'high-water': {
      const h = b.highWater;
      const tolerance = g.tolerance ? `, beyond the tolerance of ${formatTolerance(g.tolerance, true)}` : '';
      return `memory high-water mark ${formatBytes(h.current)}, ${formatBytes(h.current - h.baseline)} above baseline ${b.name}'s ${formatBytes(h.baseline)}${tolerance} (--fail-if-higher-water)`;
    }
    default:
      return g.sentence ?? '';
  }
}
