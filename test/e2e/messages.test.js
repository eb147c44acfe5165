// Crashes and unclear messages (issue 20, "Faults II", cases 9-21, 24, 27):
// each fault ends in a message that names what happened, with the
// documented exit code. One test per row of docs/faults.md that names this
// file. Children are bounded by runCli's timeout; nothing waits a fixed time.
// The runs through the CLI; the checks without a run are in
// test/unit/report/stack.test.js.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { decodeLog } from '../../src/analysis/log-reader.js';
import { withoutRefused } from '../../src/run/worker-start.js';
import { CLI, fixture, ROOT, readSummary, runCli, tempDir } from '../helpers.js';

const clean = fixture('soak', 'modules', 'clean.wasm');
const testModule = (name) => fixture('test', 'fixtures', `${name}.wasm`);
const scenario = (name) => fixture('test', 'scenarios', `${name}.mjs`);
const TEXT = ['--format', 'md'];

/** Runs target with args into a fresh folder; returns { r, out, s } (s: summary.json or null). */
async function run(target, args, opts) {
  const out = tempDir();
  const r = await runCli(['run', target, '-o', out, ...TEXT, ...args], opts);
  let s = null;
  try {
    s = readSummary(out);
  } catch {}
  return { r, out, s };
}

/** Writes bytes (hex) as NAME.wasm in a fresh folder; returns its path. */
function moduleFile(name, hex) {
  const path = join(tempDir(), `${name}.wasm`);
  writeFileSync(path, Buffer.from(hex, 'hex'));
  return path;
}

// Modules that the committed fixtures cannot hold: wat2wasm (soak/build.js)
// refuses these features without flags. Each is `wat2wasm --enable-all` of
// the text in its comment.
// (module (memory (export "memory") 1 4 shared)
//   (func (export "step") (param $i i32) (i32.store (i32.const 0) (local.get $i))))
const SHARED =
  '0061736d0100000001050160017f0003020100050401030104071102066d656d6f72790200047374657000000a0b010900410020003602000b';
// (module (memory (export "a") 1) (memory (export "b") 1) (func (export "step") (param i32)))
const MULTI_MEMORY =
  '0061736d0100000001050160017f0003020100050502000100010710030161020001620201047374657000000a040102000b';
// (module (memory (export "memory") i64 1) (func (export "step") (param i32)))
const MEMORY64 = '0061736d0100000001050160017f00030201000503010401071102066d656d6f72790200047374657000000a040102000b';

// ---- 9: host flags a Worker refuses ----

test('a host run with --expose-gc (and other flags a Worker refuses) runs: the worker gets the flags it takes', async () => {
  const out = tempDir();
  const r = await runCli(
    [
      '--expose-gc',
      '--stack-size=900',
      '--no-warnings',
      CLI,
      'run',
      clean,
      '--call',
      'step',
      '-n',
      '2000',
      '-o',
      out,
      '-q',
      ...TEXT,
    ],
    { cli: '--max-semi-space-size=4' },
  );
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /ERR_WORKER_INVALID_EXEC_ARGV|internal error/);
  assert.equal(readSummary(out).status, 'completed');
  const message = 'Initiated Worker with invalid execArgv flags: --expose-gc, --stack-size';
  assert.deepEqual(withoutRefused(['--expose-gc', '--no-warnings', '--stack-size', '900', '--conditions=x'], message), [
    '--no-warnings',
    '--conditions=x',
  ]);
  assert.equal(withoutRefused(['--no-warnings'], message), null, 'nothing to drop: the error stands');
});

test('soak() in a host with --expose-gc completes; any rejection of soak() is a SoakError with an exitCode', async () => {
  const index = JSON.stringify(pathToFileURL(join(ROOT, 'src', 'index.js')).href);
  const code = `const { soak } = await import(${index});
  const s = await soak({ module: ${JSON.stringify(clean)}, call: 'step', iterations: 2000 });
  const e = await soak({ module: ${JSON.stringify(clean)}, call: 'step', iterations: 2000, signal: 42 }).catch((err) => err);
  console.log(JSON.stringify({ status: s.status, name: e.constructor.name, exitCode: e.exitCode, code: e.code }));`;
  const r = await runCli(['--input-type=module', '-e', code], { cli: '--expose-gc' });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout.trim()), {
    status: 'completed',
    name: 'SoakError',
    // A signal that is no AbortSignal is an input error naming the field (issue 31), not an internal one.
    exitCode: 2,
    code: 'WS_EUSAGE',
  });
});

