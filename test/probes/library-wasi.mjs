// Probe run as a child by library.test.js: soaks a WASI module's bytes
// through the library without `out` (its stdout and stderr should be this
// process's own, and no file written) and prints the summary's verdict,
// status and outputs as one JSON line on stdout.
import { readFileSync } from 'node:fs';
import { soak } from 'wasm-soak';

const bytes = readFileSync(new URL('../fixtures/wasi-print.wasm', import.meta.url));
const summary = await soak({ bytes, name: 'wasi-print', call: 'print', iterations: 2000, seed: 4 });
process.stdout.write(`${JSON.stringify({ status: summary.status, outputs: summary.outputs })}\n`);
