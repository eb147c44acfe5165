// @napi-rs/snappy-wasm32-wasi (napi-rs's WASI build of the snap crate,
// loaded through @napi-rs/wasm-runtime: a shared memory its loader creates
// with 4,000 pages, wasi-libc's dlmalloc built with locks, a 64 MB stack
// first): compress text and uncompress it, asynchronously (each async call
// runs on a pool of worker threads the package starts on that memory at the
// first one) and synchronously. Every result is copied out to the JS heap
// (copyOutputData, a string back), so nothing outlives its call in linear
// memory. The leaking twin (snappy-leak.mjs) also keeps a compressed copy of
// every text in a cache that never evicts, made without the copy: each
// Buffer holds its bytes in the module's heap (emnapi's external buffers),
// so linear memory grows by its chunks.
import { require, size } from './_package.mjs';

const COPY = { copyOutputData: true };

/** Returns the scenario; options: { name, leak }. */
export function snappyScenario({ name, leak }) {
  return {
    name,
    setup() {
      return { snappy: require('@napi-rs/snappy-wasm32-wasi'), kept: [] };
    },
    ops: {
      roundTrip: {
        weight: 3,
        async run({ snappy, kept }, ctx) {
          const text = ctx.string(size(ctx, 1024, 16384));
          const packed = await snappy.compress(text, COPY);
          if ((await snappy.uncompress(packed, { asBuffer: false })) !== text)
            throw new Error('snappy: a round trip changed the text');
          if (leak) kept.push(snappy.compressSync(text));
        },
      },
      roundTripSync: {
        weight: 1,
        run({ snappy }, ctx) {
          const text = ctx.string(size(ctx, 1024, 16384));
          if (snappy.uncompressSync(snappy.compressSync(text, COPY), { asBuffer: false }) !== text)
            throw new Error('snappy: a round trip changed the text');
        },
      },
    },
  };
}

export default snappyScenario({ name: 'snappy', leak: false });
