// Test scenario: one memory reached by every route the capture hooks see.
// It is created here (new WebAssembly.Memory), imported by two modules
// (reexport-memory, imported-memory), exported again by reexport-memory,
// tracked by hand through ctx.track, grown from JS and from wasm, and read
// through new buffers. Two instances of another module (needs-import)
// export memories of their own under the same name, "memory"; setup() grows
// the first of them to 4 pages. setup() also fetches its wasm over
// HTTP, as Emscripten glue fetches its wasm: Node parses the response with
// its own HTTP parser (llhttp, a module with a 128 KiB memory, instantiated
// before the response arrives), which is not the target's. Two memories
// belong to the target, each listed once with its own size: three.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const bytesOf = (name) => readFileSync(new URL(`../fixtures/${name}.wasm`, import.meta.url));

export default {
  async setup(ctx) {
    const wasm = await fetchOverHttp(bytesOf('reexport-memory'));
    const created = new WebAssembly.Memory({ initial: 1, maximum: 200 });
    const { instance: outer } = await WebAssembly.instantiate(wasm, { env: { memory: created } });
    const memory = outer.exports.memory; // the same memory, exported again
    const inner = new WebAssembly.Instance(new WebAssembly.Module(bytesOf('imported-memory')), { env: { memory } });
    ctx.track(memory);
    memory.grow(1);
    const needsImport = new WebAssembly.Module(bytesOf('needs-import'));
    const others = [0, 1].map(() => new WebAssembly.Instance(needsImport, { env: { host_log() {} } }).exports);
    others[0].memory.grow(3);
    return { outer: outer.exports, inner: inner.exports, others, memory, bytes: 0 };
  },
  iteration(state, ctx) {
    state.outer.step();
    state.inner.step(ctx.iteration);
    for (const other of state.others) other.step(ctx.iteration);
    state.bytes += new Uint8Array(state.memory.buffer).length; // a new buffer after each growth
  },
};

/** bytes, served once from a local HTTP server and read back with fetch(). */
async function fetchOverHttp(bytes) {
  const server = createServer((_, res) => res.end(bytes));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${server.address().port}/module.wasm`);
    return new Uint8Array(await response.arrayBuffer());
  } finally {
    server.close();
  }
}
