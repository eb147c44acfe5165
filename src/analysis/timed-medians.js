// The timed pass's median time per call over the whole run, all ops and
// per op, to set beside the counting pass's (summary.allocations.
// timeMedianNs): the reports show both, so that the instrumented pass's
// times are never read as the run's.
import { addon } from '../addon.js';
import { windowRow } from '../protocol.js';

/**
 * { median, ops: { name: median } } of decoded timed run data over all its
 * calls (a median null for an op with no call), or null when data holds no
 * call.
 */
export function timedMedians(data) {
  if (!(data?.calls > 0) || !data.elapsed || !data.op) return null;
  const ops = data.header?.ops ?? [];
  const n = Math.min(data.calls, data.elapsed.length);
  const st = addon.windowStats(data.elapsed.subarray(0, n), data.op.subarray(0, n), 0, n, ops.length);
  const median = (k) => {
    const r = windowRow(st, k);
    return r.n > 0 ? r.median : null;
  };
  return { median: median(0), ops: Object.fromEntries(ops.map((o, k) => [o.name, median(k + 1)])) };
}
