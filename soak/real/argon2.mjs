// @node-rs/argon2-wasm32-wasi (napi-rs's WASI build of a Rust crate, loaded
// through @napi-rs/wasm-runtime: a shared memory its loader creates with
// 4,000 pages, wasi-libc's dlmalloc built with locks, a 64 MB stack first):
// hash passwords and verify them, asynchronously (each async call runs on a
// pool of worker threads the package starts on that memory at the first
// one) and synchronously. The leaking twin (argon2-leak.mjs) also keeps a
// raw digest of every password in a cache that never evicts: each Buffer
// holds its bytes in the module's heap (emnapi's external buffers), so linear
// memory grows by 1 KiB–2 KiB chunks. The clean workload makes no raw
// digests: dropped ones leave the glue's JS heap growing (59 KiB per 1,000
// calls over 10,000 calls of hashRaw alone: js-heap-growth), the subject of
// another scenario.
import { require } from './_package.mjs';

// Small costs keep a call under a millisecond (argon2's own cost is not the subject).
const COST = { memoryCost: 256, timeCost: 1, parallelism: 1 };

/** Returns the scenario; options: { name, leak }. */
export function argon2Scenario({ name, leak }) {
  return {
    name,
    setup() {
      return { argon2: require('@node-rs/argon2-wasm32-wasi'), kept: [] };
    },
    ops: {
      hash: {
        weight: 3,
        async run({ argon2, kept }, ctx) {
          const password = ctx.string(ctx.int(4, 64));
          const encoded = await argon2.hash(password, COST);
          if (!(await argon2.verify(encoded, password))) throw new Error('argon2: a hash did not verify');
          if (leak) kept.push(await argon2.hashRaw(password, { ...COST, outputLen: 1024 }));
        },
      },
      hashSync: {
        weight: 1,
        run({ argon2 }, ctx) {
          const password = ctx.string(ctx.int(4, 64));
          if (!argon2.verifySync(argon2.hashSync(password, COST), password))
            throw new Error('argon2: a hash did not verify');
        },
      },
    },
  };
}

export default argon2Scenario({ name: 'argon2', leak: false });
