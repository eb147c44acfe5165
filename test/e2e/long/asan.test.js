// The addon under AddressSanitizer and UndefinedBehaviorSanitizer: the
// Node-API layer and the core (loop, ring, log, census, statistics) built
// apart (make -f test/c/Makefile addon-asan, build/asan/wasm_soak.node),
// loaded through WASM_SOAK_ADDON into a node with libasan and libubsan
// preloaded, and driven by short soaks: a raw module with buffer arguments
// and an op mix, a counting pass, a scenario with stats(), then report and
// export of the log. Any sanitizer report, a leak at exit included, fails
// the soak (docs/sanitizers.md). A compare with a native arm runs its
// child process under them too.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fixture, ROOT, runCli, tempDir } from '../../helpers.js';

const ADDON = join(ROOT, 'build', 'asan', 'wasm_soak.node');
const runtime = (name) => execFileSync('cc', [`-print-file-name=${name}`], { encoding: 'utf8' }).trim();

const env = {
  WASM_SOAK_ADDON: ADDON,
  LD_PRELOAD: `${runtime('libasan.so')} ${runtime('libubsan.so')}`,
  // Leaks are checked at exit; V8 and Node reported none here, so no
  // suppressions file is needed (docs/sanitizers.md says how to add one).
  ASAN_OPTIONS: 'detect_leaks=1:halt_on_error=1:exitcode=99',
  UBSAN_OPTIONS: 'halt_on_error=1:print_stacktrace=1:exitcode=99',
};

/** Runs the CLI under the sanitizers; fails on any sanitizer report. */
async function sanitized(args, expectCode) {
  const r = await runCli(args, { env });
  assert.doesNotMatch(r.stderr, /AddressSanitizer|LeakSanitizer|runtime error:/, r.stderr);
  assert.equal(r.code, expectCode, r.stderr);
  return r;
}

test('the sanitized build builds and is instrumented', () => {
  // make rebuilds it only when a source changed.
  const r = spawnSync('make', ['-s', '-j2', '-f', 'test/c/Makefile', 'addon-asan'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, `make addon-asan failed: ${r.stderr}`);
  const symbols = execFileSync('nm', ['-D', '--undefined-only', ADDON], { encoding: 'utf8' });
  assert.match(symbols, /__asan_report_/);
  assert.match(symbols, /__ubsan_handle_/);
});

/** Soaks target with args under the sanitizers into a fresh folder; returns it. */
async function soak(target, args) {
  const out = tempDir();
  await sanitized(['run', target, ...args, '-o', out, '-q', '--format', 'md', '--fail-on', 'none'], 0);
  return out;
}

/** The run command of docs/sanitizers.md, as its arguments after `node src/cli/main.js`. */
function documentedCommand() {
  const doc = readFileSync(join(ROOT, 'docs', 'sanitizers.md'), 'utf8');
  const line = doc.split('\n').find((l) => l.startsWith('node src/cli/main.js run '));
  return line.replace('node src/cli/main.js ', '').split(/\s+/);
}

test("docs/sanitizers.md's command, without -q (the live analysis on): no sanitizer report, no leak at exit", async () => {
  const args = documentedCommand();
  assert.deepEqual(args.slice(0, 2), ['run', 'soak/modules/leak.wasm']);
  assert.ok(!args.includes('-q'), 'the documented command runs with progress');
  const r = await runCli([...args, '-o', tempDir()], { env, cwd: ROOT });
  assert.doesNotMatch(r.stderr, /AddressSanitizer|LeakSanitizer|runtime error:/, r.stderr);
  assert.equal(r.code, 1, r.stderr); // leak.wasm's verdict
});

test('soaks under ASan/UBSan: buffers, an op mix, a counting pass, a scenario, report and export', async () => {
  const raw = await soak(fixture('soak', 'modules', 'parse.wasm'), [
    '--call',
    'parse:3,checksum:1',
    '--args',
    'parse=buf:1..3000',
    '-n',
    '5000',
    '--count-allocs',
  ]);
  assert.ok(existsSync(join(raw, 'samples-count.wslog')));
  const scenario = await soak(fixture('soak', 'scenarios', 'leak-stats.mjs'), ['-n', '5000']);
  await sanitized(['report', raw, '-q', '--format', 'md', '--fail-on', 'none'], 0);
  await sanitized(['export', scenario, '--csv'], 0);
  const rows = readFileSync(join(scenario, 'samples.csv'), 'utf8').trim().split('\n');
  assert.equal(rows.length, 5001);
});

test("a native arm under ASan/UBSan: the native engine's calls and buffers, its process's exit clean", async () => {
  execFileSync(process.execPath, ['soak/build.js', '--native'], { cwd: ROOT, stdio: 'ignore' });
  const args = [fixture('soak', 'modules', 'yardstick.wasm'), fixture('soak', 'native', 'yardstick.so')];
  const opts = ['--call', 'churn:1,scan:1', '--args', 'scan=buf:1..3000', '--check-outputs'];
  const short = ['--blocks', '4', '--block-calls', '300', '--fail-if-slower', 'none', '--format', 'md', '-q'];
  // The child process inherits the preloaded runtimes: a report in it, at
  // its exit too, fails the arm (exit 3) and prints on the shared stderr.
  await sanitized(['compare', ...args, ...opts, ...short, '-o', tempDir()], 0);
});
