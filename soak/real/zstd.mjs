// @bokuweb/zstd-wasm (Emscripten, dlmalloc, minified exports): compress and
// decompress text, and compress against a dictionary through a compression
// context (ZSTD_CCtx, about 140 KiB of wasm heap once used) created and freed
// per message. The leaking twin (zstd-leak.mjs) never frees those contexts.
import { require, size } from './_package.mjs';

/** Returns the scenario; options: { name, leak }. */
export function zstdScenario({ name, leak }) {
  return {
    name,
    async setup(ctx) {
      const zstd = require('@bokuweb/zstd-wasm');
      await zstd.init();
      const encoder = new TextEncoder();
      const dict = encoder.encode(ctx.string(4096));
      const dctx = zstd.createDCtx(); // long-lived, freed in teardown
      return { zstd, encoder, dict, dctx };
    },
    ops: {
      roundTrip: {
        weight: 7,
        run({ zstd, encoder }, ctx) {
          const input = encoder.encode(ctx.string(size(ctx, 2048, 65536)));
          const packed = zstd.compress(input, ctx.int(1, 9));
          if (zstd.decompress(packed).length !== input.length) throw new Error('zstd round trip lost bytes');
        },
      },
      withDict: {
        weight: 1,
        run({ zstd, encoder, dict, dctx }, ctx) {
          const input = encoder.encode(ctx.string(size(ctx, 512, 8192)));
          const cctx = zstd.createCCtx();
          const packed = zstd.compressUsingDict(cctx, input, dict, 3);
          if (!leak) zstd.freeCCtx(cctx);
          if (zstd.decompressUsingDict(dctx, packed, dict).length !== input.length) {
            throw new Error('zstd dictionary round trip lost bytes');
          }
        },
      },
    },
    teardown({ zstd, dctx }) {
      zstd.freeDCtx(dctx);
    },
  };
}

export default zstdScenario({ name: 'zstd', leak: false });
