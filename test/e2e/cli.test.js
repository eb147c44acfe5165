// The command line end to end: every bad input exits 2 with the problem and
// the fix before any work starts (no result folder is written, and each run
// asks for billions of iterations, so a check that came after the start
// would never return), per-command help that runs nothing, and `soak`
// passing its options to every target.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { COMMANDS } from '../../src/options/schema.js';
import { fixture, readSummary, runCli, tempDir } from '../helpers.js';

const mod = (name) => fixture('soak', 'modules', `${name}.wasm`);
const FOREVER = ['-n', '4000000000'];
// A safety net only: a passing case returns as soon as the CLI has parsed.
const LIMIT = { timeout: 120000 };

const dirs = [];
function scratch() {
  const d = tempDir('wasm-soak-cli-');
  dirs.push(d);
  return d;
}
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A suite file in a fresh folder; returns { suite, out } (out does not exist yet). */
function suiteOf(targets) {
  const dir = scratch();
  const suite = join(dir, 'suite.json');
  writeFileSync(suite, JSON.stringify({ targets: targets.map((t) => ({ ...t, module: mod(t.module) })) }));
  return { suite, out: join(dir, 'out') };
}

const badInputs = [
  [
    'run --format bogus',
    (out) => ['run', mod('clean'), '--call', 'step', '--format', 'bogus', '-o', out],
    /--format has unknown formats: "bogus"[\s\S]*Use a comma-separated list of png, svg, html, md, junit/,
  ],
  [
    'run --duration 0',
    (out) => ['run', mod('clean'), '--call', 'step', '--duration', '0', '-o', out],
    /--duration must be longer than 0[\s\S]*Leave --duration out/,
  ],
  [
    'run --args for an op not in --call',
    (out) => ['run', mod('clean'), '--call', 'step', '--args', 'nosuch=iter', '-o', out],
    /names the op "nosuch", which is not among the --call ops \(step\)/,
  ],
  [
    'run --warmup abc',
    (out) => ['run', mod('clean'), '--call', 'step', '--warmup', 'abc', '-o', out],
    /--warmup must be a whole number or auto/,
  ],
  [
    'run with an option of export',
    (out) => ['run', mod('clean'), '--call', 'step', '--csv', '-o', out],
    /run does not take --csv; it is an option of export[\s\S]*wasm-soak help run/,
  ],
  ['report --warmup abc', (out) => ['report', out, '--warmup', 'abc'], /--warmup must be a whole number or auto/],
  [
    'report --fail-on bogus',
    (out) => ['report', out, '--fail-on', 'bogus'],
    /--fail-on names an unknown finding kind "bogus"/,
  ],
  [
    'report --time-threshold abc',
    (out) => ['report', out, '--time-threshold', 'abc'],
    /--time-threshold must be a fraction/,
  ],
  ['report --format bogus', (out) => ['report', out, '--format', 'bogus'], /--format has unknown formats/],
  [
    'report with a run option',
    (out) => ['report', out, '--iterations', '5'],
    /report does not take --iterations[\s\S]*wasm-soak help report/,
  ],
  [
    'export with a run option',
    (out) => ['export', out, '--csv', '--iterations', '5'],
    /export does not take --iterations/,
  ],
  ['export without --csv, --pprof or --dhat', (out) => ['export', out], /export needs --csv, --pprof or --dhat/],
  [
    'soak with an option of run only',
    (out) => ['soak', suiteOf([{ name: 'clean', module: 'clean', call: 'step' }]).suite, '--json', '-o', out],
    /soak does not take --json/,
  ],
];

