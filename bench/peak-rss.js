// Loaded with `node --import` into a process a benchmark measures: when it
// exits, writes its peak RSS in bytes (its own, not its children's) to the
// file WASM_SOAK_BENCH_RSS names.
import { writeFileSync } from 'node:fs';

process.on('exit', () => writeFileSync(process.env.WASM_SOAK_BENCH_RSS, String(process.resourceUsage().maxRSS * 1024)));
