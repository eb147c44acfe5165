// Live progress on the main thread: a bar redrawn in place on a terminal (at
// most 10 times a second, cut to the terminal's width), plain lines (the
// first at once, then every 10 s) when stderr is no terminal, TERM is dumb
// or CI is set, nothing with --quiet. What the target prints goes above the
// bar, line by line, never into it. The bar looks only at the tail of each
// drained chunk, so it costs the same at any call rate.
import { addon } from '../addon.js';
import { RECORD_TYPE, recordView } from '../protocol.js';
import { visible } from '../report/escape.js';
import { formatBytes, formatCount, formatDuration, formatNs, formatRate } from '../report/format.js';
import { preliminaryWords } from '../report/progress-words.js';

const WINDOW = 1024;

/** The preliminary verdict's own part of its words (what a narrow terminal keeps). */
const verdictOf = (words) => words.split(' · ').find((w) => w.startsWith('preliminary')) ?? words;
/** Least time between two redraws of the bar (10 a second at most). */
export const REDRAW_MS = 100;
const LINE_EVERY_MS = 10_000;
const DEFAULT_COLUMNS = 80;
const CLEAR_LINE = '\r\x1b[K';

/**
 * How progress is shown: 'none' with --quiet, 'tty' (a bar redrawn in place)
 * on a terminal that can take it, else 'lines' (plain lines): when stream is
 * no TTY, TERM is "dumb" or CI is set (to anything but "" or "false").
 */
export function progressMode({ quiet, stream = process.stderr, env = process.env }) {
  if (quiet) return 'none';
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== 'false';
  return stream.isTTY && env.TERM !== 'dumb' && !ci ? 'tty' : 'lines';
}

/**
 * The bar's fields joined by spaces, cut to fit in width columns: the fields
 * are [{ text, keep, short? }] in display order. While the line is too long
 * the field with the lowest keep gives way: to its short form when it has
 * one, else it goes; then every field that went and fits in the room left
 * comes back, the most kept first, so no room stays empty that a field could
 * use. A last field that still does not fit is cut. The result is at most
 * width - 1 columns (a line that fills the last column wraps on some
 * terminals) and never holds a line break.
 */
export function fitLine(fields, width) {
  const room = Math.max(1, width - 1);
  const shown = fields.map((f, at) => ({ ...f, at })).filter((f) => f.text);
  const length = (list) => list.reduce((n, f) => n + f.text.length, 0) + list.length - 1;
  const dropped = [];
  while (shown.length > 1 && length(shown) > room) {
    const give = shown.reduce((low, f) => (f.keep < low.keep ? f : low));
    if (give.short && give.text !== give.short) give.text = give.short;
    else dropped.push(...shown.splice(shown.indexOf(give), 1));
  }
  for (const f of dropped.sort((a, b) => b.keep - a.keep)) {
    const back = [...shown, f].sort((a, b) => a.at - b.at);
    if (length(back) <= room) shown.splice(0, shown.length, ...back);
  }
  return shown
    .map((f) => f.text)
    .join(' ')
    .slice(0, room);
}

/**
 * The last line of the terminal, shared by the bar and what the target
 * prints. mode: as progressMode; stream: where the bar goes; columns(): the
 * width to fit (default stream.columns, else COLUMNS, else 80). draw(fields)
 * shows the bar; above(text, dest, source) writes the complete lines of text
 * to dest (a writable) above it, keeping a partial line of each source (a
 * key: the target's stdout and stderr may share a dest) until its end
 * arrives or end(source) says the source ended; close(fields) replaces the
 * bar with the whole line of fields (null: none), which is never redrawn.
 */
