// Writes a result folder from an analysis (src/analysis/analyze.js):
// summary.json first, so that a failing plot never loses the analysis, then
// the figures and reports, then summary.json again with what they wrote.
import { EXIT } from '../cli/exit-codes.js';
import { writeReports } from './report.js';
import { writeSummary } from './summary-json.js';

/**
 * Writes dir/summary.json and the reports of { summary, figureData } (what
 * analyze returns). cfg: { formats, requirePlots }. Fills summary.outputs'
 * figures and plotsSkipped; plots that were required but could not be drawn
 * make the exit code EXIT.FAILED. Returns the summary as written.
 */
export async function writeResult(dir, { summary, figureData }, cfg = {}) {
  writeSummary(dir, summary);
  try {
    const reports = await writeReports(dir, figureData, summary, {
      formats: cfg.formats ?? undefined,
      requirePlots: cfg.requirePlots,
    });
    summary.outputs.figures = reports.figures;
    summary.outputs.plotsSkipped = reports.skipped;
  } catch (err) {
    if (err.code !== 'WS_PLOTS_FAILED') throw err;
    summary.outputs.plotsSkipped = err.message;
    summary.exitCode = EXIT.FAILED;
  }
  writeSummary(dir, summary);
  return summary;
}
