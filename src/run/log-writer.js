// Append-only writer of the sample log (docs/log-format.md): the preamble
// and JSON header, then the records in checksummed blocks, each written by
// one write so that a crash tears at most the last one. It writes into a
// sink: a file (fileSink), or a growable buffer in memory (memorySink, the
// library's soak() without `out`) that ends up holding the same bytes.
import { closeSync, fsyncSync, writeSync, writevSync } from 'node:fs';
import { addon } from '../addon.js';
import { LOG_BLOCK_RECORDS, LOG_MAGIC, LOG_VERSION, RECORD_SIZE, RECORD_TYPE } from '../protocol.js';
import { openResultFile } from '../result-file.js';

/** Encodes the preamble, JSON header and padding that start a log. */
export function encodeLogStart(header) {
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const dataStart = Math.ceil((16 + json.length) / RECORD_SIZE) * RECORD_SIZE;
  const out = Buffer.alloc(dataStart);
  out.write(LOG_MAGIC, 0, 'latin1');
  out.writeUInt32LE(LOG_VERSION, 8);
  out.writeUInt32LE(json.length, 12);
  json.copy(out, 16);
  return out;
}

/** Writes all of buffers to fd, resuming after a short write. */
function writeAll(fd, buffers) {
  let done = writevSync(fd, buffers);
  for (const b of buffers) {
    if (done >= b.length) {
      done -= b.length;
      continue;
    }
    for (let off = done; off < b.length; ) off += writeSync(fd, b, off, b.length - off);
    done = 0;
  }
}

/** Bytes kept free below the cap for the records that end a run (marks, summaries). */
const RESERVE_BYTES = 256 * 1024;
/** Share of the budget left that each doubling window may spend. */
const WINDOW_SHARE = 1 / 8;

/**
 * The thinning plan of a capped log (docs/log-format.md, "Thinned logs"):
 * every record until half the cap is used, then windows of doubling length
 * (the calls so far, then twice as many, …), each with an eighth of the
 * budget left, at the stride that fits it; a window that spends its budget
 * early doubles the stride again, and a chunk that alone holds more than its
 * window's share (a fast export's drain against a small cap) raises it
 * until the chunk fits. The cap is never passed: past it (less a
 * reserve) only marks, summaries and failed grows are written. Returns filter(chunk) -> the records to
 * write, and what was kept for the summary.
 * Long: its closures share the plan's state; each step is commented where it is taken.
 */
