// The option schema as a unit: every option is declared once for known
// commands, values are parsed and checked before anything runs, a command
// refuses another command's options, the defaults and the help come from the
// schema. End-to-end checks of the same rules through the CLI are in
// cli.test.js.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { commandHelp, globalHelp } from '../../../src/cli/help.js';
import { parseCommand } from '../../../src/library/parse-command.js';
import { REPORT_FORMATS } from '../../../src/options/formats.js';
import { COMMANDS, DEFAULTS, OPTIONS, optionsOf, runConfig } from '../../../src/options/schema.js';
import { closest } from '../../../src/options/suggest.js';
import { FINDING_KINDS } from '../../../src/protocol.js';
import { VERSION } from '../../../src/version.js';

const parse = (command, ...argv) => parseCommand(command, argv).values;
const usage = (pattern) => (err) => err.exitCode === 2 && pattern.test(err.message);

test('every option is declared once, for known commands, with help for each of them', () => {
  const commands = Object.keys(COMMANDS);
  assert.deepEqual(commands, ['init', 'run', 'soak', 'compare', 'report', 'merge', 'export']);
  const unique = (list) => assert.equal(new Set(list).size, list.length, `duplicates in ${list}`);
  unique(OPTIONS.map((o) => o.name));
  unique(OPTIONS.map((o) => o.key));
  unique(OPTIONS.filter((o) => o.short).map((o) => o.short));
  for (const o of OPTIONS) {
    assert.ok(o.commands.length > 0, `--${o.name} belongs to a command`);
    for (const c of o.commands) {
      assert.ok(commands.includes(c), `--${o.name}: unknown command ${c}`);
      const help = typeof o.help === 'string' ? o.help : o.help[c];
      assert.ok(help, `--${o.name} has help for ${c}`);
    }
    if (o.value) assert.equal(typeof o.parse, 'function', `--${o.name} has a value parser`);
    else assert.equal(o.default, false, `boolean --${o.name} is off by default`);
  }
  for (const c of commands)
    assert.ok(
      optionsOf(c).some((o) => o.name === 'help'),
      `${c} takes --help`,
    );
});

test('the defaults are the schema’s, and runConfig starts from them', () => {
  assert.equal(DEFAULTS.iterations, 20000);
  assert.equal(DEFAULTS.durationMs, null);
  assert.equal(DEFAULTS.warmup, 'auto');
  assert.equal(DEFAULTS.timeThreshold, 0.1);
  assert.deepEqual(DEFAULTS.failOn, FINDING_KINDS);
  assert.deepEqual(DEFAULTS.formats, REPORT_FORMATS);
  assert.equal(DEFAULTS.ringRecords, 262144);
  assert.deepEqual([DEFAULTS.slowEvery, DEFAULTS.slowMs, DEFAULTS.yieldEvery, DEFAULTS.yieldMs], [1000, 1000, 1000, 2]);
  const cfg = runConfig(parse('run', 'm.wasm'));
  for (const key of ['iterations', 'durationMs', 'warmup', 'timeThreshold', 'failOn', 'formats', 'ringRecords'])
    assert.deepEqual(cfg[key], DEFAULTS[key], key);
  assert.ok(Number.isInteger(cfg.seed), 'a seed is drawn when none is given');
  assert.equal(cfg.yieldFloorMs, 0.5, 'the default yield cadence has its floor');
  assert.equal(runConfig(parse('run', 'm.wasm', '--yield-every', '10')).yieldFloorMs, 0, 'a given one has none');
  assert.deepEqual(cfg.budgets, { allocs: null, bytes: null });
  assert.equal(cfg.countAllocs, false);
  assert.equal(runConfig(parse('run', 'm.wasm', '--max-bytes-per-call', '64')).countAllocs, true, 'budgets count');
  assert.equal(cfg.help, undefined, 'no command-line flag leaks into the run configuration');
  assert.equal(cfg.blockContents, true, 'run shows what leaked blocks hold');
  assert.equal(runConfig(parse('run', 'm.wasm', '--no-block-contents')).blockContents, false);
  assert.equal('noBlockContents' in cfg, false, 'the negating flag is resolved into blockContents');
});

test('the -n default applies only when neither -n nor --duration is given', () => {
  assert.equal(runConfig(parse('run', 'm.wasm')).iterations, 20000);
  const timed = runConfig(parse('run', 'm.wasm', '--duration', '30m'));
  assert.equal(timed.iterations, null, '--duration alone runs until it runs out');
  assert.equal(timed.durationMs, 1800000);
  const both = runConfig(parse('run', 'm.wasm', '--duration', '30m', '-n', '500'));
  assert.deepEqual([both.iterations, both.durationMs], [500, 1800000], 'both: whichever comes first');
  assert.equal(runConfig(parse('run', 'm.wasm', '--duration', '1s', '--warmup', '100000')).warmup, 100000);
});

