// Runs past 2^32 calls (docs/log-format.md, "Iterations"): the loop counts
// in 64 bits and every reader unwraps the records' 32-bit iteration field.
// The test hook WASM_SOAK_TEST_FIRST_ITERATION starts the loop's counter just
// below 2^32, so that a short run crosses the wrap.
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { decodeLog } from '../../src/analysis/log-reader.js';
import { fixture, readSummary, runCli, tempDir } from '../helpers.js';

const WRAP = 2 ** 32;
const EMPTY = fixture('soak', 'modules', 'empty.wasm');

const runNearWrap = async (first, args) => {
  const out = tempDir();
  const r = await runCli(['run', EMPTY, '--call', 'noop', '--seed', '3', '-o', out, '-q', '--format', 'md', ...args], {
    env: { WASM_SOAK_TEST_FIRST_ITERATION: String(first) },
  });
  assert.equal(r.code, 0, r.stderr);
  return out;
};

test('a run started 5000 calls below 2^32 reads back with its full iterations: summary, decoded run, export', async () => {
  const first = WRAP - 5000;
  const out = await runNearWrap(first, ['-n', '10000']);
  const s = readSummary(out);
  assert.equal(s.iterations.completed, first + 10000);
  assert.equal(s.samples.calls, 10000);
  assert.equal(s.samples.damage, null, 'no call is lost across the wrap');
  assert.equal(s.samples.complete, true);
  assert.equal(s.ops[0].count, 10000);
  const data = decodeLog(join(out, 'samples.wslog'));
  assert.equal(data.firstIteration, first);
  assert.equal(data.lostCalls, 0);
  assert.deepEqual([...data.gapIndex, ...data.gapIter], [0, first]);
  for (const m of Object.values(data.metrics))
    for (const it of m.iter) assert.ok(it >= first && it < first + 10000, `a sample at ${it}`);
  const e = await runCli(['export', out, '--csv']);
  assert.equal(e.code, 0, e.stderr);
  const rows = readFileSync(join(out, 'samples.csv'), 'utf8').trim().split('\n').slice(1);
  assert.equal(rows.length, 10000);
  const iterations = rows.map((row) => Number(row.split(',')[0]));
  assert.ok(
    iterations.every((it, k) => it === first + k),
    `${iterations[4999]}, ${iterations[5000]}`,
  );
});

test('a capped log thinned across 2^32 keeps one call per block there and counts every call', async () => {
  const first = WRAP - 150_000;
  const out = await runNearWrap(first, ['-n', '300000', '--max-log-bytes', '1M']);
  const s = readSummary(out);
  assert.ok(statSync(join(out, 'samples.wslog')).size <= 1024 * 1024);
  assert.equal(s.iterations.completed, first + 300_000);
  assert.equal(s.ops[0].count, 300_000);
  const t = s.samples.thinning;
  assert.ok(t.stride > 1 && t.fullIterations >= first && t.fullIterations < WRAP, JSON.stringify(t));
  const data = decodeLog(join(out, 'samples.wslog'));
  assert.equal(data.thinning.iterations, 300_000);
  // Kept calls: one per block of stride iterations, in order, past the wrap too.
  const kept = data.gapIter;
  assert.ok(kept[0] >= first && kept[0] < first + 2 * data.stride, `first kept ${kept[0]}`);
  assert.ok(kept.at(-1) >= WRAP + 150_000 - 2 * data.stride, `last kept ${kept.at(-1)}`);
  for (let k = 1; k < kept.length; k++)
    assert.equal(
      Math.floor(kept[k] / data.stride),
      Math.floor(kept[k - 1] / data.stride) + 1,
      `${kept[k - 1]} then ${kept[k]}`,
    );
});

test("a scenario's ctx.iteration is the full iteration across 2^32", async () => {
  const dir = tempDir();
  const scenario = join(dir, 'count.mjs');
  writeFileSync(
    scenario,
    `export default {
  setup: () => ({ next: Number(process.env.WASM_SOAK_TEST_FIRST_ITERATION) }),
  iteration(state, ctx) {
    if (ctx.iteration !== state.next) throw new Error(\`ctx.iteration is \${ctx.iteration}, not \${state.next}\`);
    state.next++;
  },
};
`,
  );
  const out = join(dir, 'out');
  const first = WRAP - 1000;
  const r = await runCli(['run', scenario, '-n', '2000', '-o', out, '-q', '--format', 'md', '--fail-on', 'none'], {
    env: { WASM_SOAK_TEST_FIRST_ITERATION: String(first) },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readSummary(out).iterations.completed, first + 2000);
});