function thinningPlan({ maxBytes, seed, ops }) {
  let thin = null;
  let shift = 0;
  let out = null;
  let full = 0; // iterations logged in full
  let perIteration = 0; // bytes per iteration while everything was logged
  let windowEnd = 0;
  let windowBytes = 0; // bytes written when the window started
  let budget = 0;
  let dropped = 0;
  let near = 0; // the full iteration of the last record filtered (records carry its low 32 bits)
  let origin = null; // the run's first call: 0, unless a test hook started the counter elsewhere
  // The least shift (at least 1) at which iterations more calls fit the
  // budget; an empty budget needs the longest (ws_thin caps it).
  const needed = (iterations) => {
    const ratio = (iterations * perIteration) / budget; // NaN when both are 0
    return ratio > 2 ? Math.ceil(Math.log2(ratio)) : 1;
  };
  const raise = (to, from) => {
    shift = addon.logThinShift(thin, to, from);
  };
  const room = (records) => {
    const bytes = addon.logThinRoom(thin, records);
    if (!out || out.length < bytes) out = new Uint8Array(bytes);
    return out;
  };
  // The first iteration chunk's calls start: its first call's, else the one
  // after the last record's (metrics and marks carry the call they follow).
  // Called once per chunk, in order: it tracks the records' full iterations.
  const firstIteration = (chunk) => {
    const { firstCall, last } = addon.recordIterations(chunk, near);
    near = last;
    if (origin === null && firstCall >= 0) origin = firstCall;
    return firstCall >= 0 ? firstCall : last + 1;
  };
  // Bytes that n records add to the log, block headers included.
  const cost = (n) => (n + Math.ceil(n / LOG_BLOCK_RECORDS)) * RECORD_SIZE;
  return {
    /**
     * The pieces of chunk (whole raw records) to write, in order, given the
     * bytes written so far: before thinning starts, the records that still
     * fit half the cap are written whole, so a first drain that alone
     * crosses it (a main thread a loaded machine kept from draining) still
     * leaves a full prefix of calls.
     */
    filter(chunk, written) {
      if (thin) return [thinned(chunk, written)];
      const n = chunk.length / RECORD_SIZE;
      if (written + 2 * cost(n) <= maxBytes / 2) {
        firstIteration(chunk);
        return [chunk];
      }
      let whole = 0;
      while (whole < n && written + 2 * cost(whole + 1) <= maxBytes / 2) whole++;
      // The prefix ends before a call: the metrics and marks after a call stay with it.
      while (whole > 0 && chunk[whole * RECORD_SIZE] !== RECORD_TYPE.call) whole--;
      if (whole === 0) return [thinned(chunk, written)];
      const head = chunk.subarray(0, whole * RECORD_SIZE);
      firstIteration(head);
      return [head, thinned(chunk.subarray(whole * RECORD_SIZE), written + cost(whole))];
    },
    /** What the plan kept: null when it never thinned. */
    get kept() {
      return thin ? { fullIterations: full, stride: 2 ** shift, droppedAtCap: dropped } : null;
    },
    /** The summaries still open, to write before the log closes. */
    finish() {
      if (!thin) return null;
      const buf = room(0);
      return buf.subarray(0, addon.logThinFinish(thin, buf) * RECORD_SIZE);
    },
  };
  /** The records of chunk to write once thinning has started (or starts with it). */
  function thinned(chunk, written) {
    const n = chunk.length / RECORD_SIZE;
    const first = firstIteration(chunk);
    if (!thin) {
      thin = addon.logThinCreate(seed, ops);
      full = first;
      // Bytes per iteration so far, or this chunk's when it alone crosses half the cap.
      perIteration = full > origin ? written / (full - origin) : cost(n) / n;
      windowEnd = origin + 2 * Math.max(1, full - origin);
      windowBytes = written;
      budget = (maxBytes - RESERVE_BYTES - written) * WINDOW_SHARE;
      raise(needed(windowEnd - full), full);
    }
    if (first >= windowEnd) {
      // The next window: as long as the run so far, an eighth of what is left.
      windowEnd = origin + 2 * (first - origin);
      windowBytes = written;
      budget = Math.max(0, maxBytes - RESERVE_BYTES - written) * WINDOW_SHARE;
      raise(needed(windowEnd - first), first);
    } else if (written - windowBytes > budget) {
      // This window spent its share early: half as many calls from here on.
      windowBytes = written;
      budget = Math.max(0, maxBytes - RESERVE_BYTES - written) * WINDOW_SHARE;
      raise(shift + 1, first);
    }
    // A chunk alone may hold more than its window's whole share (a fast
    // export's drain against a small cap): a longer stride from its first call.
    while (cost(Math.ceil(n / 2 ** shift)) > budget) {
      const was = shift;
      raise(shift + 1, first);
      if (shift === was) break; // the longest stride ws_thin takes
    }
    const buf = room(n);
    const kept = addon.logThin(thin, chunk, buf);
    if (written + cost(kept) <= maxBytes - RESERVE_BYTES / 2) return buf.subarray(0, kept * RECORD_SIZE);
    // At the cap: only the marks (the end of the run), the per-op summaries
    // (every call's count) and failed grows still go in, while the cap
    // itself holds them; the thinned calls and metrics are dropped.
    let left = 0;
    for (let k = 0; k < kept; k++) {
      const type = buf[k * RECORD_SIZE];
      const lasting = type === RECORD_TYPE.mark || type === RECORD_TYPE.summary || type === RECORD_TYPE.growFailed;
      if (!lasting || (type !== RECORD_TYPE.mark && written + cost(left + 1) > maxBytes)) continue;
      buf.copyWithin(left * RECORD_SIZE, k * RECORD_SIZE, (k + 1) * RECORD_SIZE);
      left++;
    }
    dropped += n - left;
    return buf.subarray(0, left * RECORD_SIZE);
  }
}

