// Append-only writer of the sample log (docs/log-format.md): the preamble
// and JSON header, then the records in checksummed blocks, each written by
// one write so that a crash tears at most the last one.
import { closeSync, fsyncSync, openSync, writeSync, writevSync } from 'node:fs';

import { addon } from '../addon.js';
import { LOG_BLOCK_RECORDS, LOG_MAGIC, LOG_VERSION, RECORD_SIZE } from '../protocol.js';

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
 * Creates the log at path with header; append(chunk) adds whole raw records
 * (a Uint8Array, possibly over the ring's SharedArrayBuffer) as blocks of
 * at most LOG_BLOCK_RECORDS records.
 */
export function createLogWriter(path, header) {
  const fd = openSync(path, 'w');
  writeSync(fd, encodeLogStart(header));
  const blockHeader = Buffer.alloc(RECORD_SIZE);
  let records = 0;
  let blocks = 0;
  let bytes = 0;
  return {
    append(chunk) {
      const maxBytes = LOG_BLOCK_RECORDS * RECORD_SIZE;
      for (let off = 0; off < chunk.length; off += maxBytes) {
        const body = chunk.subarray(off, Math.min(chunk.length, off + maxBytes));
        addon.logBlockHeader(blockHeader, body, records, blocks);
        writeAll(fd, [blockHeader, body]);
        records += body.length / RECORD_SIZE;
        blocks++;
        bytes += RECORD_SIZE + body.length;
      }
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
      fsyncSync(fd);
      closeSync(fd);
    },
  };
}
