// Decodes a sample log into the analysis input (docs/architecture.md,
// "Decoded run data"). The heavy lifting is the C log reader.
import { addon } from '../addon.js';
import { EXIT, SoakError } from '../cli/exit-codes.js';
import { METRIC, METRIC_MEMORY_BASE } from '../protocol.js';

const METRIC_NAMES = Object.fromEntries(Object.entries(METRIC).map(([name, id]) => [id, name]));

/**
 * Reads the log at path; with { allocs: true } also the counting pass's
 * per-call allocs, frees, allocBytes, live and peak. Throws SoakError (exit 2)
 * when it is missing or not a log.
 */
export function readRun(path, { allocs = false } = {}) {
  let raw;
  try {
    raw = addon.readLog(path, allocs);
  } catch (err) {
    const what = err.code === 'WS_EIO' ? 'cannot be read' : 'is not a wasm-soak sample log';
    throw new SoakError(err.code ?? 'WS_EFORMAT', `${path} ${what} (${err.message}).`, {
      fix: 'Point at a result folder written by `wasm-soak run` (it holds samples.wslog).',
      exitCode: EXIT.USAGE,
    });
  }
  const header = JSON.parse(raw.header);
  const memoryLabels = (header.memories ?? []).map((m) => m.label);
  const metrics = {};
  for (const m of raw.metrics) {
    const name =
      m.id >= METRIC_MEMORY_BASE
        ? `memory:${memoryLabels[m.id - METRIC_MEMORY_BASE] ?? `#${m.id - METRIC_MEMORY_BASE}`}`
        : (METRIC_NAMES[m.id] ?? `metric:${m.id}`);
    metrics[name] = { iter: m.iter, tMs: m.tMs, value: m.value };
  }
  return {
    header,
    calls: raw.calls,
    elapsed: raw.elapsed,
    op: raw.op,
    flags: raw.flags,
    memory: { iter: raw.memIter, bytes: raw.memBytes },
    metrics,
    durationMs: raw.durationMs,
    backPressureWaits: raw.backPressureWaits,
    tornBytes: raw.tornBytes,
    complete: raw.complete,
    ...(allocs
      ? {
          allocs: raw.allocs,
          frees: raw.frees,
          allocBytes: raw.allocBytes,
          live: raw.live,
          peak: raw.peak,
          allocRecords: raw.allocRecords,
        }
      : {}),
  };
}
