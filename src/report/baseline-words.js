// A run against its baseline in words, for the terminal, summary.md,
// report.html and junit.xml alike.
import { formatBytes, formatNs, formatPercent } from './format.js';

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
