// Test scenario: Emscripten's WebIDL glue (test/fixtures/webidl-counter.cjs),
// whose objects have no finalizer and stay in their class's cache until
// Module.destroy(). Each call makes a Counter and uses it; the leaking
// twin's option (WS_TEST_WEBIDL_KEEP=1) never destroys it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const keep = process.env.WS_TEST_WEBIDL_KEEP === '1';

export default {
  name: keep ? 'webidl-counters-kept' : 'webidl-counters',
  async setup() {
    const factory = require('../fixtures/webidl-counter.cjs');
    const wasmBinary = readFileSync(new URL('../fixtures/webidl-counter.wasm', import.meta.url));
    return { api: await factory({ wasmBinary }), sum: 0 };
  },
  iteration(state, ctx) {
    const { api } = state;
    const counter = new api.Counter(ctx.int(0, 100));
    counter.add(ctx.int(1, 9));
    state.sum += counter.checksum(ctx.int(0, 4096));
    if (!keep) api.destroy(counter);
  },
};
