// The analysis's facts about where the data came from and how a run ended,
// in words: the notes, sources and error messages summary.json carries as
// text, which the analysis (src/analysis/) leaves as codes and numbers.
// withFactWords fills them once, for every output (sentences.js's
// withSentences calls it).
import { LIVE_SOURCE } from '../analysis/analyze.js';
import { COUNT_CUT_SHORT, LOG_NOT_CLOSED } from '../analysis/config.js';
import { formatCount } from './format.js';

/** Where live bytes came from (summary.sources.liveBytes), by LIVE_SOURCE code; the allocator's is its own source. */
const LIVE_SOURCE_WORDS = {
  [LIVE_SOURCE.stats]: 'stats()',
  [LIVE_SOURCE.counting]: 'counting pass',
  [LIVE_SOURCE.allocator]: (sources) => sources.allocator?.source ?? 'allocator statistics',
  [LIVE_SOURCE.census]: 'heap census',
  [LIVE_SOURCE.censusNeverFrees]: 'heap census (never frees: every allocation stays live)',
  [LIVE_SOURCE.censusHeld]: 'heap census after a full GC whose finalizers ran (held by the application)',
};

/** The message of an error the analysis inferred from a log alone (its code), for the counting pass pass; undefined for any other. */
function inferredMessage(e, pass) {
  if (e?.code === LOG_NOT_CLOSED)
    return 'the run ended without closing its log (it crashed or was killed); the samples up to the last flush were analysed';
  if (e?.code === COUNT_CUT_SHORT)
    return `the counting pass ended after ${formatCount(pass.calls)} of its ${formatCount(pass.ofCalls)} calls${e.closed ? '' : ' without closing its log (it was killed or crashed)'}`;
  return undefined;
}

/** error with its message worded when the analysis left it a code (pass: the counting pass, for its counts). */
const worded = (error, pass = null) =>
  error && error.message == null && inferredMessage(error, pass)
    ? { ...error, message: inferredMessage(error, pass) }
    : error;

/** The note of a thinned log (summary.samples.thinning). */
const thinningNote = (t) =>
  `the log reached half of its cap (--max-log-bytes) after ${t.fullIterations} iterations: every call before them was logged, then one call per block of iterations (a seeded choice) and per-op summaries of every call; the analysis and figures use one call per ${t.stride} iterations over the whole run, the counts use every call`;

/** The census's source when it recognised the heap only once the module had one (the log header could not say). */
function censusSource(s) {
  const c = s.census;
  const which = (s.memory?.memories?.length ?? 0) > 1 ? `memory "${c.memory.label}": ` : '';
  return `${which}${c.kindText}, first recognised at the census after iteration ${c.firstAt}`;
}

/**
 * Summary s with the facts the analysis left as codes worded: the run's
 * error and the counting pass's when inferred from a log alone, the
 * thinned log's note, where live bytes came from, the census's source when
 * it recognised the heap late, and each hung call's message (the run's
 * error's). Returns a new object; s is not changed.
 */
export function withFactWords(s) {
  const out = { ...s };
  if (s.error) out.error = worded(s.error);
  const thinning = s.samples?.thinning;
  if (thinning) out.samples = { ...s.samples, thinning: { ...thinning, note: thinningNote(thinning) } };
  const sources = s.sources;
  if (sources) {
    const words = LIVE_SOURCE_WORDS[sources.liveBytes];
    const pass = sources.countingPass;
    out.sources = {
      ...sources,
      ...(words ? { liveBytes: typeof words === 'function' ? words(sources) : words } : {}),
      ...(pass?.error ? { countingPass: { ...pass, error: worded(pass.error, pass) } } : {}),
      ...(s.census?.recognised && sources.census && !sources.census.source
        ? { census: { ...sources.census, source: censusSource(s) } }
        : {}),
    };
  }
  if (s.findings?.some((f) => f.kind === 'hung-call'))
    out.findings = s.findings.map((f) => (f.kind === 'hung-call' ? { ...f, message: out.error?.message } : f));
  return out;
}
