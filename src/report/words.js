// Turns summary.json values into the words the reports show (the verdict's
// banner, the notes, the failure, what leaked blocks hold). The tables'
// rows are in tables.js, the next steps in next-steps.js, the numbers in
// format.js, which finding leads in lead.js. Pure functions; no I/O.

import { bytesOf, printable } from '../analysis/blocks.js';
import { FINDING_KINDS } from '../protocol.js';
import { formatCount } from './format.js';
import { leadFinding } from './lead.js';
import { KIND_WORDS } from './sentences.js';

// Notes a stable run's headline quotes: the facts that a flat verdict would
// hide (start-up growth, a sawtooth, a rise a second run did not repeat, a
// worker thread that died or a pool still growing); below-floor trends are
// only counted.
const HEADLINE_NOTES = new Set([
  'startup-growth',
  'sawtooth',
  'rise-not-repeated',
  'thread-failed',
  'thread-pool-growing',
]);

/** The notes the headline quotes in full (summary.notes; only a stable run's). */
function headlineNotes(s) {
  return s.verdict === 'stable' ? (s.notes ?? []).filter((n) => HEADLINE_NOTES.has(n.kind)) : [];
}

/** The notes the headline does not quote, one sentence each ([] when none). */
export function noteLines(s) {
  const quoted = new Set(headlineNotes(s));
  return (s.notes ?? []).filter((n) => !quoted.has(n)).map((n) => n.sentence);
}

// The banner: ok (green) only for a completed or interrupted run judged stable.
// A stable run's text leads with what its notes say memory did (start-up
// growth, a sawtooth), so that a flat verdict does not read as flat memory.
export function verdictLine(s) {
  const calls = formatCount(s.iterations?.completed ?? s.samples?.calls);
  if (s.status === 'failed') {
    // A crash still leaves the calls recorded up to the last flush, judged
    // (the verdict of the run is "error"; summary.recordedVerdict judges those calls).
    const judged =
      s.findings && s.recordedVerdict
        ? `. On the ${formatCount(s.samples.calls)} calls recorded: ${KIND_WORDS[s.recordedVerdict]}`
        : '';
    return {
      ok: false,
      title: 'Run failed',
      text: `${s.error ? `Failed ${describeFailure(s.error)}` : 'The run failed'}${judged}.`.replace(/\.\.$/, '.'),
    };
  }
  const partial = s.status === 'interrupted' ? ' (interrupted: judged on the calls completed)' : '';
  if (!s.verdict)
    return { ok: false, title: 'No verdict', text: `${calls} calls; no trend analysis in this summary${partial}.` };
  const word = KIND_WORDS[s.verdict] ?? s.verdict;
  if (s.verdict === 'stable') {
    const facts = headlineNotes(s).map((n) => `${n.sentence} `);
    const below = (s.notes ?? []).filter((n) => n.kind === 'below-floor').length;
    const floor = below
      ? `; ${below === 1 ? 'one trend' : `${formatCount(below)} trends`} below the memory floor (see the notes)`
      : '';
    return {
      ok: true,
      title: 'Stable',
      text: `${facts.join('')}No leak, fragmentation, growth or slowdown found in ${calls} calls${floor}${partial}.`,
    };
  }
  const title = word[0].toUpperCase() + word.slice(1);
  // A verdict that names no finding (inconclusive): neither green nor red,
  // and its first undecided series says why.
  if (!FINDING_KINDS.includes(s.verdict) && !s.findings?.length) {
    const why = s.inconclusive?.[0]?.sentence ?? `No finding could be called in ${calls} calls.`;
    return { ok: false, unsure: true, title, text: `${why}${partial}`.trim() };
  }
  const first = leadFinding(s)?.sentence ?? '';
  return { ok: false, title, text: `${first}${partial}`.trim() };
}

// What the data left undecided, one line each ("reason: sentence"); [] when
// nothing was (summary.inconclusive, docs/summary.md).
export function undecidedLines(s) {
  return (s.inconclusive ?? []).map((u) => `${u.reason}: ${u.sentence}`);
}

/** The tool and version that wrote the summary: "wasm-soak 0.1.0". */
export const toolName = (s) => `${s.tool?.name ?? 'wasm-soak'} ${s.tool?.version ?? '(version unknown)'}`.trim();

/**
 * Where and why a failed run failed, from summary.error: "at iteration 500
 * (op step): unreachable", "in stats near iteration 999: …".
 */
export function describeFailure(e) {
  if (!e) return 'the run failed';
  const at = e.iteration != null ? `iteration ${e.iteration}${e.op != null ? ` (op ${e.op})` : ''}` : null;
  const where = e.phase === 'iteration' && at ? `at ${at}` : `in ${e.phase ?? 'the run'}${at ? ` near ${at}` : ''}`;
  // An Error's own name (ParseError, TypeError) is part of what happened.
  const named = e.name && e.name !== 'Error' && e.name !== 'non-Error value' ? `${e.name}: ` : '';
  return `${where}: ${named}${e.message}`;
}

// Shortest run of printable bytes a hint quotes, and the longest it quotes.
const HINT_MIN = 4;

const HINT_MAX = 40;

// Runs a hint quotes at most.
const HINT_RUNS = 2;

/** The runs of printable bytes in bytes, as strings. */
function printableRuns(bytes) {
  const runs = [];
  let run = '';
  for (const b of bytes) {
    if (printable(b)) run += String.fromCharCode(b);
    else if (run) {
      runs.push(run);
      run = '';
    }
  }
  if (run) runs.push(run);
  return runs;
}

/**
 * The text leaked blocks hold, quoted for a one-line hint ('"session-token-
 * 000123", "session-token-000871"'): the longest runs of at least HINT_MIN
 * printable bytes, one per block, at most HINT_RUNS of them, each cut to
 * HINT_MAX characters; '' when no block holds such a run.
 */
function blocksHint(blocks) {
  const runs = [];
  for (const b of blocks ?? []) {
    const longest = printableRuns(bytesOf(b.hex)).reduce((a, r) => (r.length > a.length ? r : a), '');
    if (longest.length >= HINT_MIN && !runs.includes(longest)) runs.push(longest);
  }
  return runs
    .slice(0, HINT_RUNS)
    .map((r) => JSON.stringify(r.length > HINT_MAX ? `${r.slice(0, HINT_MAX)}…` : r))
    .join(', ');
}

/**
 * A one-line hint of what finding f's blocks hold ('blocks allocated after
 * warm-up hold "session-token-006450", …'), or '' when f has no blocks or
 * none holds text. The quoted text is printable ASCII, JSON-quoted.
 */
export function blocksHintLine(f) {
  const hint = blocksHint(f.blocks);
  return hint ? `blocks allocated after warm-up hold ${hint}` : '';
}
