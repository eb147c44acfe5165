// A leak's headline (src/report/frame-words.js): the export and at most two
// more frames, long demangled names shortened; report.html's sentences
// (src/report/prose-html.js): backticks as <code>, the full name on hover.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fullFrameNames, headlineStack, shortFrameName } from '../../../src/report/frame-words.js';
import { proseHtml } from '../../../src/report/prose-html.js';

const frames = (...names) =>
  names.map((n) => (typeof n === 'string' ? { name: n, from: /^func\[/.test(n) ? null : 'name section' } : n));

test('long demangled names lose their paths, generics, parameter lists and hash; short ones stay whole', () => {
  assert.equal(shortFrameName('alloc::raw_vec::RawVec<T,A>::grow_one::h0123456789abcdef'), 'RawVec<…>::grow_one');
  assert.equal(
    shortFrameName('<alloc::vec::Vec<T,A> as core::ops::drop::Drop>::drop::h0123456789abcdef'),
    '<Vec<…> as Drop>::drop',
  );
  assert.equal(
    shortFrameName(
      'std::__2::basic_string<char, std::__2::char_traits<char>, std::__2::allocator<char>>::append(char const*, unsigned long)',
    ),
    'basic_string<…>::append(…)',
  );
  assert.equal(shortFrameName('core::fmt::write'), 'core::fmt::write', 'short enough to stay whole');
  assert.equal(shortFrameName('func[1201]'), 'func[1201]');
});

test('a stripped build: the export, and the innermost frame inside it, not a wall of func[N]', () => {
  const wall = frames(...Array.from({ length: 14 }, (_, i) => `func[${900 - i}]`), {
    name: 'compress',
    from: 'export',
  });
  assert.equal(headlineStack(wall), '`compress`, at `func[900]`');
  // Named frames inside the export (symbols given, or Rust's names kept): the two innermost, gaps marked.
  const named = frames(
    'func[1201]',
    'alloc::raw_vec::RawVec<T,A>::grow_one::h0123456789abcdef',
    'func[87]',
    'lz4_flex::block::compress::compress_into_vec::h0123456789abcdef',
    'lz4_flex::block::compress::compress_internal::h0123456789abcdef',
    'func[5]',
    { name: 'compress', from: 'JS glue' },
  );
  assert.equal(headlineStack(named), '`compress`, at `RawVec<…>::grow_one` ← … ← `compress_into_vec`');
  assert.deepEqual(
    fullFrameNames([{ frames: named }]).get('RawVec<…>::grow_one'),
    'alloc::raw_vec::RawVec<T,A>::grow_one::h0123456789abcdef',
  );
});

test('without an export frame: the innermost named frame and at most two more outward; without names, both ends', () => {
  assert.equal(
    headlineStack(frames('copy_string', 'intern_header', 'parse_headers', 'handle_request')),
    '`copy_string` ← `intern_header` ← `parse_headers` ← …',
  );
  assert.equal(headlineStack(frames('func[3]', 'copy_string', 'func[9]', 'parse')), '… ← `copy_string` ← … ← `parse`');
  assert.equal(headlineStack(frames('func[3]', 'func[4]', 'func[5]')), '`func[3]` ← … ← `func[5]`');
  assert.equal(headlineStack(frames({ name: 'step', from: 'export' })), '`step`');
});

test("report.html's sentences: backticks become <code>, a shortened name carries its full name as a title", () => {
  const titles = new Map([['RawVec<…>::grow_one', 'alloc::raw_vec::RawVec<T,A>::grow_one']]);
  const html = proseHtml('+1 MiB allocated in `compress`, at `RawVec<…>::grow_one` (op `a<b`).', titles);
  assert.equal(
    html,
    '+1 MiB allocated in <code>compress</code>, at <code title="alloc::raw_vec::RawVec&#60;T,A&#62;::grow_one">RawVec&#60;…&#62;::grow_one</code> (op <code>a&#60;b</code>).',
  );
  assert.doesNotMatch(html, /`/);
});
