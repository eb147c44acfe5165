// Accuracy of the time gate at 20 000, 100 000 and 1 000 000 calls
// (docs/verdicts.md, "Accuracy"): builds test/c/test_time_accuracy.c with the
// C core at -O2 (the unit test runs it under the sanitizers, without the
// 1 000 000-call runs) and runs it with WS_ACCURACY_LONG=1. Prints its rates;
// fails when a target is missed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const cFiles = (dir) =>
  readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith('.c'))
    .map((f) => join(dir, f));
const core = cFiles('addon/core');
// The test helpers beside the tests, as test/c/Makefile links them (not the
// shared library under test/c/native/).
const helpers = readdirSync('test/c')
  .filter((f) => f.endsWith('.c') && !f.startsWith('test_'))
  .map((f) => join('test/c', f));
mkdirSync('build/bench', { recursive: true });
const out = 'build/bench/time-accuracy';
const cc = spawnSync(
  process.env.CC ?? 'cc',
  [
    '-std=c11',
    '-D_POSIX_C_SOURCE=200809L',
    '-O2',
    '-Iaddon/include',
    '-Iaddon/core',
    '-Itest/c',
    '-o',
    out,
    'test/c/test_time_accuracy.c',
    ...core,
    ...helpers,
    '-lm',
    '-lpthread',
    '-lffi', // the core's native engine (ws_native.c) calls through libffi
    '-ldl',
  ],
  { stdio: 'inherit' },
);
if (cc.status !== 0) process.exit(1);
const run = spawnSync(out, [], { stdio: 'inherit', env: { ...process.env, WS_ACCURACY_LONG: '1' } });
process.exitCode = run.status;
