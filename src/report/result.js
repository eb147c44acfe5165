// Writes a result folder from its logs: the pure analysis
// (src/analysis/analyze.js), then summary.json first, so that a failing plot
// never loses the analysis, then the figures and reports, then summary.json
// again with what they wrote. A first signal during the analysis or the
// reports (src/run/interrupt.js) skips the figures and marks the summary; one
// that stopped the run early draws them all (each is bounded by
// --plot-timeout); a second one stops at once with a summary that says how
// to recover.
import { addon } from '../addon.js';
import { analyzeFacts } from '../analysis/analyze.js';
import { readResultLogs } from '../analysis/log-reader.js';
import { EXIT } from '../errors.js';
import { FIGURE_FORMATS } from '../options/formats.js';
import { TOOL } from '../version.js';
import { plotsWarning, startFigureQuantiles, startFigures } from './plots.js';
import { writeFormats } from './report.js';
import { withSentences } from './sentences.js';
import { writeSummaryOrPrint } from './summary-json.js';

/**
 * The analysis of decoded logs (src/analysis/analyze.js, facts only) with
 * its findings, undecided tests and notes worded (sentences.js): {
 * summary, figureData }, as every output takes it.
 */
export function analyzed(args) {
  const { summary, figureData } = analyzeFacts(args);
  return { summary: withSentences(summary), figureData };
}

/**
 * stop() of the analysis and the reports: skips the figures when the first
 * signal came during either (the user asked to stop drawing), not when it
 * stopped the run or the counting pass before them (the user asked for the
 * result of the calls done, figures included).
 */
const skipFiguresOnSignal = (interrupt, skip) => () => {
  if (['analysis', 'reports'].includes(interrupt.first?.during)) skip.abort();
};

/**
 * Marks summary as cut short by a signal (interrupt.first says when it
 * came): exit 130, unless the run failed (verdict error: a hung call the
 * watchdog ended after the signal, a throw), whose exit 3 a signal never
 * hides.
 */
function markInterrupted(summary, interrupt, figures) {
  const first = interrupt?.first;
  if (!first) return;
  const cutShort =
    {
      run: ['the run'],
      'counting pass': ['the counting pass'],
      analysis: figures ? ['figures'] : [],
      reports: figures ? ['figures'] : [],
    }[first.during] ?? [];
  summary.interrupted = { signal: first.signal, during: first.during, cutShort };
  if (summary.verdict !== 'error') summary.exitCode = EXIT.INTERRUPTED;
}

/**
 * The exit code of a file of the result that could not be written (err): a
 * link where it goes is an input error (exit 2, src/result-file.js), any
 * other a failure (3); a signal's 130 stays.
 */
function failedWrite(summary, err) {
  if (summary.exitCode === EXIT.INTERRUPTED && err.code !== 'WS_ELINK') return;
  summary.exitCode = err.code === 'WS_ELINK' ? EXIT.USAGE : EXIT.FAILED;
}

/** Whether cfg's formats draw figures (the default's do). */
const asksFigures = (cfg) => (cfg.formats ?? ['png']).some((f) => FIGURE_FORMATS.includes(f));

/**
 * Writes dir/summary.json and the reports of { summary, figureData } (what
 * analyze returns). cfg: { formats, requirePlots, plotTimeoutMs, startedAt
 * (performance.now() when the run started, for junit.xml's wall time) }; interrupt:
 * the command's interrupt controller, or null; skipFigures: an
 * AbortController whose abort skips the figures not yet drawn. Fills
 * summary.outputs; plots that were required but could not be drawn, or
 * reports that could not be written, make the exit code EXIT.FAILED.
 * Returns the summary as written.
 */