// ---- 10: a shared memory ----

test('a raw module with a shared memory runs: the loop reads its SharedArrayBuffer', async () => {
  const { r, s } = await run(moduleFile('shared', SHARED), ['-n', '3000', '-q', '--fail-on', 'none']);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /Node-API call failed/);
  assert.equal(s.status, 'completed');
  assert.equal(s.memory.start, 65536);
});

// ---- 11: a baseline.json with wrong types ----

test('a baseline.json with wrong types: exit 2 naming the field and the file', async () => {
  const base = join(tempDir(), 'base');
  mkdirSync(base);
  const saved = await run(clean, ['--call', 'step', '-n', '2000', '-q', '--save-baseline', `${base}/`]);
  // A clean run is never a finding (at most inconclusive on time, exit 0).
  assert.equal(saved.r.code, 0, saved.r.stderr);
  const file = join(base, 'baseline.json');
  const record = JSON.parse(readFileSync(file, 'utf8'));
  for (const [change, field] of [
    [(b) => Object.assign(b, { seed: 'abc' }), /"seed": it must be an integer .* got "abc"/],
    [(b) => Object.assign(b, { config: { ...b.config, iterations: -1 } }), /"config\.iterations": .* got -1/],
    [(b) => delete b.time, /"time": it must be an object, got missing/],
  ]) {
    const broken = structuredClone(record);
    change(broken);
    writeFileSync(file, JSON.stringify(broken));
    const { r } = await run(clean, ['--call', 'step', '-q', '--baseline', `${base}/`]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, field);
    assert.ok(r.stderr.includes(file), r.stderr);
    assert.doesNotMatch(r.stderr, /Node-API/);
  }
});

// ---- 12, 13: the module exits or traps on its own ----

test('WASI proc_exit(5) inside a call: "the module called proc_exit(5) in iteration 30", exit 3', async () => {
  const { r, s } = await run(testModule('proc-exit'), ['-n', '100', '-q']);
  assert.equal(r.code, 3, r.stderr);
  assert.equal(s.error.message, 'the module called proc_exit(5) in iteration 30');
  assert.equal(s.error.code, 'WS_EPROCEXIT');
  assert.equal(s.error.iteration, 30);
  assert.doesNotMatch(r.stderr, /Symbol/);
});

test('a raw module whose start function traps: the start function is named, no scenario blamed, exit 3', async () => {
  const { r, s } = await run(testModule('start-traps'), ['-n', '100']);
  assert.equal(r.code, 3, r.stderr);
  assert.match(
    r.stderr,
    /start-traps: the module could not be instantiated: its start function \(function 0\) trapped: unreachable, before any call/,
  );
  assert.doesNotMatch(r.stderr, /scenario/);
  assert.equal(s.error.phase, 'setup');
});

// ---- 14, 15, 18: what a scenario throws ----

test('an Error subclass thrown by a scenario: the terminal shows its name, message and stack', async () => {
  const { r, s } = await run(scenario('throws-value'), ['-n', '100'], { env: { WASM_SOAK_TEST_THROW: 'subclass' } });
  assert.equal(r.code, 3, r.stderr);
  assert.match(
    r.stdout,
    /error at iteration 10 \(op iteration\): ParseError: unexpected token\n {4}at .*throws-value\.mjs:\d+/,
  );
  assert.doesNotMatch(r.stdout, /src\/worker\/worker\.js/, "wasm-soak's own frames are left out");
  assert.equal(s.error.name, 'ParseError');
});

