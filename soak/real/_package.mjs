// Shared by the real-module scenarios (not a scenario itself): resolves and
// reads files of the npm packages they drive (exact devDependencies), and
// draws realistic input sizes.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export const require = createRequire(import.meta.url);

/** The bytes of a file inside an installed package, e.g. packageBytes('lz4-wasm-nodejs/lz4_wasm_nodejs_bg.wasm'). */
export function packageBytes(path) {
  return readFileSync(require.resolve(path));
}

/** A log-normal size with the given median, clamped to [1, max]: most inputs small, a few large. */
export function size(ctx, median, max) {
  return Math.max(1, Math.min(max, Math.round(ctx.lognormal(Math.log(median), 1))));
}