export function createTerminal({ mode, stream = process.stderr, columns } = {}) {
  const width = columns ?? (() => stream.columns || Number(process.env.COLUMNS) || DEFAULT_COLUMNS);
  let barShown = false;
  const pending = new Map();

  function clearBar() {
    if (barShown) stream.write(CLEAR_LINE);
    barShown = false;
  }

  function above(text, dest, source = dest) {
    const held = (pending.get(source)?.held ?? '') + text;
    const end = held.lastIndexOf('\n') + 1;
    pending.set(source, { dest, held: held.slice(end) });
    if (end === 0) return;
    clearBar(); // the next draw puts the bar back under the text
    dest.write(held.slice(0, end));
  }

  // A source's last partial line, once it has ended.
  function end(source) {
    const p = pending.get(source);
    pending.delete(source);
    if (!p?.held) return;
    clearBar();
    p.dest.write(`${p.held}\n`);
  }

  const plain = (fields) =>
    fields
      .filter((f) => f.text)
      .map((f) => f.text)
      .join(' ');

  function draw(fields) {
    if (mode === 'tty') {
      stream.write(`${CLEAR_LINE}${fitLine(fields, width())}`);
      barShown = true;
    } else if (mode === 'lines') {
      stream.write(`${plain(fields)}\n`);
    }
  }

  // The last line stays on screen: on a terminal it fits the width as the
  // bar does (it never wraps); plain lines are written whole. What the
  // target prints may still arrive after it.
  function close(fields) {
    if (fields && mode === 'tty') stream.write(`${CLEAR_LINE}${fitLine(fields, width())}\n`);
    else if (fields && mode === 'lines') stream.write(`${plain(fields)}\n`);
    barShown = false;
  }

  return { draw, above, end, close };
}

/**
 * Progress of one pass. terminal: createTerminal's; total: iterations
 * requested (null: until --duration); durationMs: optional limit. trend:
 * optional preliminary verdict ({ consume, describe }, see
 * src/analysis/live.js), fed every drained chunk; the last line asks it for
 * the run as it ended. now(): the clock in ms (performance.now). tick() may
 * be called at any rate: the bar is redrawn at most every REDRAW_MS, a plain
 * line every 10 s.
 */
export function createProgress({ name, total, durationMs, mode, terminal, trend, now = () => performance.now() }) {
  const started = now();
  const window = new Float64Array(WINDOW);
  let filled = 0;
  let next = 0;
  let done = 0;
  let near = 0; // the full iteration of the last record seen (records carry its low 32 bits)
  let memory = NaN;
  let lastDraw = -Infinity; // the first draw comes at once

  function consume(chunk) {
    trend?.consume(chunk);
    const records = recordView(chunk);
    const iterations = addon.recordIterations(chunk, near);
    near = iterations.last;
    if (iterations.lastCall >= 0) done = iterations.lastCall + 1;
    for (let i = Math.max(0, records.count - WINDOW); i < records.count; i++) {
      if (records.type(i) !== RECORD_TYPE.call) continue;
      window[next] = records.a(i);
      next = (next + 1) % WINDOW;
      filled = Math.min(WINDOW, filled + 1);
      memory = records.b(i);
    }
  }

  // The line's fields in display order; keep: the higher, the later a
  // narrow terminal drops it.
  function fields(final = false) {
    const elapsed = now() - started;
    const rate = done / Math.max(elapsed / 1000, 1e-9);
    const byCount = total ? ((total - done) / Math.max(rate, 1e-9)) * 1000 : Infinity;
    const byTime = durationMs ? durationMs - elapsed : Infinity;
    const sorted = Array.from(window.subarray(0, filled)).sort((a, b) => a - b);
    const median = filled ? sorted[filled >> 1] : NaN;
    const fraction = Math.min(1, Math.max(total ? done / total : 0, durationMs ? elapsed / durationMs : 0));
    const words = preliminaryWords(trend?.preliminary(final) ?? null);
    return [
      { text: visible(name), keep: 10 }, // the target's name: its control characters shown, never run
      { text: `[${'#'.repeat(Math.round(fraction * 20)).padEnd(20, '-')}]`, keep: 4 },
      { text: `${formatCount(done)}${total ? `/${formatCount(total)}` : ''}`, keep: 9 },
      { text: `${formatRate(rate)} it/s`, keep: 3 },
      { text: `ETA ${done > 0 ? formatDuration(Math.min(byCount, byTime)) : '–'}`, keep: 5 },
      // Memory and the preliminary verdict outlast the rate, the bar and the ETA.
      { text: `mem ${formatBytes(memory)}`, keep: 7 },
      { text: `median ${formatNs(median)}`, keep: 1 },
      { text: words ? `· ${words}` : '', short: words ? `· ${verdictOf(words)}` : '', keep: 6 },
    ];
  }

  function tick() {
    const t = now();
    const every = mode === 'tty' ? REDRAW_MS : LINE_EVERY_MS;
    if (mode === 'none' || t - lastDraw < every) return;
    lastDraw = t;
    terminal.draw(fields());
  }

  function finish() {
    terminal.close(fields(true));
    trend?.close(); // the run is over: its live copy is freed now, not at a GC that may never come
  }

  return { consume, tick, finish };
}
