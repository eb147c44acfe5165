// The reference of bench/report.js: a process that only decodes the log at
// argv[2] (the C reader, one pass over the file), importing nothing else.
import { decodeLog } from '../src/analysis/log-reader.js';

decodeLog(process.argv[2]);
