// Append-only writer of the sample log (docs/log-format.md).
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';

import { LOG_MAGIC, LOG_VERSION, RECORD_SIZE } from '../protocol.js';

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

/** Creates the log at path with header; append() adds raw records. */
export function createLogWriter(path, header) {
  const fd = openSync(path, 'w');
  writeSync(fd, encodeLogStart(header));
  let bytes = 0;
  return {
    append(chunk) {
      let off = 0;
      while (off < chunk.length) off += writeSync(fd, chunk, off, chunk.length - off);
      bytes += chunk.length;
    },
    get records() {
      return bytes / RECORD_SIZE;
    },
    close() {
      fsyncSync(fd);
      closeSync(fd);
    },
  };
}
