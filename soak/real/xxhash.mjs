// xxhash-wasm (hand-written wasm, no allocator: the glue copies input into
// linear memory, growing it for large inputs): one-shot 32- and 64-bit hashes
// of strings and bytes, and streaming 64-bit hashes over chunks. Its hasher
// state lives in JS, so there is no wasm object to leak and no leaking twin.
import xxhash from 'xxhash-wasm';
import { size } from './_package.mjs';

export default {
  name: 'xxhash',
  async setup() {
    return { h: await xxhash(), acc: 0n };
  },
  ops: {
    string: {
      weight: 2,
      run(state, ctx) {
        state.acc ^= BigInt(state.h.h32(ctx.string(size(ctx, 64, 4096)), ctx.int(0, 1000)));
      },
    },
    bytes: {
      weight: 2,
      run(state, ctx) {
        state.acc ^= state.h.h64Raw(ctx.bytes(size(ctx, 1024, 65536)));
      },
    },
    stream: {
      weight: 1,
      run(state, ctx) {
        const hasher = state.h.create64(BigInt(ctx.int(0, 1000)));
        for (let i = ctx.int(1, 8); i > 0; i--) hasher.update(ctx.string(size(ctx, 128, 4096)));
        state.acc ^= hasher.digest();
      },
    },
  },
};
