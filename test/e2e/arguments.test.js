// Every argument kind and type reaches the export through the C loop as
// given: test/fixtures/args.wat traps on any other value, so a run that
// completes all its iterations proves each argument arrived right.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fixture, readSummary, runCli, tempDir } from '../helpers.js';

const ARGS = fixture('test', 'fixtures', 'args.wasm');
const N = 3000;

async function soak(call, args) {
  const out = tempDir();
  const r = await runCli([
    'run',
    ARGS,
    '--call',
    call,
    `--args=${args}`,
    '-n',
    String(N),
    '-o',
    out,
    '-q',
    '--fail-on',
    'none',
  ]);
  return { ...r, summary: readSummary(out) };
}

for (const [what, call, args] of [
  ['an integer constant', 'expect42', '42'],
  ['a negative integer constant', 'expect_minus5', '-5'],
  ['the iteration as an i64 (and an i64 result)', 'count', 'iter'],
  [
    'random ranges as i32, i64, f32 and f64 (and an f64 result)',
    'ranges',
    'random:-5..5,random:1099511627776..1099511628776,random:0..3,random:-1000000..1000000',
  ],
  ['a buffer from the module allocator, filled, freed after the call', 'buffer', 'buf:16..64'],
]) {
  test(`arguments: ${what}`, async () => {
    const r = await soak(call, args);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.summary.error, null);
    assert.equal(r.summary.iterations.completed, N);
  });
}

test('arguments: a wrong constant traps at the first call', async () => {
  const r = await soak('expect42', '41');
  assert.equal(r.code, 3);
  assert.equal(r.summary.error.iteration, 0);
});

test("arguments: a suite passes its targets' args, a negative constant included", async () => {
  const dir = tempDir();
  const suite = join(dir, 'suite.json');
  const target = { name: 'minus5', module: ARGS, call: 'expect_minus5', args: ['-5'], iterations: 500 };
  writeFileSync(suite, JSON.stringify({ targets: [{ ...target, expect: 'stable' }] }));
  const r = await runCli(['soak', suite, '-o', join(dir, 'out'), '-q', '--fail-on', 'none']);
  const summary = readSummary(join(dir, 'out', 'minus5'));
  assert.equal(summary.error, null, r.stderr);
  assert.equal(summary.iterations.completed, 500);
});
