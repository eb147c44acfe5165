// stdout and stderr of the command line, guarded. A write to them can fail
// (a CI step that logs to a file on a full disk: ENOSPC; a reader that closed
// its end of a pipe: EPIPE; a terminal gone: EIO); Node reports it as an
// 'error' event which, unheard, is an uncaught exception: exit 1, the code of
// a finding. Here the first error of each stream is kept, the stream writes
// nothing more, the run goes on, and when the command ends the error is
// added to the summary.json of each result folder the command noted, and the
// exit code becomes 3 (a write error, README "Exit codes") unless it already
// says more (2, 3, 130).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT } from '../errors.js';
import { writeResultFile } from '../result-file.js';

const failures = new Map(); // 'stdout' | 'stderr' -> its first error
const folders = new Set(); // result folders whose summary.json the command wrote

/** Listens for write errors on stdout and stderr; call once, before the command runs. */
export function guardStdStreams() {
  for (const name of ['stdout', 'stderr']) {
    process[name].on('error', (err) => {
      if (!failures.has(name)) failures.set(name, err);
    });
  }
}

/** Notes a result folder whose summary.json should tell a failed write to stdout or stderr. */
export function noteResultFolder(dir) {
  if (dir) folders.add(dir);
}

/** Resolves once what was written to stream has gone out, or failed. */
function drained(stream) {
  return new Promise((resolve) => {
    if (stream.destroyed || stream.writableEnded) return resolve();
    stream.write('', () => resolve());
  });
}

/**
 * Adds `outputErrors` (one { stream, code, message } per stream that failed)
 * to dir/summary.json and raises its exitCode to 3; best effort (a disk that
 * cannot take the new summary keeps the old one whole).
 */
function tellSummary(dir, errors) {
  const path = join(dir, 'summary.json');
  try {
    const summary = JSON.parse(readFileSync(path, 'utf8'));
    summary.outputErrors = errors;
    if (summary.exitCode === EXIT.OK || summary.exitCode === EXIT.FINDING) summary.exitCode = EXIT.FAILED;
    writeResultFile(path, `${JSON.stringify(summary, null, 2)}\n`);
  } catch {}
}

/**
 * Waits for stdout and stderr to drain; when a write to either failed, tells
 * each noted summary.json and, if stdout failed and stderr still works, says
 * so on stderr. Resolves the exit code to end with: code, or 3 in place of
 * 0 or 1 after a failed write.
 */
export async function settleStdStreams(code) {
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  if (failures.size === 0) return code;
  const errors = [...failures].map(([stream, err]) => ({
    stream,
    code: err.code ?? null,
    message: `cannot write ${stream}: ${err.message}`,
  }));
  for (const dir of folders) tellSummary(dir, errors);
  if (!failures.has('stderr')) process.stderr.write(`wasm-soak: ${errors[0].message}\n`);
  return code === EXIT.OK || code === EXIT.FINDING ? EXIT.FAILED : code;
}
