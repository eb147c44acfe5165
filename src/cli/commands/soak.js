// `wasm-soak soak [suite.json]`: every target of a suite (the library's
// soakSuite, src/library/suite.js), one line per target on stdout.
import { soakSuite } from '../../library/suite.js';
import { noteResultFolder } from '../std-streams.js';

/** Runs the suite of parseCommand('soak', argv); resolves the exit code. */
export function commandSoak(parsed) {
  return soakSuite(parsed, { stdout: process.stdout, stderr: process.stderr, onFolder: noteResultFolder });
}
