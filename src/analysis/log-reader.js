// Decodes a sample log into the analysis input (docs/architecture.md,
// "Decoded run data"). The heavy lifting is the C log reader.
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
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
    raw = addon.readLog(path, allocs, thinSeed(path));
  } catch (err) {
    const what = err.code === 'WS_EIO' ? 'cannot be read' : 'is not a wasm-soak sample log';
    throw new SoakError(err.code ?? 'WS_EFORMAT', `${path} ${what} (${err.message}).`, {
      fix: 'Point at a result folder written by `wasm-soak run` (it holds samples.wslog).',
      exitCode: EXIT.USAGE,
    });
  }
  let header;
  try {
    header = JSON.parse(raw.header);
  } catch (err) {
    throw new SoakError('WS_EFORMAT', `${path} has a damaged header: its JSON does not parse (${err.message}).`, {
      fix: 'The header names the run and its options, without it the records cannot be read; re-run the soak (the header is written first, so only a damaged file loses it).',
      exitCode: EXIT.USAGE,
    });
  }
  return decodedRun(raw, header, allocs);
}

/**
 * Reads a result folder's logs: { timed } from dir/samples.wslog and, when a
 * counting pass wrote one, { counted } from dir/samples-count.wslog (else
 * null). Throws like readRun.
 */
export function readResultLogs(dir) {
  const timed = readRun(join(dir, 'samples.wslog'));
  const countLog = join(dir, 'samples-count.wslog');
  const counted = existsSync(countLog) ? readRun(countLog, { allocs: true }) : null;
  return { timed, counted };
}

/**
 * The seed a capped log was thinned with (its run's), when it is big enough
 * to have been thinned (a quarter of its cap or more: thinning starts before
 * half), else undefined: the reader then skips its pass for the strides.
 */
function thinSeed(path) {
  try {
    const fd = openSync(path, 'r');
    const pre = Buffer.alloc(16);
    readSync(fd, pre, 0, 16, 0);
    const length = pre.readUInt32LE(12);
    const size = fstatSync(fd).size;
    const text = Buffer.alloc(Math.min(length, size));
    readSync(fd, text, 0, text.length, 16);
    closeSync(fd);
    const header = JSON.parse(text.toString('utf8'));
    const cap = header.config?.maxLogBytes;
    return cap > 0 && size >= cap / 4 && Number.isSafeInteger(header.seed) ? header.seed : undefined;
  } catch {
    return undefined; // not a log, or a damaged header: readLog and JSON.parse say which
  }
}

/**
 * What a damaged log lost, for the summary and the commands that read it:
 * null when the log is intact, else { stretches: [{ offset, bytes, records,
 * recordsEstimated, afterIteration, beforeIteration }], records, calls }.
 */
export function damageOf(data) {
  const stretches = data.damage ?? [];
  if (stretches.length === 0) return null;
  return {
    stretches,
    records: stretches.reduce((n, d) => n + d.records, 0),
    calls: data.lostCalls ?? 0,
  };
}

/** One sentence on what a damaged log lost and where, or null when it is intact. */
export function damageWords(path, data) {
  const d = damageOf(data);
  if (!d) return null;
  const where = d.stretches
    .map((s) => {
      const after = s.afterIteration == null ? 'the start' : `iteration ${s.afterIteration}`;
      const before = s.beforeIteration == null ? 'the end' : `iteration ${s.beforeIteration}`;
      return `${s.recordsEstimated ? 'about ' : ''}${s.records} at byte ${s.offset} (${s.bytes} bytes, between ${after} and ${before})`;
    })
    .join('; ');
  return `${path} is damaged: ${d.records} records lost in ${d.stretches.length} stretch${d.stretches.length === 1 ? '' : 'es'}: ${where}; ${d.calls} calls are missing, every intact record was kept.`;
}
/** The name a metric id has in a decoded run (`memory:<label>` for memories). */
function metricName(id, header) {
  if (id < METRIC_MEMORY_BASE) return METRIC_NAMES[id] ?? `metric:${id}`;
  const label = header.memories?.[id - METRIC_MEMORY_BASE]?.label;
  return `memory:${label ?? `#${id - METRIC_MEMORY_BASE}`}`;
}

/**
 * The decoded run (docs/architecture.md) of raw typed arrays in the shape the
 * C log reader and the live copy (src/analysis/live.js) return.
 */
export function decodedRun(raw, header, allocs = false) {
  const metrics = {};
  for (const m of raw.metrics) metrics[metricName(m.id, header)] = { iter: m.iter, tMs: m.tMs, value: m.value };
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
    version: raw.version,
    damage: raw.damage ?? [],
    lostCalls: raw.lostCalls ?? 0,
    // The run's first iteration: 0, unless a test hook started its counter elsewhere.
    firstIteration: raw.firstIteration ?? 0,
    gapIndex: raw.gapIndex ?? new Float64Array(0),
    gapIter: raw.gapIter ?? new Float64Array(0),
    // A thinned log (docs/log-format.md): one call kept per stride
    // iterations, every call counted per op.
    stride: raw.thinStride ?? 1,
    thinning:
      raw.thinStride > 1
        ? {
            stride: raw.thinStride,
            from: raw.thinnedFrom,
            opCalls: raw.opCalls,
            opThrew: raw.opThrew,
            growthEvents: raw.growthEvents,
            iterations: raw.opCalls.reduce((a, b) => a + b, 0),
          }
        : null,
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
