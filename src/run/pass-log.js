// The log of one pass: opened when the worker is ready, fed from the ring
// by every drain (and the progress line with it), closed once; a write
// error stops the pass and is kept, so that the exit code never depends on
// whether it came before or after the worker ended.
import { dirname } from 'node:path';
import { createDrain } from './drain.js';
import { createLogWriter, fileSink, memorySink } from './log-writer.js';

/** A write error of the log (logPath null: the log in memory), as the run's error: the folder and the errno. */
export function writeFailure(err, logPath) {
  return {
    name: 'Error',
    code: err.code ?? 'WS_EWRITE',
    message: `cannot write the sample log ${logPath === null ? 'in memory' : `in ${dirname(logPath)}`}: ${err.message}; the samples written before it are kept`,
    stack: err.stack,
  };
}

/**
 * The log of a pass over the ring sab, at logPath (null: in memory).
 * consume(chunk) sees each drained chunk after the log; onError(err) is
 * called once, for the first write error during a drain. Returns { open,
 * drain, close, opened, writeError, memoryBytes }: open(header, maxBytes)
 * starts the log (throws what creating it throws); drain() moves the ring's
 * records into it and returns how many (0 before open, or after an error);
 * close() drains what is left and closes it.
 */
export function createPassLog({ sab, logPath, consume, onError }) {
  let writer = null;
  let sink = null;
  let opened = false;
  let writeError = null;
  const drain = createDrain(sab, (chunk) => {
    writer.append(chunk);
    consume(chunk);
  });
  const safeDrain = () => {
    if (!writer || writeError) return 0;
    try {
      return drain();
    } catch (err) {
      writeError = err;
      onError(err);
      return 0;
    }
  };
  return {
    open(header, maxBytes) {
      sink = logPath === null ? memorySink({ limit: maxBytes }) : fileSink(logPath);
      writer = createLogWriter(sink, header, { maxBytes });
      opened = true;
    },
    drain: safeDrain,
    close() {
      if (!writer) return;
      while (safeDrain() > 0);
      try {
        writer.close();
      } catch (err) {
        writeError ??= err;
      }
      writer = null;
    },
    /** Whether the log was started (the worker got ready). */
    get opened() {
      return opened;
    },
    /** The first write error, or null. */
    get writeError() {
      return writeError;
    },
    /** The log's bytes when it was kept in memory, else null. */
    get memoryBytes() {
      return logPath === null && opened ? sink.bytes : null;
    },
  };
}