test("a Rust-shaped panic's trap: terminal, summary.md and report.html show where it panicked first", async () => {
  const { r, out } = await run(testModule('panic-trap'), ['--call', 'step', '-n', '1000', '--format', 'md,html']);
  assert.equal(r.code, 3, r.stderr);
  const where = 'at png::decoder::Reader::next_frame::h1f00 (wasm://';
  assert.ok(r.stdout.includes(`RuntimeError: unreachable\n    ${where}`), r.stdout);
  const md = readFileSync(join(out, 'summary.md'), 'utf8');
  assert.match(md, /Where it failed: the target's innermost frames[^\n]*:\n\n```\nat png::decoder::Reader::next_frame/);
  const html = readFileSync(join(out, 'report.html'), 'utf8');
  const frames = html.match(/<div id="error-frames">[\s\S]*?<\/div>/)?.[0] ?? '';
  assert.match(frames, /<pre>at png::decoder::Reader::next_frame::h1f00 [^\n]*\nat decode /);
  for (const text of [r.stdout, frames]) assert.doesNotMatch(text, /rust_panic|core::panicking|unwrap_failed/);
  // The raw target's argument trampoline is wasm-soak's: no frame of the target.
  assert.match(readSummary(out).error.stack, /at wasm-soak:trampoline \(wasm:/);
  assert.equal(frames.match(/\nat /g)?.length, 1, 'two frames: the parser and decode');
});

test('an unhandled rejection at iteration 200 is named, with the iterations that can have made it', async () => {
  const { r, s } = await run(scenario('unhandled-rejection'), ['-n', '100000', '-q']);
  assert.equal(r.code, 3, r.stderr);
  assert.equal(s.error.code, 'WS_EREJECTION');
  assert.equal(s.error.phase, 'iteration');
  const m = s.error.message.match(
    /^an unhandled rejection \(a promise rejected with nothing to handle it: Error: unhandled rej\) made by (?:iteration (\d+)|one of iterations (\d+)–(\d+))/,
  );
  assert.ok(m, s.error.message);
  const [from, to] = m[1] ? [+m[1], +m[1]] : [+m[2], +m[3]];
  assert.ok(from <= 200 && 200 <= to, `${from}–${to}`);
  assert.equal(s.error.iteration, to);
  assert.doesNotMatch(s.error.message, /the worker died/);
});

test("a thrown Proxy whose traps throw: reported in the iteration's phase", async () => {
  const { r, s } = await run(scenario('throws-proxy'), ['-n', '100', '-q']);
  assert.equal(r.code, 3, r.stderr);
  assert.equal(s.error.phase, 'iteration');
  assert.equal(s.error.iteration, 10);
  assert.match(s.error.message, /threw a value that cannot be described \(reading it threw trap; not an Error/);
});

// ---- 16, 17: modules with nothing to soak, or a feature the engine lacks ----

test('a module with no function exports: "exports no function", exit 2', async () => {
  const { r } = await run(testModule('no-exports'), []);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /no-exports\.wasm exports no function, so there is nothing to soak/);
  assert.doesNotMatch(r.stderr, /ambiguous/);
});

test('a multi-memory or memory64 module: the feature is named, not a truncated download', async () => {
  for (const [hex, feature] of [
    [MULTI_MEMORY, /uses multiple memories \(2: the multi-memory proposal\), which the engine of this Node/],
    [MEMORY64, /uses a 64-bit memory \(the memory64 proposal\), which the engine of this Node/],
  ]) {
    const { r } = await run(moduleFile('feature', hex), []);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, feature);
    assert.doesNotMatch(r.stderr, /truncated download/);
  }
});

// ---- 19: stats() values that are no byte counts ----

test('stats() returning a string, NaN, Infinity or 1e308: warned once, dropped from the series', async () => {
  const { r, out } = await run(scenario('stats-garbage'), ['-n', '3000', '--slow-every', '100', '--fail-on', 'none']);
  assert.equal(r.code, 0, r.stderr);
  const warnings = r.stderr.match(/stats\(\) returned liveBytes .* which is no byte count/g) ?? [];
  assert.equal(warnings.length, 1, r.stderr);
  const data = decodeLog(join(out, 'samples.wslog'));
  assert.equal(data.metrics.liveBytes?.value.length ?? 0, 0, 'no liveBytes sample kept');
  const heap = data.metrics.heapBytes.value;
  assert.ok(heap.length > 0 && heap.every((v) => v === 65536), 'the usable heapBytes are kept');
});

// ---- 20, 21: suite and log input ----

test('a suite target with "iterations": -5 is refused as a bad --iterations, exit 2', async () => {
  const dir = tempDir();
  const suite = join(dir, 'suite.json');
  writeFileSync(suite, JSON.stringify({ targets: [{ name: 'c', module: clean, call: 'step', iterations: -5 }] }));
  const r = await runCli(['soak', suite, '-o', join(dir, 'out'), '-q']);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /target "c" of .*suite\.json: --iterations must be an integer from 1 to \d+, got "-5"/);
  assert.doesNotMatch(r.stderr, /ambiguous/);
});