test('values are parsed into the configuration’s types', () => {
  const v = parse(
    'run',
    'm.wasm',
    '-n',
    '500',
    '--duration',
    '1500ms',
    '--call',
    'parse:5,reset',
    '--args',
    'parse=buf:1..8',
    '--args',
    '7',
    '--fail-on',
    'leak,slowdown',
    '--format',
    'html,md',
    '--warmup',
    '100',
    '--time-threshold',
    '0.25',
    '--alloc',
    'a,f',
    '-q',
  );
  assert.equal(v.iterations, 500);
  assert.equal(v.durationMs, 1500);
  assert.deepEqual(v.calls, [
    { name: 'parse', weight: 5 },
    { name: 'reset', weight: 1 },
  ]);
  assert.deepEqual(v.args, [
    { op: 'parse', sources: [{ kind: 'buf', lo: 1, hi: 8 }] },
    { op: null, sources: [{ kind: 'const', lo: 7, hi: 7 }] },
  ]);
  assert.deepEqual(v.failOn, ['leak', 'slowdown']);
  assert.deepEqual(v.formats, ['html', 'md']);
  assert.equal(v.warmup, 100);
  assert.equal(v.timeThreshold, 0.25);
  assert.deepEqual(v.alloc, { malloc: 'a', free: 'f' });
  assert.equal(v.quiet, true);
  assert.equal(parse('run', 'm.wasm', '--duration', '2h').durationMs, 7200000);
  assert.equal(
    parse('run', 'm.wasm', '-n', '9007199254740991').iterations,
    2 ** 53 - 1,
    '-n past 2^32, up to 2^53 - 1',
  );
  assert.deepEqual(parse('report', 'dir', '--fail-on', 'none').failOn, []);
  assert.equal(parse('report', 'dir', '--warmup', 'auto').warmup, 'auto');
});

const badValues = [
  [['--iterations', 'lots'], /--iterations must be an integer/],
  [['-n', '0'], /--iterations must be an integer from 1/],
  [['-n', '9007199254740992'], /--iterations must be an integer from 1/],
  [['--duration', 'soon'], /--duration must look like/],
  [['--duration', '0'], /--duration must be longer than 0/],
  [['--duration', '0ms'], /--duration must be longer than 0/],
  [['--format', 'bogus'], /--format has unknown formats: "bogus"/],
  [['--format', 'html,'], /--format has unknown formats: ""/],
  [['--warmup', 'abc'], /--warmup must be a whole number or auto/],
  [['--time-threshold', 'abc'], /--time-threshold must be a fraction/],
  [['--time-threshold', '0'], /--time-threshold must be a fraction/],
  [['--fail-on', 'bogus'], /--fail-on names an unknown finding kind "bogus"/],
  [['--ring-records', '1000'], /--ring-records must be a power of two/],
  [['--ring-records', '8'], /--ring-records must be an integer from 16/],
  [['--call', 'a:0'], /--call has a malformed entry/],
  [['--args', 'nope'], /--args has an unknown parameter source "nope"/],
  [['--alloc', 'malloc'], /--alloc must name an allocator and its free function/],
  [['--max-allocs-per-call', 'x'], /--max-allocs-per-call has a malformed entry/],
  [['--seed', '-1'], /argument is ambiguous|--seed must be an integer/],
];

test('bad values are usage errors that name the option', () => {
  for (const [argv, message] of badValues) {
    assert.throws(() => parseCommand('run', ['m.wasm', ...argv]), usage(message), argv.join(' '));
  }
});

test('report parses --warmup, --fail-on, --time-threshold and --format with the run’s parsers', () => {
  for (const [argv, message] of badValues.filter(([a]) =>
    ['--warmup', '--fail-on', '--time-threshold', '--format'].includes(a[0]),
  )) {
    assert.throws(() => parseCommand('report', ['dir', ...argv]), usage(message), argv.join(' '));
  }
});

test('a command refuses an option it does not take, naming both', () => {
  const cases = [
    ['report', ['dir', '--iterations', '5'], /report does not take --iterations; it is an option of run, soak/],
    ['export', ['dir', '--csv', '--iterations', '5'], /export does not take --iterations/],
    ['export', ['dir', '--csv', '-q'], /export does not take --quiet/],
    ['run', ['m.wasm', '--csv'], /run does not take --csv; it is an option of export/],
    ['run', ['m.wasm', '--expect'], /run does not take --expect; it is an option of soak/],
    ['soak', ['--json'], /soak does not take --json; it is an option of run/],
  ];
  for (const [command, argv, message] of cases) {
    assert.throws(
      () => parseCommand(command, argv),
      (err) => usage(message)(err) && err.fix.includes(`wasm-soak help ${command}`),
      `${command} ${argv.join(' ')}`,
    );
  }
  assert.throws(() => parseCommand('run', ['m.wasm', '--frobnicate']), usage(/Unknown option '--frobnicate'/));
});

