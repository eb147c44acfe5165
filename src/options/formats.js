// The reports a run can write, in the order they are written: the one list
// that `--format` is checked against and that writeReports defaults to.
export const REPORT_FORMATS = Object.freeze(['png', 'svg', 'html', 'md', 'junit']);
