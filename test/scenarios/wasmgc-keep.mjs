// Test scenario: the WasmGC fixture that keeps its objects
// (test/fixtures/wasmgc/keep.wasm), instantiated from a scenario as glue
// would: on Node 20 its setup fails with the engine's error and our fix.
import { readFileSync } from 'node:fs';

export default {
  setup: async () => {
    const bytes = readFileSync(new URL('../fixtures/wasmgc/keep.wasm', import.meta.url));
    return (await WebAssembly.instantiate(bytes)).instance.exports;
  },
  ops: { op: { run: (gc, ctx) => gc.op(ctx.int(0, 1000)) } },
};
