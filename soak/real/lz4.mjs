// lz4-wasm-nodejs (Rust + wasm-bindgen, dlmalloc, stripped): compress text of
// varied sizes and decompress it again. Its API has only functions, whose
// buffers the glue frees, so there is no object to leak and no leaking twin.
import { require, size } from './_package.mjs';

export default {
  name: 'lz4',
  setup() {
    return { lz4: require('lz4-wasm-nodejs'), encoder: new TextEncoder() };
  },
  ops: {
    roundTrip: {
      weight: 3,
      run({ lz4, encoder }, ctx) {
        const input = encoder.encode(ctx.string(size(ctx, 2048, 65536)));
        const packed = lz4.compress(input);
        if (lz4.decompress(packed).length !== input.length) throw new Error('lz4 round trip lost bytes');
      },
    },
    random: {
      weight: 1,
      run({ lz4 }, ctx) {
        lz4.compress(ctx.bytes(size(ctx, 1024, 16384)));
      },
    },
  },
};
