// An AssemblyScript module built here (soak/fixtures/as-records.ts, TLSF
// allocator + incremental GC, runtime exported): store records in a bounded
// slot table inside the module, and take records out to the host, which pins
// each while it reads it and unpins it after, as host code of AssemblyScript
// modules must. The leaking twin (assemblyscript-leak.mjs) never unpins: a
// pinned object is a GC root, so every record it took stays in the heap.
import { readFileSync } from 'node:fs';

const MODULE = new URL('../modules/as-records.wasm', import.meta.url);

/** Returns the scenario; options: { name, leak }. */
export function assemblyscriptScenario({ name, leak }) {
  return {
    name,
    async setup() {
      const abort = () => {
        throw new Error('the AssemblyScript module aborted');
      };
      const { instance } = await WebAssembly.instantiate(readFileSync(MODULE), { env: { abort } });
      return { as: instance.exports, sum: 0 };
    },
    ops: {
      store: {
        weight: 3,
        run(state, ctx) {
          state.sum ^= state.as.store(ctx.int(0, 1 << 20), ctx.int(8, 512));
        },
      },
      take: {
        weight: 1,
        run(state, ctx) {
          const { as } = state;
          const record = as.__pin(as.makeRecord(ctx.int(0, 1 << 20), ctx.int(8, 512)));
          state.sum ^= as.checksum(record);
          if (!leak) as.__unpin(record);
        },
      },
    },
  };
}

export default assemblyscriptScenario({ name: 'assemblyscript', leak: false });
