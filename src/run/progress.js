// Live progress on the main thread: a redrawn bar on a TTY, a plain line at
// the first tick and then every 10 s otherwise, nothing with --quiet. It looks only at the tail of
// each drained chunk, so it costs the same at any call rate.
import { RECORD_TYPE, recordView } from '../protocol.js';
import { formatBytes, formatCount, formatDuration, formatNs, formatRate } from '../report/format.js';

const WINDOW = 1024;

/**
 * mode: 'tty' | 'lines' | 'none'. total: iterations requested (null: until --duration); durationMs:
 * optional limit. trend: optional preliminary verdict ({ consume, describe },
 * see src/analysis/live.js), fed every drained chunk; the last line asks it
 * for the run as it ended.
 */
export function createProgress({ name, total, durationMs, mode, stream = process.stderr, trend }) {
  const started = performance.now();
  const window = new Float64Array(WINDOW);
  let filled = 0;
  let next = 0;
  let done = 0;
  let memory = NaN;
  let lastLine = -Infinity; // the first plain line is printed at once

  function consume(chunk) {
    trend?.consume(chunk);
    const records = recordView(chunk);
    for (let i = Math.max(0, records.count - WINDOW); i < records.count; i++) {
      if (records.type(i) !== RECORD_TYPE.call) continue;
      window[next] = records.a(i);
      next = (next + 1) % WINDOW;
      filled = Math.min(WINDOW, filled + 1);
      done = records.iteration(i) + 1;
      memory = records.b(i);
    }
  }

  function line(final = false) {
    const elapsed = performance.now() - started;
    const rate = done / Math.max(elapsed / 1000, 1e-9);
    const byCount = total ? ((total - done) / Math.max(rate, 1e-9)) * 1000 : Infinity;
    const byTime = durationMs ? durationMs - elapsed : Infinity;
    const sorted = Array.from(window.subarray(0, filled)).sort((a, b) => a - b);
    const median = filled ? sorted[filled >> 1] : NaN;
    const fraction = Math.min(1, Math.max(total ? done / total : 0, durationMs ? elapsed / durationMs : 0));
    const bar = '#'.repeat(Math.round(fraction * 20)).padEnd(20, '-');
    const words = trend?.describe(final);
    const live = words ? ` · ${words}` : '';
    return `${name} [${bar}] ${formatCount(done)}${total ? `/${formatCount(total)}` : ''} ${formatRate(rate)} it/s ETA ${formatDuration(Math.min(byCount, byTime))} mem ${formatBytes(memory)} median ${formatNs(median)}${live}`;
  }

  function tick() {
    if (mode === 'tty') {
      stream.write(`\r\x1b[K${line()}`);
    } else if (mode === 'lines' && performance.now() - lastLine >= 10000) {
      lastLine = performance.now();
      stream.write(`${line()}\n`);
    }
  }

  function finish() {
    if (mode === 'tty') stream.write(`\r\x1b[K${line(true)}\n`);
    else if (mode === 'lines') stream.write(`${line(true)}\n`);
  }

  return { consume, tick, finish };
}