test('operands are counted; --help needs none and wins', () => {
  assert.throws(() => parseCommand('run', []), usage(/run needs a target/));
  assert.throws(() => parseCommand('run', ['a.wasm', 'b.wasm']), usage(/run takes one target, got 2: a.wasm b.wasm/));
  assert.throws(() => parseCommand('soak', ['a.json', 'b.json']), usage(/soak takes at most one suite file/));
  assert.throws(() => parseCommand('report', []), usage(/report needs a result folder/));
  assert.deepEqual(parseCommand('soak', []).positionals, []);
  assert.deepEqual(parse('run', '-h'), { help: true });
  assert.deepEqual(parse('export', '-h', '--iterations', 'x'), { help: true }, 'help wins over what it explains');
});

test('per-op --args must name one of the --call ops', () => {
  assert.throws(
    () => runConfig(parse('run', 'm.wasm', '--call', 'step', '--args', 'nosuch=iter')),
    usage(/--args nosuch=… names the op "nosuch", which is not among the --call ops \(step\)/),
  );
  const cfg = runConfig(parse('run', 'm.wasm', '--call', 'parse,reset', '--args', 'parse=buf:1..8'));
  assert.equal(cfg.args[0].op, 'parse');
  // Without --call the raw target chooses the op and checks it (cli.test.js).
  assert.equal(runConfig(parse('run', 'm.wasm', '--args', 'nosuch=iter')).args[0].op, 'nosuch');
});

test('a warm-up that leaves nothing to measure is refused', () => {
  assert.throws(() => runConfig(parse('run', 'm.wasm', '-n', '100', '--warmup', '100')), usage(/leaves no iterations/));
});

test('given options come back in a form that parses to the same values (soak passes them on)', () => {
  const argv = ['--format', 'md', '-n', '300', '--args=-5', '-q', '--out', 'x', '--expect', '--seed=4'];
  const { given, values } = parseCommand('soak', argv);
  assert.deepEqual(
    given.map((g) => g.name),
    ['format', 'iterations', 'args', 'quiet', 'out', 'expect', 'seed'],
  );
  const passed = given.filter((g) => g.name !== 'out' && g.name !== 'expect').flatMap((g) => g.argv);
  const again = parseCommand('run', ['m.wasm', ...passed]).values;
  const { out, expect, ...shared } = values;
  assert.deepEqual(again, shared);
});

test('each command’s help lists exactly the options it takes', () => {
  for (const command of Object.keys(COMMANDS)) {
    const help = commandHelp(command);
    // The usage line, wrapped at 80 columns.
    const unwrapped = help.replace(/\n {9}/g, ' ');
    assert.ok(unwrapped.startsWith(`Usage: ${COMMANDS[command].usage}`), command);
    for (const o of OPTIONS) {
      const listed = new RegExp(`^  (-\\w, )?--${o.name}\\b`, 'm').test(help);
      assert.equal(listed, o.commands.includes(command), `${command} help and --${o.name}`);
    }
  }
  assert.match(
    commandHelp('run'),
    /-n, --iterations N +iterations;[^(]*\(default 20000 when --duration is\s+not given\)/,
  );
  const global = globalHelp();
  for (const c of Object.values(COMMANDS)) assert.ok(global.replace(/\n {13}/g, ' ').includes(c.usage), c.usage);
  assert.match(global, /wasm-soak help <command>/);
});

test('the version is package.json’s', () => {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
  assert.equal(VERSION, pkg.version);
});

test('help fits 80 columns: the global help and every command’s', () => {
  for (const [what, text] of [['--help', globalHelp()], ...Object.keys(COMMANDS).map((c) => [c, commandHelp(c)])]) {
    for (const line of text.split('\n'))
      assert.ok([...line].length <= 80, `${what}: ${[...line].length} columns: ${line}`);
  }
});

test('did you mean: a mistyped command or option names the near one', () => {
  assert.equal(closest('rn', Object.keys(COMMANDS)), 'run');
  assert.equal(closest('comprae', Object.keys(COMMANDS)), 'compare');
  assert.equal(closest('frobnicate', Object.keys(COMMANDS)), null);
  assert.throws(() => parseCommand('run', ['m.wasm', '--iteration', '5']), usage(/Did you mean --iterations\?/));
  assert.throws(
    () => parseCommand('run', ['m.wasm', '--seeds=5']),
    usage(/Unknown option '--seeds'. Did you mean --seed\?/),
  );
  assert.throws(
    () => parseCommand('run', ['m.wasm', '--frobnicate']),
    (err) => !/Did you mean/.test(err.message),
  );
});
