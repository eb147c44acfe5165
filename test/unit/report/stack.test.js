// The frames a trap or a throw shows (src/report/stack.js): the frames that
// say where a Rust panic happened, with the panic, abort and throw machinery
// of every language skipped by name, mangled or not (docs/faults.md). The
// messages of faults through the CLI: test/e2e/messages.test.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { targetFrames } from '../../../src/report/stack.js';

// ---- 9: host flags a Worker refuses ----

test("a Rust panic's trap: the terminal shows the frames that say where, not the panic machinery", () => {
  const at = (name, index) => `    at ${name} (wasm://wasm/00a1b2c3:wasm-function[${index}]:0x${index.toString(16)})`;
  const stack = [
    'RuntimeError: unreachable',
    at('__rust_start_panic', 901),
    at('rust_panic', 900),
    at('std::panicking::rust_panic_with_hook::h1234', 899),
    at('std::panicking::begin_panic_handler::{{closure}}::h5678', 898),
    at('std::sys::backtrace::__rust_end_short_backtrace::h9abc', 897),
    at('rust_begin_unwind', 896),
    at('core::panicking::panic_fmt::hdef0', 895),
    at('core::result::unwrap_failed::h1111', 894),
    at('png::decoder::Reader::next_frame::h2222', 120),
    at('squoosh_png::decode::h3333', 80),
    at('decode', 79),
    '    at Module.decode (file:///app/node_modules/pkg/glue.js:120:14)',
  ].join('\n');
  assert.deepEqual(targetFrames({ stack }, 3), [
    'at png::decoder::Reader::next_frame::h2222 (wasm://wasm/00a1b2c3:wasm-function[120]:0x78)',
    'at squoosh_png::decode::h3333 (wasm://wasm/00a1b2c3:wasm-function[80]:0x50)',
    'at decode (wasm://wasm/00a1b2c3:wasm-function[79]:0x4f)',
  ]);
});

test('panic, abort and throw machinery is skipped by name in every language, mangled or not', () => {
  const at = (name) => `    at ${name} (wasm://wasm/00a1b2c3:wasm-function[1]:0x1)`;
  const stack = [
    'RuntimeError: unreachable',
    at('_ZN4core9panicking9panic_fmt17h0123456789abcdefE'),
    at('_ZN4core6result13unwrap_failed17h0123456789abcdefE'),
    at('__cxa_throw'),
    at('std::__2::terminate()'),
    '    at ___assert_fail (file:///app/glue.js:10:5)',
    '    at abort (file:///app/glue.js:12:5)',
    at('runtime.runtimePanic'),
    at('~lib/builtins/abort'),
    at('_ZN5image3png6decode17h0123456789abcdefE'),
    '    at wasm://wasm/00a1b2c3:wasm-function[9]:0x9',
    at('std::collections::hash::map::HashMap::insert::h3'),
  ].join('\n');
  assert.deepEqual(
    targetFrames({ stack }, 3).map((l) => l.split(' ')[1]),
    [
      '_ZN5image3png6decode17h0123456789abcdefE',
      'wasm://wasm/00a1b2c3:wasm-function[9]:0x9',
      'std::collections::hash::map::HashMap::insert::h3',
    ],
  );
});
