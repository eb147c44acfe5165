// The reports a run can write, one row each, in the order they are written:
// the one table that `--format` is checked against, that its help and
// docs/cli.md describe and that writeFormats (src/report/report.js) runs.
// A row: name (the `--format` word), writes (the files, for the docs),
// figures (the figure outputs it needs drawn first: 'png', 'svg', and
// 'narrow', the narrow-screen SVGs), and writer: the module in src/report/
// whose write(dir, summary, context) writes it, which report.js imports by
// this name (this leaf imports no writer; test/layers.test.js judges the
// writers as report.js's imports), and stream: a report written to a
// stream (the terminal's) rather than a file of the result folder. Figures
// are drawn before any writer runs, since report.html inlines the SVGs.
export const FORMATS = Object.freeze([
  { name: 'png', writes: 'the figures as PNG (`time.png`, `memory.png`, …)', figures: ['png'] },
  { name: 'svg', writes: 'the figures as SVG', figures: ['svg'] },
  { name: 'html', writes: '`report.html`, the SVG figures inlined', figures: ['svg', 'narrow'], writer: 'html.js' },
  { name: 'md', writes: '`summary.md`', writer: 'markdown.js' },
  { name: 'junit', writes: '`junit.xml`', writer: 'junit.js' },
  // The terminal's short report of `run` (after the files, once the run is
  // done): written to a stream, not a file, so no `--format` word; -q and
  // --json silence it.
  { name: 'terminal', writes: 'the short report on stdout', writer: 'terminal.js', stream: true },
]);

/** The formats written to files, which `--format` chooses from. */
export const FILE_FORMATS = Object.freeze(FORMATS.filter((f) => !f.stream));

/** The `--format` words, in the order their reports are written. */
export const REPORT_FORMATS = Object.freeze(FILE_FORMATS.map((f) => f.name));

/** The formats that draw figures. */
export const FIGURE_FORMATS = Object.freeze(FORMATS.filter((f) => f.figures).map((f) => f.name));
