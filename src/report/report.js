// Writes the reports of a run into its result folder, as the table of
// formats (src/options/formats.js) says: the figures (PNG, SVG) first, then
// each format's writer in the table's order (report.html, summary.md,
// junit.xml). A writer is a module of src/report/ exporting
// write(dir, summary, { figures, skipped, startedAt }).

import { join } from 'node:path';
import { FILE_FORMATS, REPORT_FORMATS } from '../options/formats.js';
import { DEFAULTS } from '../options/schema.js';
import { writeResultFile } from '../result-file.js';
import { INSTALL_HINT, renderFigures } from './plots.js';

/**
 * Loads the writer modules of formats (the file formats' rows with a
 * writer, in the table's order): resolves [{ row, write }]. `report` loads
 * them while its log decodes.
 */
export function loadWriters(formats) {
  const rows = FILE_FORMATS.filter((f) => formats.includes(f.name) && f.writer);
  return Promise.all(rows.map(async (row) => ({ row, write: (await import(`./${row.writer}`)).write })));
}

// Writes the requested formats into dir from the decoded run (src/analysis/log-reader.js
// decodeLog) and its summary. Resolves { figures, skipped, gnuplotStderr }:
// figure file names, null or why plots are missing, and the path of the
// kept gnuplot stderr (null when gnuplot was not needed). Plots failing never
// stop the other reports; with requirePlots the promise then rejects with an
// Error whose code is 'WS_PLOTS_FAILED', after everything else is written.
// env.WASM_SOAK_GNUPLOT overrides the gnuplot executable. plotTimeoutMs
// (default --plot-timeout's) bounds each figure (0: no bound); an aborted signal skips the figures not
// yet drawn (a signal during the reports), the rest is still written.
// startedAt: performance.now() when the run started, so that junit.xml's
// time is the wall time until it is written (else the loop's time).
export async function writeFormats(
  dir,
  data,
  summary,
  { formats = REPORT_FORMATS, requirePlots = false, plotTimeoutMs = DEFAULTS.plotTimeoutMs, signal, startedAt } = {},
) {
  const unknown = formats.filter((f) => !REPORT_FORMATS.includes(f));
  if (unknown.length)
    throw Object.assign(new Error(`unknown report format ${unknown.join(', ')}; use ${REPORT_FORMATS.join(', ')}`), {
      code: 'WS_EINVAL',
    });
  const rows = FILE_FORMATS.filter((f) => formats.includes(f.name));
  // Every figure a wanted format needs, drawn first (report.html inlines SVGs).
  const plotFormats = [...new Set(rows.flatMap((f) => f.figures ?? []))];
  let plots = { figures: [], skipped: null, stderr: '' };
  let gnuplotStderr = null;
  if (plotFormats.length) {
    plots = await renderFigures(dir, data, summary, {
      formats: plotFormats,
      gnuplot: process.env.WASM_SOAK_GNUPLOT || 'gnuplot',
      timeoutMs: plotTimeoutMs,
      signal,
    });
    gnuplotStderr = join(dir, 'gnuplot-stderr.txt');
    writeResultFile(gnuplotStderr, plots.stderr);
  }
  const { figures, skipped } = plots;
  const context = { figures, skipped, startedAt };
  for (const { write } of await loadWriters(formats)) await write(dir, summary, context);
  if (skipped && requirePlots) {
    throw Object.assign(new Error(`plots were required but ${skipped}; install gnuplot with ${INSTALL_HINT}`), {
      code: 'WS_PLOTS_FAILED',
    });
  }
  return { figures, skipped, gnuplotStderr };
}
