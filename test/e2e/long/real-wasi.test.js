// Two napi-rs WASI builds that start worker threads on a shared memory
// (@node-rs/argon2-wasm32-wasi and @napi-rs/snappy-wasm32-wasi: wasi-libc's
// dlmalloc built with locks, its state above a 64 MB stack) at the
// defaults: each clean workload is stable
// and its leaking twin, which keeps Buffers in linear memory, is a leak
// that the heap census names by size (not growth: the census recognises the
// threaded dlmalloc, docs/allocator.md, "Threads"), and the worker threads
// the package starts are counted.

import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fixture, readSummary, runCli, tempDir } from '../../helpers.js';
import { project } from '../../init-helpers.js';

const REAL = fixture('soak', 'real');

/** Soaks soak/real's clean scenario `name` and its leaking twin at the defaults, as a suite with --expect: their summaries. */
async function soakPair(name) {
  const dir = tempDir('wasm-soak-real-wasi-');
  const targets = [name, `${name}-leak`].map((n) => ({
    name: n,
    scenario: join(REAL, `${n}.mjs`),
    expect: n === name ? 'stable' : 'leak',
  }));
  const file = join(dir, 'suite.json');
  writeFileSync(file, JSON.stringify({ targets }));
  const out = join(dir, 'out');
  const r = await runCli(['soak', file, '--expect', '--format', 'md', '-o', out, '-q']);
  assert.equal(r.code, 0, r.stderr);
  return [readSummary(join(out, name)), readSummary(join(out, `${name}-leak`))];
}

test('argon2-wasm32-wasi at the defaults: clean stable, the twin a leak in linear memory with its size classes', async () => {
  const [clean, leak] = await soakPair('argon2');
  assert.equal(clean.verdict, 'stable');
  assert.equal(leak.verdict, 'leak');
  for (const s of [clean, leak]) assert.equal(s.census.kind, 'dlmalloc', `${s.name}: the census recognised the heap`);
  // The package's pool of worker threads on the shared memory, counted and said (sources.threads).
  for (const s of [clean, leak]) {
    assert.equal(s.sources.threads.wasiThreads, true);
    assert.ok(s.sources.threads.started >= 1 && s.sources.threads.failed === 0, JSON.stringify(s.sources.threads));
  }
  // The 1 KiB digests' chunks (1 KiB–2 KiB) accumulate.
  assert.ok(leak.census.growing.some((c) => c.fromBytes === 1024 && c.change > 1000));
});

// A second napi-rs WASI build that starts worker threads: the same verdicts,
// its pool of 4 threads started at its first async call and none
// after warm-up (no thread note).
test('snappy-wasm32-wasi at the defaults: clean stable, the twin a leak in linear memory with its size classes', async () => {
  const [clean, leak] = await soakPair('snappy');
  assert.equal(clean.verdict, 'stable');
  assert.equal(leak.verdict, 'leak');
  for (const s of [clean, leak]) {
    assert.equal(s.census.kind, 'dlmalloc', `${s.name}: the census recognised the heap`);
    const { timeline, cpuMs, cpuPerCall, heaps, ...threads } = s.sources.threads;
    // The pool's own threads did the async calls' work: Linux charged them CPU time, per call of the run (its ops together).
    assert.ok(cpuMs > 0, `${s.name}: cpuMs ${cpuMs}`);
    const calls = s.iterations.completed; // the leak's run may end early, decided
    assert.deepEqual(cpuPerCall, { ns: (cpuMs * 1e6) / calls, calls, op: null }, s.name);
    // Each wasi thread lives inside wasi_thread_start: it never turns its event loop to report its heap.
    assert.equal(heaps.taken, 0, s.name);
    assert.ok(heaps.missed > 0, `${s.name}: ${heaps.missed} checkpoints missed`);
    assert.deepEqual(
      threads,
      {
        started: 4,
        exited: 0,
        maxAlive: 4,
        failed: 0,
        firstFailure: null,
        wasiThreads: true,
        afterWarmup: { started: 0, aliveFrom: 4, aliveTo: 4 },
      },
      s.name,
    );
    // All 4 at one call: the first async one (its iteration is the seed's).
    assert.deepEqual(
      timeline.map(([, started, exited]) => [started, exited]),
      [[4, 0]],
    );
    assert.deepEqual(
      s.notes.filter((n) => n.kind.startsWith('thread-')),
      [],
    );
  }
  // The kept compressed texts' chunks accumulate (texts of 1 KiB median: 1 KiB–2 KiB chunks).
  assert.ok(
    leak.census.growing.some((c) => c.fromBytes === 1024 && c.change > 1000),
    JSON.stringify(leak.census.growing),
  );
});

// init on the same package: napi-rs's loader through the package's own entry,
// and an async call (the package's worker threads do the work) as the op.
test('init on @node-rs/argon2-wasm32-wasi: an async op on its worker threads, which runs unedited', async () => {
  const dir = project();
  const scenario = join(dir, 'scenario.mjs');
  const init = await runCli(['init', '@node-rs/argon2-wasm32-wasi', '-o', scenario], { cwd: dir });
  assert.equal(init.code, 0, init.stderr);
  assert.match(init.stdout, /op hash ran 200 calls here, each entering the module/);
  assert.match(readFileSync(scenario, 'utf8'), /async run\(\{ api \}, ctx\) \{\n\s+await api\.hash\(/);
  const out = join(dir, 'out');
  const r = await runCli(['run', scenario, '-n', '20', '--seed', '3', '-q', '--fail-on', 'none', '-o', out], {
    cwd: dir,
  });
  assert.equal(r.code, 0, r.stderr);
  const s = readSummary(out);
  assert.equal(s.iterations.completed, 20);
  assert.ok(s.sources.threads.started >= 1, 'the package started its worker threads');
});