for (const [what, argsOf, message] of badInputs) {
  test(`exit 2 before any work: ${what}`, LIMIT, async () => {
    const out = join(scratch(), 'out');
    const args = argsOf(out);
    const r = await runCli(args[0] === 'run' ? [...args, ...FOREVER] : args);
    assert.equal(r.code, 2, `stderr: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.doesNotMatch(r.stderr, /internal error| {4}at /, 'a paragraph, not a stack trace');
    assert.ok(!existsSync(out), 'no result folder');
  });
}

test('exit 2 for --args naming an op other than the one a raw module is soaked through', LIMIT, async () => {
  // Without --call the worker chooses the op (the module's only export), so
  // the check runs there, after the result folder is made (issue 12 keeps
  // usage errors from leaving it).
  const r = await runCli(['run', mod('pattern'), '--args', 'nosuch=iter', '-o', join(scratch(), 'out'), ...FOREVER]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /--args nosuch=… names the op "nosuch", but the op soaked in .*pattern\.wasm is step/);
  assert.match(r.stderr, /--call nosuch/);
});

test('a bad entry anywhere in a suite stops it before its first target runs', LIMIT, async () => {
  const { suite, out } = suiteOf([
    { name: 'first', module: 'clean', call: 'step' },
    { name: 'second', module: 'clean', call: 'step', args: ['nosuch=iter'] },
  ]);
  const r = await runCli(['soak', suite, '-o', out, ...FOREVER]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /target "second" of .*suite\.json: --args nosuch=… names the op "nosuch"/);
  assert.ok(!existsSync(out), 'the first target did not run');
});

test(
  'a suite whose "expect" or "args" nests lists 6 000 deep: exit 2 naming the target and the key, before any run',
  LIMIT,
  async () => {
    const deep = `${'['.repeat(6000)}${']'.repeat(6000)}`;
    for (const key of ['expect', 'args']) {
      const { suite, out } = suiteOf([{ name: 'deep', module: 'clean', call: 'step', [key]: 'DEEP' }]);
      // Written as text: JSON.stringify itself runs out of stack on it.
      writeFileSync(suite, readFileSync(suite, 'utf8').replace('"DEEP"', deep));
      const r = await runCli(['soak', suite, '-o', out, ...FOREVER]);
      assert.equal(r.code, 2, `${key}: ${r.stderr}`);
      assert.match(r.stderr, new RegExp(`target 1 \\("deep"\\) of .*suite\\.json: its "${key}" must be `));
      assert.doesNotMatch(r.stderr, /internal error/);
      assert.ok(!existsSync(out), 'nothing ran');
    }
  },
);

test('a suite file that starts with a UTF-8 byte order mark is read', LIMIT, async () => {
  const { suite, out } = suiteOf([{ name: 'bom', module: 'clean', call: 'step' }]);
  writeFileSync(suite, `\uFEFF${readFileSync(suite, 'utf8')}`);
  const r = await runCli(['soak', suite, '-n', '300', '--fail-on', 'none', '--format', 'md', '-q', '-o', out]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readSummary(join(out, 'bom')).iterations.completed, 300);
});

const helps = [
  ['help run', ['help', 'run'], 'run'],
  ['run -h', ['run', '-h'], 'run'],
  ['soak -h', ['soak', '-h'], 'soak'],
  ['report -h', ['report', '-h'], 'report'],
  ['export -h', ['export', '-h'], 'export'],
  ['help soak', ['help', 'soak'], 'soak'],
];

for (const [what, args, command] of helps) {
  test(`${what} prints the help of ${command}`, async () => {
    const r = await runCli(args);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.startsWith(`Usage: ${COMMANDS[command].usage}\n`), r.stdout);
    assert.match(r.stdout, /\n {2}-h, --help +this help\n/);
  });
}

test('soak -h runs nothing, even with a suite and options', LIMIT, async () => {
  const { suite, out } = suiteOf([{ name: 'clean', module: 'clean', call: 'step' }]);
  const r = await runCli(['soak', suite, '-o', out, '-h', ...FOREVER]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^Usage: wasm-soak soak/);
  assert.ok(!existsSync(out), 'no target ran');
});

test('run -h lists the run options with their defaults', async () => {
  const r = await runCli(['run', '-h']);
  assert.match(r.stdout, /-n, --iterations N +iterations;[^(]*\(default 20000 when --duration is\s+not given\)/);
  assert.match(r.stdout, /--time-threshold F +smallest relative time drift worth a finding \(default\s+0\.1\)/);
  assert.doesNotMatch(r.stdout, /--csv|--expect/);
});

test('--help lists the commands, --version prints package.json’s version', async () => {
  const help = await runCli(['--help']);
  assert.equal(help.code, 0);
  // Usage lines wrap at 80 columns, continued 13 columns in.
  const unwrapped = help.stdout.replace(/\n {13}/g, ' ');
  for (const c of Object.values(COMMANDS)) assert.ok(unwrapped.includes(c.usage), c.usage);
  assert.match(help.stdout, /wasm-soak help <command>[\s\S]*Exit codes: 0 ok, 1 a finding, 2 usage or input error/);
  const version = await runCli(['--version']);
  assert.equal(version.code, 0);
  const pkg = JSON.parse(readFileSync(fixture('package.json'), 'utf8'));
  assert.equal(version.stdout, `${pkg.version}\n`);
  const unknown = await runCli(['help', 'frobnicate']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /Unknown command "frobnicate"/);
});

test('soak passes its options to every target and keeps --out as the root', LIMIT, async () => {
  const { suite, out } = suiteOf([
    { name: 'a', module: 'clean', call: 'step', iterations: 5000 },
    { name: 'b', module: 'leak', call: 'step' },
  ]);
  const r = await runCli(['soak', suite, '-n', '300', '--format', 'md', '--fail-on', 'none', '-q', '-o', out]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(readdirSync(out).sort(), [
    '.wasm-soak.result',
    'a',
    'b',
    'index.html',
    'junit.xml',
    'suite-result.json',
    'summary.md',
  ]);
  for (const name of ['a', 'b']) {
    const s = readSummary(join(out, name));
    assert.equal(s.iterations.completed, 300, `${name}: the suite-wide -n wins`);
    assert.ok(existsSync(join(out, name, 'summary.md')), `${name}: summary.md`);
    assert.ok(!existsSync(join(out, name, 'report.html')), `${name}: --format md only`);
  }
});
