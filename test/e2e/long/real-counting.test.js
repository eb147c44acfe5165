// The counting pass against the other memory sources on real npm release
// builds (soak/real/suite.json): the live bytes it counts can never exceed
// the memory that holds them (issue 29 item 5: a pass that saw a wasm-bindgen
// package's allocations and missed its frees counted 13.1 MiB live in a
// 1.4 MiB memory, and called the clean package a leak).
// Cost: every target that leaks nothing runs once, together, as one soak of
// 300 calls with --count-allocs, --fail-on none and no figures (the
// consistency assertion: 30 s of CPU, most of it loading the modules and
// binaryen rewriting them; 80 s of wall time at a load of 12); the
// verdict assertion runs at the defaults users get (20 000 calls) on
// photon-node alone, the suite's wasm-bindgen package whose glue frees
// through a FinalizationRegistry.

import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { assertClean, fixture, readSummary, runCli, tempDir } from '../../helpers.js';

const REAL = fixture('soak', 'real');
const suite = JSON.parse(readFileSync(join(REAL, 'suite.json'), 'utf8'));
// The targets that leak nothing: stable ones, and brotli-wee's fragmentation
// (it frees every block); not those whose objects are never freed (unfreed-objects),
// nor the napi-rs WASI builds (a scenario loading a *-wasm32-wasi package),
// whose counting pass is refused (test/e2e/threads-counting.test.js).
const wasiThreads = (t) => /-wasm32-wasi\b/.test(readFileSync(join(REAL, t.scenario), 'utf8'));
const clean = suite.targets.filter((t) => !['leak', 'unfreed-objects'].includes(t.expect) && !wasiThreads(t));

test('--count-allocs on every target of soak/real/ that leaks nothing: counted live bytes never exceed the memory', async () => {
  const dir = tempDir('wasm-soak-real-counting-');
  const targets = clean.map((t) => ({ name: t.name, scenario: join(REAL, t.scenario), expect: t.expect }));
  const file = join(dir, 'suite.json');
  writeFileSync(file, JSON.stringify({ targets }));
  const out = join(dir, 'out');
  const r = await runCli([
    'soak',
    file,
    '-n',
    '300',
    '--count-allocs',
    '--fail-on',
    'none',
    '--seed',
    '3',
    '--format',
    'md',
    '-o',
    out,
    '-q',
  ]);
  assert.equal(r.code, 0, r.stderr);
  for (const { name } of targets) {
    const s = readSummary(join(out, name));
    const pass = s.sources.countingPass;
    assert.equal(pass.status, 'completed', `${name}: the counting pass ran`);
    assert.equal(pass.contradiction, null, `${name}: ${pass.note}`);
    if (!s.allocations) continue;
    assert.ok(
      s.allocations.live.peak <= s.memory.max,
      `${name}: counted live bytes peak at ${s.allocations.live.peak} B in a memory of ${s.memory.max} B`,
    );
    assert.ok(s.allocations.live.end <= s.memory.end, `${name}: counted live bytes end above the memory`);
  }
});

test('photon-node with --count-allocs at defaults: the pass sees every free and the verdict is the suite’s', async () => {
  assert.equal(suite.targets.find((t) => t.name === 'photon').expect, 'stable');
  const out = tempDir('wasm-soak-real-counting-');
  const r = await runCli(['run', join(REAL, 'photon.mjs'), '--count-allocs', '-o', out, '-q']);
  const s = readSummary(out);
  assert.equal(r.code, 0, `${r.stderr}\n${JSON.stringify(s.findings)}`);
  assertClean(s);
  const pass = s.sources.countingPass;
  assert.equal(pass.caveat, null, pass.note);
  assert.deepEqual([pass.frees.unmatched, pass.frees.unseen], [0, 0]);
  assert.equal(s.sources.liveBytes, 'counting pass');
  assert.ok(s.allocations.live.end <= s.memory.end);
});