export async function writeResult(dir, { summary, figureData }, cfg = {}, interrupt = null, skipFigures = null) {
  const figuresAsked = asksFigures(cfg);
  markInterrupted(summary, interrupt, figuresAsked);
  const unwritten = writeSummaryOrPrint(dir, summary);
  if (unwritten) {
    summary.outputs.summary = null;
    failedWrite(summary, unwritten);
  }
  const skip = skipFigures ?? new AbortController();
  interrupt?.enter('reports', {
    message: 'skipping the figures; writing the summary and the text reports',
    stop: skipFiguresOnSignal(interrupt, skip),
    now: () => {
      summary.interrupted = { ...summary.interrupted, cutShort: ['reports'], recover: `wasm-soak report ${dir}` };
      summary.exitCode = EXIT.INTERRUPTED;
      writeSummaryOrPrint(dir, summary);
    },
  });
  try {
    const reports = await writeFormats(dir, figureData, summary, {
      formats: cfg.formats ?? undefined,
      requirePlots: cfg.requirePlots,
      plotTimeoutMs: cfg.plotTimeoutMs,
      signal: skip.signal,
      startedAt: cfg.startedAt,
    });
    summary.outputs.figures = reports.figures;
    summary.outputs.plotsSkipped = reports.skipped;
    // Never silent: figures missing are one line on stderr (--require-plots says more).
    if (reports.skipped && !skip.signal.aborted) process.stderr.write(plotsWarning(reports.skipped, dir));
  } catch (err) {
    if (err.code === 'WS_PLOTS_FAILED') {
      summary.outputs.plotsSkipped = err.message;
    } else {
      // A report that cannot be written (a full disk): named, not a crash.
      process.stderr.write(`wasm-soak: cannot write the reports in ${dir}: ${err.message}\n`);
      summary.outputs.reportsError = err.message;
    }
    failedWrite(summary, err);
  }
  markInterrupted(summary, interrupt, figuresAsked);
  // The summary written before the reports stays when this one cannot replace it (a full disk).
  if (writeSummaryOrPrint(dir, summary, { kept: !unwritten }) && unwritten) summary.outputs.summary = null;
  return summary;
}

/**
 * Reads dir's logs (or takes logs = readResultLogs(dir) already read),
 * analyses them and writes the result folder (writeResult); with dir null
 * (the library's in-memory run: logs given) it writes nothing and the
 * summary's outputs are null. run: the timed pass's outcome; count: the
 * counting pass's, or null. A first signal during the analysis lets it
 * finish and skips the figures; a second writes a summary that names
 * `wasm-soak report DIR` and stops. Returns the summary.
 */
export async function analyzeInto(dir, { cfg, run, count = null, interrupt = null, logs = null }) {
  const skipFigures = new AbortController();
  interrupt?.enter('analysis', {
    message: 'finishing the analysis (the figures will be skipped)',
    stop: skipFiguresOnSignal(interrupt, skipFigures),
    now:
      dir === null
        ? null
        : () =>
            writeSummaryOrPrint(dir, {
              schema: 'wasm-soak-summary',
              version: 1,
              tool: TOOL,
              status: run.status,
              exitCode: EXIT.INTERRUPTED,
              error: null,
              interrupted: {
                during: 'analysis',
                cutShort: ['analysis', 'reports'],
                recover: `wasm-soak report ${dir}`,
              },
            }),
  });
  await interrupt?.checkpoint();
  const read = logs ?? readResultLogs(dir);
  await interrupt?.checkpoint();
  // The figures' heaviest decimation runs on another thread during the
  // analysis, their quantiles from when the verdicts set the windows.
  const figures = dir !== null && asksFigures(cfg);
  if (figures) startFigures(addon, read.timed);
  const onJudged = figures ? (facts) => startFigureQuantiles(addon, read.timed, facts) : null;
  const result = analyzed({ ...read, cfg, run, count, onJudged });
  if (dir === null) {
    markInterrupted(result.summary, interrupt, false);
    result.summary.outputs = null; // no file was written
    return result.summary;
  }
  return writeResult(dir, result, cfg, interrupt, skipFigures);
}
