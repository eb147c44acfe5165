// A scenario for `wasm-soak compare --package`: each arm imports its own
// version of @bokuweb/zstd-wasm (ctx.arm.import(), from the package cache)
// and round-trips text of varied sizes through it. Used as:
//   wasm-soak compare soak/scenarios/compare-zstd-versions.mjs \
//     --package @bokuweb/zstd-wasm@0.0.22 --package @bokuweb/zstd-wasm@0.0.27
// (docs/compare.md, "Versions of an npm package").
export default {
  name: 'compare-zstd-versions',
  async setup(ctx) {
    if (!ctx.arm?.import)
      throw new Error('compare-zstd-versions is a compare scenario: run it with --package NAME@VERSION');
    const loaded = await ctx.arm.import();
    const zstd = loaded.default ?? loaded; // a CommonJS package's exports
    await zstd.init();
    return { zstd, encoder: new TextEncoder() };
  },
  iteration({ zstd, encoder }, ctx) {
    const n = Math.max(1, Math.min(16384, Math.round(ctx.lognormal(Math.log(1024), 1))));
    const input = encoder.encode(ctx.string(n));
    if (zstd.decompress(zstd.compress(input, 3)).length !== input.length) throw new Error('zstd round trip lost bytes');
  },
};
