// The report's escaping and number words that the command line's own lines
// use (its errors, its help) before any run: they load no native addon, so
// `--help`, `--version` and a usage error work where the addon is missing.
export { terminalText } from '../report/escape.js';
export { formatCount } from '../report/format.js';
