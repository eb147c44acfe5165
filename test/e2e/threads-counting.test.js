// The counting pass refuses a module built for wasi-threads at once (exit 2,
// naming the fix), before any call: each thread such a module spawns
// instantiates it again in a worker thread its loader starts, without the
// pass's imports, and an async call then never settled (a 60 s hang, exit 3,
// on @node-rs/argon2-wasm32-wasi). The timed pass alone runs it.

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli, tempDir } from '../helpers.js';

// (module (import "wasi" "thread-spawn" (func (param i32) (result i32)))), assembled by hand.
const THREADED = [
  [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  [0x01, 0x06, 0x01, 0x60, 0x01, 0x7f, 0x01, 0x7f],
  [0x02, 0x15, 0x01, 0x04, ...Buffer.from('wasi'), 0x0c, ...Buffer.from('thread-spawn'), 0x00, 0x00],
].flat();

function scenario(dir) {
  const path = join(dir, 'threaded.mjs');
  writeFileSync(
    path,
    `const bytes = new Uint8Array(${JSON.stringify(THREADED)});
export default {
  name: 'threaded',
  setup() {
    const module = new WebAssembly.Module(bytes);
    return { instance: new WebAssembly.Instance(module, { wasi: { 'thread-spawn': () => 0 } }) };
  },
  ops: { noop: { run() {} } },
};
`,
  );
  return path;
}

test('--count-allocs on a wasi-threads module: refused before the first call, exit 2, naming the fix', async () => {
  const dir = tempDir();
  const path = scenario(dir);
  const refused = await runCli(['run', path, '-n', '50', '--count-allocs', '-o', join(dir, 'count'), '--format', 'md']);
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(refused.stderr, /the counting and time-split passes cannot run on a module built for wasi-threads/);
  assert.match(refused.stderr, /Run without --count-allocs, --sites/);
  const timed = await runCli(['run', path, '-n', '50', '-o', join(dir, 'timed'), '--format', 'md']);
  assert.equal(timed.code, 0, timed.stderr);
});
