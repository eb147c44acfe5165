// Append-only writer of the sample log (docs/log-format.md): the preamble
// and JSON header, then the records in checksummed blocks, each written by
// one write so that a crash tears at most the last one. It writes into a
// sink: a file (fileSink), or a growable buffer in memory (memorySink, the
// library's soak() without `out`) that ends up holding the same bytes.
import { closeSync, fsyncSync, writeSync, writevSync } from 'node:fs';
import { addon } from '../addon.js';
import { LOG_BLOCK_RECORDS, LOG_MAGIC, LOG_VERSION, RECORD_SIZE } from '../protocol.js';
import { openResultFile } from '../result-file.js';
import { createThinning } from './thinning.js';

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
 * finite maxBytes the log is thinned to stay under it (thinning.js).
 */
export function createLogWriter(sink, header, { maxBytes = Infinity } = {}) {
  const start = encodeLogStart(header);
  sink.write([start]);
  const blockHeader = Buffer.alloc(RECORD_SIZE);
  const plan = Number.isFinite(maxBytes)
    ? createThinning({ maxBytes: maxBytes - start.length, seed: header.seed, ops: header.ops?.length ?? 1 })
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
