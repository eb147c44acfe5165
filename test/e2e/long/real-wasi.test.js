// A napi-rs WASI build that starts worker threads on a shared memory
// (@node-rs/argon2-wasm32-wasi: wasi-libc's dlmalloc built with locks, its
// state above a 64 MB stack) at the defaults: the clean workload is stable
// and its leaking twin, which keeps raw digests in linear memory, is a leak
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

test('argon2-wasm32-wasi at the defaults: clean stable, the twin a leak in linear memory with its size classes', async () => {
  const dir = tempDir('wasm-soak-real-wasi-');
  const targets = ['argon2', 'argon2-leak'].map((name) => ({
    name,
    scenario: join(REAL, `${name}.mjs`),
    expect: name === 'argon2' ? 'stable' : 'leak',
  }));
  const file = join(dir, 'suite.json');
  writeFileSync(file, JSON.stringify({ targets }));
  const out = join(dir, 'out');
  const r = await runCli(['soak', file, '--expect', '--format', 'md', '-o', out, '-q']);
  assert.equal(r.code, 0, r.stderr);
  const clean = readSummary(join(out, 'argon2'));
  const leak = readSummary(join(out, 'argon2-leak'));
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
