// Decodes a sample log into the analysis input (docs/architecture.md,
// "Decoded run data"). The heavy lifting is the C log reader.
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { addon } from '../addon.js';
import { EXIT, SoakError } from '../errors.js';
import { LOG_MAGIC, METRIC, METRIC_CENSUS_STRIDE, METRIC_MEMORY_BASE } from '../protocol.js';
import { censusMetric } from './census-metrics.js';

const METRIC_NAMES = Object.fromEntries(Object.entries(METRIC).map(([name, id]) => [id, name]));

/** How a log is named in messages: its path, or where the in-memory one came from. */
const nameOf = (source) => (typeof source === 'string' ? source : 'the in-memory sample log');

/**
 * Reads a log: source is its path, or a Uint8Array holding the bytes its
 * file would (the library's in-memory log; the same C reader decodes both).
 * With { allocs: true } also the counting pass's per-call allocs, frees,
 * allocBytes, live and peak. Throws SoakError (exit 2) when it is missing or
 * not a log.
 */
export function decodeLog(source, { allocs = false } = {}) {
  checkRegularFile(source);
  let raw;
  try {
    raw = addon.readLog(source, allocs, thinSeed(source));
  } catch (err) {
    throw readError(source, err);
  }
  return decodedLog(source, raw, allocs);
}

/**
 * decodeLog of the log file at path, decoded on another thread: resolves
 * what decodeLog returns, rejects with what it throws. The caller's thread
 * is free meanwhile (`report` imports its modules).
 */
export async function decodeLogAsync(path, { allocs = false } = {}) {
  checkRegularFile(path);
  let raw;
  try {
    raw = await addon.readLogAsync(path, allocs, thinSeed(path));
  } catch (err) {
    throw readError(path, err);
  }
  return decodedLog(path, raw, allocs);
}

/** Throws SoakError (exit 2) when source is a path to something other than a regular file. */
function checkRegularFile(source) {
  // A FIFO or a device would block the read (or never end): only a regular file is a log.
  const stat = typeof source === 'string' ? statSync(source, { throwIfNoEntry: false }) : null;
  if (stat && !stat.isFile())
    throw new SoakError(
      'WS_EFORMAT',
      `${nameOf(source)} is not a regular file (${stat.isFIFO() ? 'a FIFO' : stat.isDirectory() ? 'a folder' : 'a device or socket'}), so it is no sample log.`,
      {
        fix: 'Point at a result folder written by `wasm-soak run` (its samples.wslog is a file).',
        exitCode: EXIT.USAGE,
      },
    );
}

/** The SoakError (exit 2) of the C reader's error err on source. */
function readError(source, err) {
  const name = nameOf(source);
  const cut = err.code === 'WS_EFORMAT' ? truncatedHeader(source) : null;
  if (cut) {
    return new SoakError('WS_ETRUNCATED', `${name} is truncated: ${cut}.`, {
      fix: 'The header names the run and its options, so no record can be read without it: the run stopped (or the file was cut) before it was written whole. Run the soak again.',
      exitCode: EXIT.USAGE,
    });
  }
  const what = err.code === 'WS_EIO' ? 'cannot be read' : 'is not a wasm-soak sample log';
  return new SoakError(err.code ?? 'WS_EFORMAT', `${name} ${what} (${err.message}).`, {
    fix: 'Point at a result folder written by `wasm-soak run` (it holds samples.wslog).',
    exitCode: EXIT.USAGE,
  });
}

/** The decoded run of the C reader's raw result for source; SoakError (exit 2) for a header that does not parse. */
function decodedLog(source, raw, allocs) {
  let header;
  try {
    header = JSON.parse(raw.header);
  } catch (err) {
    throw new SoakError(
      'WS_EFORMAT',
      `${nameOf(source)} has a damaged header: its JSON does not parse (${err.message}).`,
      {
        fix: 'The header names the run and its options, without it the records cannot be read; re-run the soak (the header is written first, so only a damaged file loses it).',
        exitCode: EXIT.USAGE,
      },
    );
  }
  return decodedRun(raw, header, allocs);
}

/**
 * The JSON in file, or null when there is no such file; SoakError (exit 2)
 * when it does not parse, with fix.
 */
function optionalJson(file, fix) {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new SoakError('WS_EFORMAT', `${file} does not parse (${err.message}).`, { fix, exitCode: EXIT.USAGE });
  }
}

/**
 * Reads a result folder's logs: { timed } from dir/samples.wslog and, when a
 * counting pass wrote one, { counted } from dir/samples-count.wslog, when a
 * second timed pass replicated a finding, { replica } from
 * dir/samples-replica.wslog (else null), the counting pass's allocation
 * sites from dir/sites.json and what leaked blocks hold from
 * dir/blocks.json and the glue's objects by class from dir/objects.json
 * (each else null). timed: the timed log decoded already (decodeLogAsync's
 * result), else it is decoded here. Throws like decodeLog, and SoakError
 * (exit 2) for a sites.json, blocks.json or objects.json that does not parse.
 */
