// brotli-wasm 1.3.0 (Rust + wasm-bindgen, wee_alloc: the last release before
// the package dropped it, httptoolkit/brotli-wasm#17, "repeatedly calling
// this library causes unbounded memory growth"): decompress short
// Brotli messages and compress short text, as its README shows. Every
// buffer is freed by the glue, so live bytes stay at zero between calls;
// wee_alloc loses freed cells from its free lists and asks for fresh pages
// instead, so its heap and linear memory keep growing: fragmentation.
import { require, size } from './_package.mjs';

export default {
  name: 'brotli-wee',
  setup(ctx) {
    const brotli = require('brotli-wasm');
    const encoder = new TextEncoder();
    const messages = Array.from({ length: 64 }, () =>
      brotli.compress(encoder.encode(ctx.string(size(ctx, 512, 2048))), { quality: 5 }),
    );
    return { brotli, encoder, messages };
  },
  ops: {
    decompress: {
      weight: 3,
      run({ brotli, messages }, ctx) {
        brotli.decompress(messages[ctx.int(0, messages.length - 1)]);
      },
    },
    compress: {
      weight: 1,
      run({ brotli, encoder }, ctx) {
        brotli.compress(encoder.encode(ctx.string(size(ctx, 512, 2048))), { quality: 1 });
      },
    },
  },
};