test('report on a log truncated inside its header says it is truncated, exit 2', async () => {
  const { out } = await run(clean, ['--call', 'step', '-n', '1000', '-q', '--fail-on', 'none']);
  const log = readFileSync(join(out, 'samples.wslog'));
  for (const [bytes, where] of [
    [100, /is truncated: it ends at byte 100, inside its header \(bytes 16 to \d+\)/],
    [10, /is truncated: it ends at byte 10, inside its 16-byte preamble/],
  ]) {
    writeFileSync(join(out, 'samples.wslog'), log.subarray(0, bytes));
    const r = await runCli(['report', out, ...TEXT]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, where);
    assert.doesNotMatch(r.stderr, /is not a wasm-soak sample log/);
  }
});

// ---- 24: soak -q, and Node's WASI warning ----

test('soak -q prints no per-target line; soak and merge print no WASI ExperimentalWarning', async () => {
  const dir = tempDir();
  const suite = join(dir, 'suite.json');
  const targets = ['a', 'b'].map((name) => ({ name, module: clean, call: 'step', iterations: 2000 }));
  writeFileSync(suite, JSON.stringify({ targets }));
  const quiet = await runCli(['soak', suite, '-o', join(dir, 'all'), '-q', '--fail-on', 'none', ...TEXT]);
  assert.equal(quiet.code, 0, quiet.stderr);
  assert.equal(quiet.stdout, '');
  assert.doesNotMatch(quiet.stderr, /ExperimentalWarning/);
  const shards = [];
  for (const k of [1, 2]) {
    const out = join(dir, `shard${k}`);
    const r = await runCli(['soak', suite, '--shard', `${k}/2`, '-o', out, '--fail-on', 'none', ...TEXT]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /completed/, 'without -q the per-target line is printed');
    assert.doesNotMatch(r.stderr, /ExperimentalWarning/);
    shards.push(out);
  }
  const merged = await runCli(['merge', ...shards, '-o', join(dir, 'merged')]);
  assert.equal(merged.code, 0, merged.stderr);
  assert.doesNotMatch(merged.stderr, /ExperimentalWarning/);
});

// ---- 27: a compare block that never ends ----

test('a compare block that never ends: --block-timeout names the arm and round, exit 3', async () => {
  const hang = testModule('hang');
  const out = tempDir();
  // spin hangs from its call 2000: in round 4 of 500-call blocks; no --call-timeout to end it first.
  const r = await runCli([
    'compare',
    hang,
    hang,
    '--call',
    'spin',
    '--blocks',
    '4',
    '--block-calls',
    '500',
    '--call-timeout',
    '0',
    '--block-timeout',
    '3s',
    '--fail-if-slower',
    'none',
    '-q',
    '-o',
    out,
    ...TEXT,
  ]);
  assert.equal(r.code, 3, r.stderr);
  assert.match(
    r.stderr,
    /compare: arm A \(hang\.wasm\) failed: hung block: arm A did not finish its block of round 4 within 3 s \(--block-timeout\)/,
  );
  assert.equal(readSummary(join(out, 'A')).error.code, 'WS_EHUNG');
});