export function readResultLogs(dir, { timed = null } = {}) {
  const optional = (file) => (existsSync(join(dir, file)) ? join(dir, file) : null);
  const sites = optionalJson(
    join(dir, 'sites.json'),
    'It is written whole after the counting pass: run the soak again with --sites.',
  );
  const blocks = optionalJson(
    join(dir, 'blocks.json'),
    'It is written whole after the run: run the soak again (what leaked blocks hold is on by default for run).',
  );
  const objects = optionalJson(
    join(dir, 'objects.json'),
    "It is written whole after the run: run the soak again (a scenario's objects are counted by default).",
  );
  const timeSplit = optionalJson(
    join(dir, 'time-split.json'),
    'It is written whole after the time-split pass: run the soak again with --time-split.',
  );
  const others = {
    counted: optional('samples-count.wslog'),
    replica: optional('samples-replica.wslog'),
    sites,
    blocks,
    objects,
    timeSplit,
  };
  return timed ? withTimed(timed, others) : readLogs({ timed: join(dir, 'samples.wslog'), ...others });
}

/**
 * Reads a run's logs, each a path or the bytes in memory: { timed, counted,
 * replica, sites, blocks, objects } (counted and replica null without
 * one; sites, the counting pass's allocation sites, blocks, what leaked
 * blocks hold, and objects, the glue's objects by class, as the worker gave
 * them, and timeSplit, the time-split pass's stamps and call times, passed
 * through).
 */
export function readLogs({ timed, ...others }) {
  return withTimed(decodeLog(timed), others);
}

/** readLogs's result around the timed log decoded already. */
function withTimed(
  timed,
  { counted = null, replica = null, sites = null, blocks = null, objects = null, timeSplit = null },
) {
  return {
    timed,
    counted: counted === null ? null : decodeLog(counted, { allocs: true }),
    replica: replica === null ? null : decodeLog(replica),
    sites,
    blocks,
    objects,
    timeSplit,
  };
}

/** The first length bytes at position of source (a path or a Uint8Array) and its size. */
function bytesAt(source, position, length) {
  if (typeof source !== 'string') return { bytes: source.subarray(position, position + length), size: source.length };
  const fd = openSync(source, 'r');
  try {
    const size = fstatSync(fd).size;
    const bytes = Buffer.alloc(Math.max(0, Math.min(length, size - position)));
    readSync(fd, bytes, 0, bytes.length, position);
    return { bytes, size };
  } finally {
    closeSync(fd);
  }
}

/**
 * Where a log that starts as one ends before its header does: "it ends at
 * byte N, inside its preamble" or "…, inside its header (bytes 16 to E)";
 * null when source does not start with the log's magic or holds its header.
 */
function truncatedHeader(source) {
  let bytes;
  let size;
  try {
    ({ bytes, size } = bytesAt(source, 0, 16));
  } catch {
    return null;
  }
  const magic = Buffer.from(LOG_MAGIC, 'latin1');
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, magic.length));
  if (size === 0 || !head.equals(magic.subarray(0, head.length))) return null;
  if (size < 16) return `it ends at byte ${size}, inside its 16-byte preamble`;
  const end = 16 + Buffer.from(bytes).readUInt32LE(12);
  return size < end ? `it ends at byte ${size}, inside its header (bytes 16 to ${end})` : null;
}

/**
 * The seed a capped log may have been thinned with (its run's), else
 * undefined: the reader then takes no THINNED mark for a stride (it reads
 * them as it goes, in its one pass over the file). Any capped log
 * may be thinned, however small: a first drain larger than its window's
 * share raises the stride at once (a 200 000-call run against a 1 MiB cap
 * kept a 253 KiB log), so its size tells nothing.
 */
function thinSeed(source) {
  try {
    const pre = Buffer.from(bytesAt(source, 0, 16).bytes);
    const { bytes } = bytesAt(source, 16, pre.readUInt32LE(12));
    const header = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8'));
    const cap = header.config?.maxLogBytes;
    return cap > 0 && Number.isSafeInteger(header.seed) ? header.seed : undefined;
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

/**
 * The name a metric id has in a decoded run (`memory:<label>` for memories,
 * censusMetric's name for the heap census of memory k > 0).
 */
function metricName(id, header) {
  if (id >= METRIC_CENSUS_STRIDE) {
    const k = Math.floor(id / METRIC_CENSUS_STRIDE);
    const base = METRIC_NAMES[id - k * METRIC_CENSUS_STRIDE];
    return base ? censusMetric(base, k) : `metric:${id}`;
  }
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
    // Every call counted per op as the C reader decoded a capped log
    // ({ opCalls, opThrew, growthEvents }), else null: the summary counts
    // the calls itself.
    callTotals: raw.opCalls ? { opCalls: raw.opCalls, opThrew: raw.opThrew, growthEvents: raw.growthEvents } : null,
    complete: raw.complete,
    // Failed memory.grow calls (src/analysis/grow-failures.js), or null.
    growFailures: raw.growFailures ?? null,
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
