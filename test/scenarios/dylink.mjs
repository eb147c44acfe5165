// Test scenario: an Emscripten dynamic-linking build (test/fixtures/dylink-*,
// MAIN_MODULE + SIDE_MODULE) loaded by its own glue, which links the side
// module at run time through Proxy import objects.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const file = (name) => new URL(`../fixtures/${name}`, import.meta.url).pathname;

export default {
  name: 'dylink',
  async setup() {
    const createDylink = require(file('dylink-main.cjs'));
    return createDylink({
      wasmBinary: readFileSync(file('dylink-main.wasm')),
      dynamicLibraries: [file('dylink-side.wasm')],
    });
  },
  iteration(module, ctx) {
    if (module._step(ctx.iteration) < 0) throw new Error('the side module could not allocate');
  },
};