/**
 * A sink that creates the file at path, never through a link (src/result-file.js):
 * write(buffers) appends, close() syncs and closes it.
 */
export function fileSink(path) {
  const fd = openResultFile(path);
  return {
    write: (buffers) => writeAll(fd, buffers),
    close() {
      fsyncSync(fd);
      closeSync(fd);
    },
  };
}

/** The first capacity of a memory sink without a limit. */
const MEMORY_START_BYTES = 1 << 20;

/**
 * A sink in memory: write(buffers) appends to one buffer; bytes is what was
 * written (a view of it, which later writes may replace). With a finite
 * limit (the log's cap, which the writer never passes) the buffer is that
 * size from the start: its pages are zero-filled on first touch, so the ones
 * a short log never reaches cost no memory, and no growth copies the log or
 * leaves old buffers to collect (bench/library-memory.js: a 1 M-call log
 * costs the host its 32 MB and no more). Without one it doubles as it fills.
 */
export function memorySink({ limit = Infinity } = {}) {
  let buf = new Uint8Array(Number.isFinite(limit) ? limit : MEMORY_START_BYTES);
  let length = 0;
  const reserve = (more) => {
    if (length + more <= buf.length) return;
    const grown = new Uint8Array(Math.max(length + more, 2 * buf.length));
    grown.set(buf.subarray(0, length));
    buf = grown;
  };
  return {
    write(buffers) {
      reserve(buffers.reduce((n, b) => n + b.length, 0));
      for (const b of buffers) {
        buf.set(b, length);
        length += b.length;
      }
    },
    close() {},
    get bytes() {
      return buf.subarray(0, length);
    },
  };
}

/**
 * Starts the log in sink (fileSink or memorySink) with header; append(chunk)
 * adds whole raw records (a Uint8Array, possibly over the ring's
 * SharedArrayBuffer) as blocks of at most LOG_BLOCK_RECORDS records. With a
 * finite maxBytes the log is thinned to stay under it (thinningPlan).
 */
export function createLogWriter(sink, header, { maxBytes = Infinity } = {}) {
  const start = encodeLogStart(header);
  sink.write([start]);
  const blockHeader = Buffer.alloc(RECORD_SIZE);
  const plan = Number.isFinite(maxBytes)
    ? thinningPlan({ maxBytes: maxBytes - start.length, seed: header.seed, ops: header.ops?.length ?? 1 })
    : null;
  let records = 0;
  let blocks = 0;
  let bytes = 0;
  const write = (chunk) => {
    const most = LOG_BLOCK_RECORDS * RECORD_SIZE;
    for (let off = 0; off < chunk.length; off += most) {
      const body = chunk.subarray(off, Math.min(chunk.length, off + most));
      addon.logBlockHeader(blockHeader, body, records, blocks);
      sink.write([blockHeader, body]);
      records += body.length / RECORD_SIZE;
      blocks++;
      bytes += RECORD_SIZE + body.length;
    }
  };
  return {
    append(chunk) {
      if (chunk.length === 0) return;
      if (!plan) return write(chunk);
      for (const piece of plan.filter(chunk, bytes)) write(piece);
    },
    /** What a capped log kept once it thinned, else null (docs/summary.md, samples.thinning). */
    get thinning() {
      return plan?.kept ?? null;
    },
    /** Records appended so far. */
    get records() {
      return records;
    },
    /** Bytes of blocks written so far (the header excluded). */
    get bytes() {
      return bytes;
    },
    close() {
      const last = plan?.finish();
      if (last?.length) write(last);
      sink.close();
    },
  };
}
