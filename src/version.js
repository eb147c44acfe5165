// The tool's version, read from package.json once: the CLI's --version and
// the log header both say this.
import { readFileSync } from 'node:fs';

export const VERSION = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

/** How every output names the tool that wrote it. */
export const TOOL = Object.freeze({ name: 'wasm-soak', version: VERSION });
