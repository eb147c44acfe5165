// The option schema: every option of every command declared once, with its
// flag, value parser, default, help text and the commands that take it.
// The CLI resolves its arguments through parseCommand (src/library/parse-command.js), the library
// an options object through optionValues (values.js); the help is
// generated from the same table (help.js), and the defaults below are the
// only ones: an option cannot be accepted, documented or defaulted twice.
import { fileURLToPath } from 'node:url';
import { usageError } from '../errors.js';
import { describeRepeated, repeatedNames } from '../folder-names.js';
import { loadAddon, tryAddon } from '../native.js';
import { FILE_FORMATS, REPORT_FORMATS } from './formats.js';
import { parsePackage } from './package-spec.js';
import {
  findingKinds,
  integer,
  parseAlloc,
  parseArgSpec,
  parseArm,
  parseBaselineRef,
  parseBudget,
  parseCalls,
  parseDuration,
  parseFailOn,
  parseFormats,
  parseGate,
  parseShard,
  parseSize,
  parseTimeout,
  parseTimeThreshold,
  parseWarmup,
  powerOfTwo,
  tolerance,
} from './parsers.js';

/** The result folders' root when --out is not given. */
export const RESULTS_ROOT = 'soak-results';
/**
 * The cap of the library's in-memory log (soak() without out), in place of
 * --max-log-bytes' 2 GiB, which is sized for a disk: the log then lives in
 * the host process. 256 MiB keeps every call of a run up to about 4 M calls
 * (thinning starts at half the cap) and bounds what the host holds for any
 * longer one.
 */
export const MEMORY_LOG_BYTES = 256 * 1024 ** 2;
/**
 * The suite `soak` runs when given none: the examples shipped in the
 * package (soak/suite.json next to src/), wherever it is installed.
 */
export const EXAMPLE_SUITE = fileURLToPath(new URL('../../soak/suite.json', import.meta.url));

/**
 * The commands: usage line, one-line summary, what the help adds, and the
 * operands they take (name, min, max).
 */
export const COMMANDS = Object.freeze({
  init: {
    usage: 'wasm-soak init <package | glue.js | module.wasm> [-o scenario.mjs] | --ci <suite.json> [-o workflow.yml]',
    summary: 'write a scenario that loads a module the way its glue wants',
    about:
      "Recognises wasm-bindgen glue (--target nodejs, web, bundler), Emscripten MODULARIZE factories (embind, WebIDL), AssemblyScript modules and WASI reactors, or loads an npm package through its entry; writes a scenario (default <name>.soak.mjs) with one op that it ran 200 times and the module's API as commented calls. The module runs in a child process while init tries it. Exit 2 for what it cannot load, 3 when the module fails or no call works. With --ci and a suite file it writes the GitHub Actions workflow of a nightly soak of that suite instead (default .github/workflows/wasm-soak.yml).",
    operand: { name: 'package, glue or module', min: 1, max: 1 },
  },
  run: {
    usage: 'wasm-soak run <module.wasm | scenario.mjs> [options]',
    summary: 'soak one module or scenario',
    about: `Runs the target on a worker thread and writes its result folder (default ${RESULTS_ROOT}/<name>).`,
    operand: { name: 'target', min: 1, max: 1 },
  },
  soak: {
    usage: 'wasm-soak soak [suite.json] [--expect] [options]',
    summary: 'run every target of a suite (default: the shipped examples)',
    about:
      'Runs each target of the suite in turn; every option except --out and --expect applies to each target. Without a suite file it runs the examples shipped with wasm-soak (its soak/suite.json).',
    operand: { name: 'suite file', min: 0, max: 1 },
  },
  compare: {
    usage:
      'wasm-soak compare <A.wasm> <B.wasm|B.so> [C.wasm|C.so …] | <scenario.mjs> --arm A=a.wasm --arm B=b.wasm | <scenario.mjs> --package NAME@1.2.3 --package NAME@1.3.0 [options]',
    summary: 'compare builds in interleaved ABBA blocks',
    about:
      'Runs every module with the same --call/--args and seeded call sequence, each on its own instance, in serial rounds of one block per arm in ABBA order, then a counting pass per arm. Prints the stated confounds and a TL;DR table (time with a block-paired interval, allocations, high-water mark, sizes, verdicts) and writes compare.json, compare.md and compare.html (default soak-results/compare-<A>-<B>). Exit 1 on a regression of B (and later arms) against A beyond the gates. A native shared library built from the same source (B.so) is an arm too, run in a process of its own with A\'s signatures: per op the wasm ÷ native time ratio beside A\'s allocations per call, and whether the gap is in allocation-heavy code (docs/compare.md, "The native yardstick").',
    operand: { name: 'module', min: 1, max: 26 },
  },
  report: {
    usage: 'wasm-soak report <result-dir> [options]',
    summary: 're-analyse and re-plot a result folder',
    about:
      "Rewrites summary.json and the reports from the folder's log. --warmup, --time-threshold and --fail-on default to the run's values recorded in its log, else to the defaults below.",
    operand: { name: 'result folder', min: 1, max: 1 },
  },
  merge: {
    usage: 'wasm-soak merge <suite-results-dir>... [-o DIR]',
    summary: 'combine the result folders of suite shards',
    about:
      'Reads the suite-result.json of each folder (the --out of `wasm-soak soak`, one per --shard) and writes one junit.xml, index.html, summary.md and suite-result.json for the whole suite. Exit 0 when every target passed, 1 when one failed, 3 when one could not run.',
    operand: { name: 'result folder', min: 1, max: Infinity },
  },
  export: {
    usage: 'wasm-soak export <result-dir> --csv | --pprof | --dhat',
    summary: "the samples as CSV, the allocation sites as pprof or for DHAT's viewer",
    about:
      "Writes samples.csv (one row per call) and metrics.csv (the slow samples), sites.pb.gz (the allocation sites of a --sites run, for go tool pprof, speedscope or Pyroscope) or dhat.json (the same sites, for Valgrind's DHAT viewer, dh_view.html), into the result folder.",
    operand: { name: 'result folder', min: 1, max: 1 },
  },
});

// With the default yield cadence a very fast export would spend a tenth of
// its time turning the event loop, so the default comes with a floor (at
// most one yield per 0.5 ms); a cadence given explicitly is kept exactly.
const DEFAULT_YIELD_FLOOR_MS = 0.5;
// The longest default stretch between slow samples, in iterations.
const MAX_SLOW_EVERY = 1000;
// Slow samples a run gets by default: enough points for the trend tests of
// the sampled series (four per trend segment).
export const DEFAULT_SLOW_SAMPLES = 64;

// Two defaults are decided in C (ws_protocol.h): read from the addon when
// they are needed, so that the help and usage errors work without it.
const NO_ADDON = 'decided by the native addon, which is not built';

const RUN = ['run', 'soak'];
const ANALYSIS = ['run', 'soak', 'report'];
// What a compared arm takes as a run does.
const ARM = [...RUN, 'compare'];

/**
 * Every option, in the order the help lists them. name: the long flag;
 * short: the one-letter flag; value: the placeholder of a string option
 * (none: a boolean); type: the TypeScript type of its value in an options
 * object (soak()'s SoakOptions in src/index.d.ts, generated by
 * scripts/index-types.js; default string, boolean for a boolean option);
 * library: what that type's doc adds for soak();
 * parse(text, name): the value parser (parsers.js);
 * multiple: repeatable; key: the configuration key (default: the camelCase
 * name); default; shown: the default as the help says it, when the value
 * itself does not read well (or one per command); doc: what docs/cli.md
 * says of it (markdown; generated by scripts/cli-doc.js), else help; negates: the
 * boolean option this one turns off (its `no-` form; runConfig resolves
 * the pair); help: one line, or one per command; commands:
 * the commands that take it.
 */
export const OPTIONS = Object.freeze(
  [
    {
      name: 'call',
      type: 'string | string[]',
      doc: 'exports to call and their weights (raw modules)',
      value: 'NAME[:W],...',
      parse: parseCalls,
      key: 'calls',
      default: null,
      shown: 'the only function export',
      help: 'export(s) to call, with weights (raw modules)',
      commands: ARM,
    },
    {
      name: 'args',
      type: 'string | string[]',
      doc: "per-parameter sources: `iter` (iteration index), `random` or `random:LO..HI` (seeded), an integer, `buf:MIN..MAX` (a seeded random buffer of MIN..MAX bytes allocated through the module's allocator, passed as pointer and length, freed after the call); `op=SPEC` for one op, which must be one of the `--call` ops (or, without `--call`, the export soaked); repeatable",
      value: 'SPEC',
      parse: parseArgSpec,
      multiple: true,
      default: Object.freeze([]),
      shown: 'iter for every parameter',
      help: 'parameter sources: iter, random, random:LO..HI, buf:MIN..MAX (pointer and length via the module\'s allocator) or an integer; "op=SPEC" for one of the --call ops; repeatable',
      commands: ARM,
    },
    {
      name: 'alloc',
      doc: 'allocator exports for `buf`',
      value: 'ALLOC,FREE',
      parse: parseAlloc,
      default: null,
      shown: 'malloc,free or __wbindgen_malloc,__wbindgen_free',
      help: 'allocator exports for buf arguments',
      commands: ARM,
    },
    {
      name: 'iterations',
      type: 'number',
      doc: 'iterations, up to 9 007 199 254 740 991 (2^53 − 1: the loop counts in 64 bits)',
      short: 'n',
      value: 'N',
      parse: integer({ min: 1 }),
      default: 20000,
      shown: '20000 when --duration is not given',
      help: 'iterations; with --duration, whichever limit comes first',
      commands: RUN,
    },
    {
      name: 'duration',
      type: 'Duration',
      doc: 'run this long (`90s`, `30m`, `2h`; more than 0). Alone it runs until the time is up, however many calls that is (past 2^32 too: docs/log-format.md, "Iterations"); with `-n`, whichever limit comes first; the `-n` default applies only when neither is given',
      value: '30m',
      parse: parseDuration,
      key: 'durationMs',
      default: null,
      help: 'run this long (90s, 30m, 2h); without -n, until it runs out',
      commands: RUN,
    },
    {
      name: 'full-run',
      default: false,
      doc: 'run every planned call (or all of `--duration`) even once a leak is decided; by default a run whose leak is beyond doubt ends early (`stopReason` `decided`, `earlyStop` in summary.json; [docs/verdicts.md](verdicts.md), "Early stop"). A run without a leak is never shortened',
      help: 'run every planned call even once a leak is decided (by default a run whose leak is beyond doubt ends early)',
      commands: RUN,
    },
    {
      name: 'call-timeout',
      type: 'Duration',
      doc: 'a call, the promise it returns, `stats()` or `teardown()` running longer is a **hung call**: the worker is stopped, the call is recorded (iteration, op, elapsed time), exit 3; a call still running 1 s after `--duration` ran out is one too; on a machine loaded past its cores the limit stretches with the load per core (at most 16×), so a slow machine is not called hung; `0`: no limit',
      value: 'T',
      parse: parseTimeout,
      key: 'callTimeoutMs',
      default: 60_000,
      shown: '60s',
      help: 'a call (or the promise it returns, stats(), teardown()) running longer is a hung call: the worker is stopped, exit 3; 0: no limit',
      commands: ARM,
    },
    {
      name: 'setup-timeout',
      type: 'Duration',
      doc: "loading the target and the scenario's `setup()` may take this long, else exit 3; stretched like `--call-timeout` on a loaded machine; `0`: no limit",
      value: 'T',
      parse: parseTimeout,
      key: 'setupTimeoutMs',
      default: 60_000,
      shown: '60s',
      help: "loading the target and the scenario's setup() may take this long, else exit 3; 0: no limit",
      commands: ARM,
    },
    {
      name: 'seed',
      type: 'number',
      doc: 'seeds op choice, arguments and `ctx` helpers: the same seed replays the same sequence; an integer from 0 to 4294967295 (2^32 - 1, the range the seed generator keeps: a larger seed is refused, never folded onto a smaller one)',
      value: 'N',
      parse: integer({ max: 0xffffffff }),
      default: null,
      shown: 'random',
      help: 'seed of every random choice; printed, it reproduces a run',
      commands: ARM,
    },
    {
      name: 'out',
      doc: "result folder, this run's alone: locked before anything in it is moved or written (a folder another live run holds is exit 2, naming that run's pid and command); one that holds a previous result (its `summary.json` or `samples.wslog`) is kept: what it holds is moved aside to the first free `DIR.1`, `DIR.2`, … (the message names it), when wasm-soak made the folder (its marker `.wasm-soak.result`; one it did not make is exit 2, nothing moved); never the working folder or a parent of it (exit 2)",
      short: 'o',
      value: 'DIR',
      parse: (text) => text,
      default: null,
      shown: {
        run: `${RESULTS_ROOT}/<name>`,
        soak: RESULTS_ROOT,
        compare: `${RESULTS_ROOT}/compare-<A>-<B>`,
        merge: RESULTS_ROOT,
        init: '<name>.soak.mjs (--ci: .github/workflows/wasm-soak.yml)',
      },
      help: {
        run: 'result folder',
        soak: 'root of the result folders, one per target',
        compare: "the comparison's folder: compare.*, one folder per arm",
        merge: 'where the merged suite reports go',
        init: 'the scenario file (with --ci, the workflow) to write',
      },
      commands: [...ARM, 'merge', 'init'],
    },
    {
      name: 'ci',
      default: false,
      doc: 'write the GitHub Actions workflow of a nightly soak of the suite file given as the operand (default `.github/workflows/wasm-soak.yml`): the suite with `--expect` against last night\'s baselines (`--baseline nightly`, kept in the Actions cache; `--save-baseline nightly` for the next night), `summary.md` in the step summary, the result folders with `junit.xml` uploaded; a suite of several targets runs as a matrix of `--shard K/N` jobs (one per target, at most 4) and a `merge` job ([docs/suites.md](suites.md), "A nightly job")',
      help: 'write the GitHub Actions workflow of a nightly soak of the suite file given (a matrix of --shard jobs and a merge job for several targets)',
      commands: ['init'],
    },
    {
      name: 'force',
      doc: 'write over a previous result in `--out` instead of moving it aside',
      default: false,
      help: {
        run: 'write over a result folder that holds a previous result (without it, the previous one is moved aside to DIR.1, DIR.2, ...)',
        soak: 'write over a result root that holds a previous suite (without it, the previous one is moved aside to DIR.1, DIR.2, ...)',
        init: 'write over an existing scenario (or workflow) file',
      },
      commands: [...RUN, 'init'],
    },
    {
      name: 'count-allocs',
      doc: 'after the timed pass, a counting pass with the same seed and calls through an instrumented allocator (see [allocator.md](allocator.md))',
      default: false,
      help: 'add a counting pass: allocations and live bytes per call',
      commands: RUN,
    },
    {
      name: 'time-split',
      doc: "after the timed pass, a pass with the same seed and calls whose allocator calls are counted and a random sample of them stamped, and whose `memory.grow` and exports are stamped on entry and exit: where each op's time goes (the algorithm, the allocator, `memory.grow`, the JS glue), the allocator's share with an interval, ns per allocation by size class and per free, and advice worded from the numbers; then a pass with the allocator routed to a bump allocator in half of the calls, whose difference checks the allocator's cost where an op frees all it allocates; in summary.md, report.html and `summary.json` (`timeSplit`); the stamps' and the routing's own cost is measured in the same passes and taken off ([allocator.md](allocator.md), \"Where a call's time goes\")",
      default: false,
      help: "add a time-split pass: each op's time in the algorithm, the allocator, memory.grow and the JS glue",
      commands: RUN,
    },
    {
      name: 'sites',
      doc: "the counting pass also records each allocation's site (op and call stack) and ranks the sites whose live bytes grew; implies `--count-allocs`",
      default: false,
      help: 'add allocation sites to the counting pass: live bytes and allocations by call stack, ranked by growth (implies --count-allocs)',
      commands: RUN,
    },
    {
      name: 'symbols',
      doc: "function names for a stripped module's sites: the unstripped build, or an Emscripten symbol map; implies `--sites`",
      value: 'FILE',
      parse: (text) => text,
      default: null,
      help: "function names for a stripped module's sites: a build of it that keeps its names (the same function indices) or an Emscripten symbol map (index:name lines) (implies --sites)",
      commands: RUN,
    },
    {
      name: 'block-contents',
      default: false,
      shown: { run: 'on', soak: 'off' },
      doc: 'show what leaked blocks hold: the first 64 bytes, as hex and as text, of up to 4 blocks allocated after warm-up in the size classes that accumulate (heap census; no counting pass), under the leak or growth finding of report.html, `summary.json` (`blocks`), summary.md and stdout, and in `blocks.json` ([docs/allocator.md](allocator.md), "What leaked blocks hold"). `soak` leaves them out unless given it (a suite\'s result folders travel as CI artifacts, and the bytes are the module\'s memory)',
      help: 'show what leaked blocks hold: the first 64 bytes (hex and text) of up to 4 blocks allocated after warm-up in the size classes that accumulate (heap census), in the leak finding',
      commands: RUN,
    },
    {
      name: 'no-block-contents',
      negates: 'block-contents',
      default: false,
      doc: "leave what leaked blocks hold out of the reports (soak's default); with `--block-contents` too: exit 2",
      help: "leave the module's memory out of the reports: no leaked blocks' contents (soak's default: its result folders travel as CI artifacts)",
      commands: RUN,
    },
    {
      name: 'max-allocs-per-call',
      type: 'number | string',
      doc: 'exact budgets, `N`, `op=N,…` or both (`8,reset=0`); a call over budget is a finding naming the op and the iteration (exit 1); implies `--count-allocs`',
      value: 'B',
      parse: parseBudget,
      default: null,
      help: 'exact budget of allocations per call: N, op=N,... or both (implies --count-allocs)',
      commands: RUN,
    },
    {
      name: 'max-bytes-per-call',
      type: 'number | string',
      doc: 'exact budgets, `N`, `op=N,…` or both (`8,reset=0`); a call over budget is a finding naming the op and the iteration (exit 1); implies `--count-allocs`',
      value: 'B',
      parse: parseBudget,
      default: null,
      help: 'exact budget of bytes allocated per call, as --max-allocs-per-call',
      commands: RUN,
    },
    {
      name: 'warmup',
      type: "number | 'auto'",
      doc: 'iterations excluded from trend tests',
      value: 'N|auto',
      parse: parseWarmup,
      default: 'auto',
      help: 'warm-up iterations excluded from trends',
      commands: [...ANALYSIS, 'compare'],
    },
    {
      name: 'time-threshold',
      type: 'number',
      doc: 'smallest relative time drift worth a finding',
      value: 'F',
      parse: parseTimeThreshold,
      get default() {
        return loadAddon().constants.verdictDefaults.timeThreshold;
      },
      get shown() {
        return String(tryAddon()?.constants.verdictDefaults.timeThreshold ?? NO_ADDON);
      },
      fromAddon: true,
      help: 'smallest relative time drift worth a finding',
      commands: [...ANALYSIS, 'compare'],
    },
    {
      name: 'fail-on',
      type: "FindingKind[] | 'none' | string",
      doc: 'findings that make the exit code 1 (`none` for none); `inconclusive` (not in the default) also fails a run whose data could not decide',
      value: 'KINDS',
      parse: parseFailOn,
      get default() {
        return Object.freeze([...findingKinds()]);
      },
      shown: 'all',
      fromAddon: true,
      get help() {
        const kinds = tryAddon()?.constants.findingKinds;
        return `findings that exit 1: ${kinds ? kinds.join(', ') : 'a list of finding kinds'}, inconclusive (not by default), or none`;
      },
      commands: ANALYSIS,
    },
    {
      name: 'slow-every',
      type: 'number',
      doc: 'slow-sample cadence: RSS, worker JS heap, each memory, the heap census, `stats()`; the default gives the trend tests 64 points on any run (the census takes at least 16 of them whatever each walk costs)',
      value: 'N',
      parse: integer({ min: 1 }),
      default: MAX_SLOW_EVERY,
      shown: `-n / ${DEFAULT_SLOW_SAMPLES}, at most ${MAX_SLOW_EVERY}`,
      help: 'slow samples (RSS, JS heap, memories, heap census, stats()) every N iterations',
      commands: ARM,
    },
    {
      name: 'slow-ms',
      type: 'number',
      doc: 'slow-sample cadence: RSS, worker JS heap, each memory, the heap census, `stats()`; the default gives the trend tests 64 points on any run (the census takes at least 16 of them whatever each walk costs)',
      value: 'MS',
      parse: integer({ min: 1 }),
      default: 1000,
      help: 'and at least every MS milliseconds',
      commands: ARM,
    },
    {
      name: 'yield-every',
      type: 'number',
      doc: "how often the loop yields to the worker's event loop (the default cadence yields at most every 0.5 ms)",
      value: 'N',
      parse: integer({ min: 1 }),
      default: 1000,
      help: `yield to the event loop every N iterations; when not given, at most every ${DEFAULT_YIELD_FLOOR_MS} ms`,
      commands: ARM,
    },
    {
      name: 'yield-ms',
      type: 'number',
      doc: "how often the loop yields to the worker's event loop (the default cadence yields at most every 0.5 ms)",
      value: 'MS',
      parse: integer({ min: 1 }),
      default: 2,
      help: 'and at least every MS milliseconds',
      commands: ARM,
    },
    {
      name: 'ring-records',
      type: 'number',
      doc: 'ring size in 32-byte records (a power of two)',
      value: 'N',
      parse: powerOfTwo({ min: 16, max: 1 << 24 }),
      default: 1 << 18,
      help: 'ring size in 32-byte records (a power of two)',
      commands: ARM,
    },
    {
      name: 'max-log-bytes',
      type: 'number | string',
      library: `without \`out\` the log lives in the host's memory and the default is ${MEMORY_LOG_BYTES / 1024 ** 2} MiB (MEMORY_LOG_BYTES), which keeps every call of a run up to about 4 M calls`,
      doc: 'cap on the sample log (`512M`, `1G`, bytes; at least `1M`). Past about half of it the log is **thinned**: one call per block of iterations (a seeded choice), per-op summaries of every call (count, throws, growth events, min, median, max) and fewer slow samples; the verdicts and figures use one call per block over the whole run, the counts every call, and the log never passes the cap (docs/log-format.md, "Thinned logs"; `summary.json` `samples.thinning` says what was kept). A 2 h soak of a 100 ns export fits the default',
      value: 'SIZE',
      parse: parseSize,
      default: 2 * 1024 ** 3,
      shown: '2G',
      help: 'cap on the sample log (bytes, or with K, M, G: binary units); past about half of it the log is thinned, and it never passes it (docs/log-format.md, "Thinned logs")',
      commands: RUN,
    },
    {
      name: 'format',
      type: 'ReportFormat[]',
      doc: `reports to write, a comma-separated list of: ${FILE_FORMATS.map((f) => `\`${f.name}\`, ${f.writes}`).join('; ')}`,
      value: 'LIST',
      parse: parseFormats,
      key: 'formats',
      default: REPORT_FORMATS,
      help: 'reports to write',
      commands: [...ANALYSIS, 'compare'],
    },
    {
      name: 'plot-timeout',
      type: 'Duration',
      doc: 'a figure gnuplot has not drawn in this long is skipped with a message; the other reports are written; `0`: no limit',
      value: 'T',
      parse: parseTimeout,
      key: 'plotTimeoutMs',
      default: 60_000,
      shown: '60s',
      help: 'a figure gnuplot has not drawn in this long is skipped (the other reports are written); 0: no limit',
      commands: [...ANALYSIS, 'compare'],
    },
    {
      name: 'require-plots',
      doc: 'exit 3 when figures cannot be drawn',
      default: false,
      help: 'exit 3 when figures cannot be drawn',
      commands: ANALYSIS,
    },
    {
      name: 'json',
      doc: 'print `summary.json` on stdout (`run` only)',
      default: false,
      help: 'print summary.json on stdout',
      commands: ['run'],
    },
    {
      name: 'save-baseline',
      doc: 'store what a later `--baseline` needs (seed, time per call, exact counts, sizes, verdict) as `soak-results/baselines/NAME` in the working directory, not under `--out`, so that the next run finds it whatever its result folder (a folder when NAME has a slash; else one folder name, not `.` or `..`); `soak`: one per target, `NAME/<target>`',
      value: 'NAME',
      parse: parseBaselineRef,
      default: null,
      help: {
        run: 'store what a later --baseline needs (seed, time per call, counts, sizes, verdict) as soak-results/baselines/NAME, or in a folder when NAME has a slash',
        soak: 'as for run, one baseline per target: NAME/<target>',
      },
      commands: RUN,
    },
    {
      name: 'baseline',
      doc: 'compare the run with a saved baseline, replaying its seed and iterations: time change with its interval ("within noise" is a result), exact counts, high-water mark, verdict change; exit 1 on a regression beyond the gates below ([docs/summary.md](summary.md), "Baselines")',
      value: 'NAME|DIR',
      parse: parseBaselineRef,
      default: null,
      help: {
        run: 'compare the run with a saved baseline (its seed unless --seed): time change with its interval (within noise is a result), exact counts, high-water mark, verdict; exit 1 on a regression beyond the --fail-if-* gates',
        soak: 'as for run, each target against NAME/<target>',
      },
      commands: RUN,
    },
    {
      name: 'verbose',
      doc: 'list every import a raw module needs that wasm-soak cannot provide (else more than 4 are counted by module)',
      default: false,
      help: 'list every import a raw module needs that wasm-soak cannot provide (else more than 4 are counted)',
      commands: ARM,
    },
    {
      name: 'quiet',
      short: 'q',
      doc: 'no progress and no report on stdout; the error of a failed run is still printed (stderr)',
      default: false,
      help: 'no progress output',
      commands: [...ANALYSIS, 'compare'],
    },
    {
      name: 'arm',
      value: 'NAME=PATH',
      parse: parseArm,
      multiple: true,
      default: Object.freeze([]),
      help: 'with a scenario: one arm, the module its setup(ctx) loads from ctx.arm.path; repeat for each arm',
      commands: ['compare'],
    },
    {
      name: 'package',
      doc: 'with a scenario: one arm, an exact version of an npm package, installed by npm into the package cache and imported by the arm\'s setup(ctx) with `ctx.arm.import()`; ARM defaults to the version (several packages: NAME-VERSION); repeat for each arm ([docs/compare.md](compare.md), "Versions of an npm package")',
      value: '[ARM=]NAME@VERSION',
      parse: parsePackage,
      multiple: true,
      default: Object.freeze([]),
      help: 'with a scenario: one arm, an exact npm package version its setup(ctx) imports with ctx.arm.import(); repeat for each arm',
      commands: ['compare'],
    },
    {
      name: 'package-cache',
      doc: 'the folder `--package` installs each version into (one folder per version, reused by later comparisons; nothing else written, nothing moved)',
      value: 'DIR',
      parse: (text) => text,
      default: null,
      shown: '$XDG_CACHE_HOME/wasm-soak/packages or ~/.cache/wasm-soak/packages',
      help: 'the folder --package installs each version into, reused by later comparisons',
      commands: ['compare'],
    },
    {
      name: 'blocks',
      value: 'N',
      parse: integer({ min: 4, max: 10000 }),
      default: 8,
      help: 'measured blocks per arm (after one warm-up block), run in ABBA rounds',
      commands: ['compare'],
    },
    {
      name: 'block-calls',
      value: 'N',
      parse: integer({ min: 16, max: 1 << 24 }),
      default: 2000,
      help: 'calls per block',
      commands: ['compare'],
    },
    {
      name: 'block-timeout',
      value: 'T',
      parse: parseTimeout,
      key: 'blockTimeoutMs',
      default: 300_000,
      shown: '5m',
      help: "one arm's block running longer ends the comparison, naming the arm and round: exit 3; 0: no limit",
      commands: ['compare'],
    },
    {
      name: 'control',
      default: false,
      help: 'add an unchanged copy of the first module as an arm: its difference from A is the noise floor',
      commands: ['compare'],
    },
    {
      name: 'boundary',
      default: false,
      help: 'add a synthesised module with empty exports of the same signatures, timed in the same blocks: the call boundary cost',
      commands: ['compare'],
    },
    {
      name: 'check-outputs',
      default: false,
      help: "every call's results must agree with A's (per-block checksum); a mismatch names the first differing call (exit 1)",
      commands: ['compare'],
    },
    {
      name: 'fail-if-slower',
      type: 'number | string',
      doc: "with `--baseline`: the time per call rose beyond PCT (the interval's low end above it); `none`: no gate",
      value: 'PCT',
      parse: parseGate,
      get default() {
        return loadAddon().constants.gateDefaults.failIfSlower;
      },
      get shown() {
        const slower = tryAddon()?.constants.gateDefaults.failIfSlower;
        return slower === undefined ? NO_ADDON : `${+(slower * 100).toFixed(2)}%`;
      },
      fromAddon: true,
      help: {
        compare:
          "exit 1 when an arm's time ratio to A is beyond this (the interval's low end above it, a real difference); none: no gate",
        run: 'with --baseline: exit 1 when the time per call rose beyond this (the interval’s low end above it); none: no gate',
        soak: 'with --baseline: as for run, per target',
      },
      commands: ARM,
    },
    {
      name: 'fail-if-more-allocs',
      doc: 'with `--baseline`: more allocations than the baseline (exact, both runs counted) beyond `--more-allocs-tolerance`',
      default: false,
      help: {
        compare:
          'exit 1 when an arm makes more allocations than A over the same calls (exact, counting pass) beyond --more-allocs-tolerance',
        run: 'with --baseline (both runs counted): exit 1 on more allocations than the baseline over the same calls beyond --more-allocs-tolerance',
        soak: 'with --baseline: as for run, per target',
      },
      commands: ARM,
    },
    {
      name: 'more-allocs-tolerance',
      type: 'number | string',
      doc: "how many more allocations `--fail-if-more-allocs` lets pass: a share of the baseline's (`1%`), a number over the same calls (`10`), or both (`1%+10`: a rise beyond both fails); exact counts of the same calls repeat, hence 0",
      value: 'TOL',
      parse: tolerance('count'),
      default: Object.freeze({ relative: null, absolute: 0 }),
      shown: '0',
      help: {
        compare:
          "with --fail-if-more-allocs: the allocations above A's that pass, PCT, N or PCT+N (a rise beyond both fails)",
        run: "with --fail-if-more-allocs: the allocations above the baseline's that pass, PCT, N or PCT+N (a rise beyond both fails)",
        soak: 'as for run, per target',
      },
      commands: ARM,
    },
    {
      name: 'fail-if-higher-water',
      doc: "with `--baseline`: a memory high-water mark above the baseline's beyond `--higher-water-tolerance`",
      default: false,
      help: {
        compare: "exit 1 when an arm's memory high-water mark is above A's beyond --higher-water-tolerance",
        run: "with --baseline: exit 1 when the memory high-water mark is above the baseline's beyond --higher-water-tolerance",
        soak: 'with --baseline: as for run, per target',
      },
      commands: ARM,
    },
    {
      name: 'higher-water-tolerance',
      type: 'number | string',
      doc: "how far above the baseline's high-water mark `--fail-if-higher-water` lets a run pass: a share (`10%`), a size (`1MiB`), or both (`20%+1MiB`, the default: a rise beyond both fails, so that one more growth step of a geometrically growing heap, or the same seed's finalizers running at another moment, is no regression); `0`: any rise",
      value: 'TOL',
      parse: tolerance('bytes'),
      default: Object.freeze({ relative: 0.2, absolute: 1024 ** 2 }),
      shown: '20%+1MiB',
      help: {
        compare:
          "with --fail-if-higher-water: the rise above A's high-water mark that passes, PCT, SIZE or PCT+SIZE (a rise beyond both fails)",
        run: "with --fail-if-higher-water: the rise above the baseline's high-water mark that passes, PCT, SIZE or PCT+SIZE (a rise beyond both fails)",
        soak: 'as for run, per target',
      },
      commands: ARM,
    },
    {
      name: 'expect',
      default: false,
      help: "check each verdict against the suite's expect (exit 0 when all match, 1 otherwise)",
      commands: ['soak'],
    },
    {
      name: 'shard',
      value: 'K/N',
      parse: parseShard,
      default: null,
      help: 'run the Kth of N shares of the suite (targets K, K+N, K+2N, ...); `wasm-soak merge` combines the shares',
      commands: ['soak'],
    },
    { name: 'csv', default: false, help: 'write samples.csv and metrics.csv', commands: ['export'] },
    {
      name: 'pprof',
      default: false,
      help: 'write sites.pb.gz: the allocation sites (--sites) as a gzipped pprof profile (alloc_objects, alloc_space, inuse_objects, inuse_space)',
      commands: ['export'],
    },
    {
      name: 'dhat',
      default: false,
      doc: "write dhat.json: the allocation sites (--sites) as the JSON of Valgrind's DHAT viewer (open `/usr/libexec/valgrind/dh_view.html` of Debian's `valgrind`, then Load… the file): a program point per site, its frames innermost first and its op outermost (`op NAME`); time in calls of the counting pass. Total and At t-end are the exact counts; Max, At t-gmax and the lifetimes are read from the sites' 33 snapshots (a peak between two is unseen; a block freed in the call that allocated it lives 0 calls); no reads or writes ([docs/allocator.md](allocator.md))",
      help: "write dhat.json: the allocation sites (--sites) for Valgrind's DHAT viewer (dh_view.html)",
      commands: ['export'],
    },
    {
      name: 'help',
      short: 'h',
      doc: "the command's help; runs nothing",
      default: false,
      help: 'this help',
      commands: Object.keys(COMMANDS),
    },
    // Copied with their getters (a spread would read the addon's defaults now).
  ].map((o) => Object.freeze(Object.defineProperties({ key: camelCase(o.name) }, Object.getOwnPropertyDescriptors(o)))),
);

function camelCase(name) {
  return name.replace(/-(\w)/g, (_, c) => c.toUpperCase());
}

const BY_NAME = new Map(OPTIONS.map((o) => [o.name, o]));

/** The option whose long flag is name (without --), else undefined. */
export const optionNamed = (name) => BY_NAME.get(name);

/** The schema's defaults by configuration key; the only copy of each (those decided in C read on use). */
export const DEFAULTS = Object.freeze(
  Object.defineProperties(
    {},
    Object.fromEntries(OPTIONS.map((o) => [o.key, { get: () => o.default, enumerable: true }])),
  ),
);

/** The default of option o as command's help and docs/cli.md state it, or null when there is nothing to say. */
export function defaultText(o, command) {
  if (o.shown) return typeof o.shown === 'string' ? o.shown : (o.shown[command] ?? null);
  if (o.default === null || o.default === false) return null;
  return Array.isArray(o.default) ? o.default.join(',') : String(o.default);
}

/** The options command takes, in help order. */
export const optionsOf = (command) => OPTIONS.filter((o) => o.commands.includes(command));

/** How an option is written in messages and help: "-n, --iterations N". */
export function flagOf(o, { short = false, value = false } = {}) {
  const long = `--${o.name}${value && o.value ? ` ${o.value}` : ''}`;
  return short && o.short ? `-${o.short}, ${long}` : long;
}

/** Fails when a per-op --args names an op that is not among the --call ops. */
function checkArgOps(args, calls) {
  if (!calls) return; // the raw target checks the op it chooses (src/worker/targets/raw.js)
  const names = calls.map((c) => c.name);
  for (const { op } of args) {
    if (op !== null && !names.includes(op)) {
      throw usageError(
        'WS_EOPTION',
        `--args ${op}=… names the op "${op}", which is not among the --call ops (${names.join(', ')}).`,
        `Name one of ${names.join(', ')} before the "=", or add "${op}" to --call.`,
      );
    }
  }
}

/**
 * The comparison's configuration from the values of parseCommand('compare',
 * argv): the schema's defaults, then what was given; every arm's verdict
 * judges every finding kind, and a counting pass follows the blocks.
 */
export function compareConfig(values) {
  const { help, ...cfg } = {
    ...Object.fromEntries(optionsOf('compare').map((o) => [o.key, o.default])),
    ...values,
  };
  cfg.seed ??= Math.floor(Math.random() * 2 ** 32);
  const calls = (cfg.blocks + 1) * cfg.blockCalls;
  if (calls > Number.MAX_SAFE_INTEGER) {
    throw usageError(
      'WS_EOPTION',
      `--blocks ${cfg.blocks} × --block-calls ${cfg.blockCalls} is more calls per arm than a run can make.`,
      'Use fewer or smaller blocks.',
    );
  }
  if (typeof cfg.warmup === 'number' && cfg.warmup >= calls) {
    throw usageError(
      'WS_EOPTION',
      `--warmup ${cfg.warmup} leaves no iterations to measure out of ${calls} per arm.`,
      'Use a smaller --warmup, more blocks, or --warmup auto.',
    );
  }
  const repeated = repeatedNames(cfg.arm.map((a) => a.name));
  if (repeated.length) {
    throw usageError(
      'WS_EOPTION',
      `--arm gives more than one arm the same name: ${describeRepeated(repeated, '--arm')}.`,
      "Give each arm a name of its own: it is the arm's result folder's name.",
    );
  }
  checkArgOps(cfg.args, cfg.calls);
  cfg.yieldFloorMs = values.yieldEvery === undefined ? DEFAULT_YIELD_FLOOR_MS : 0;
  cfg.failOn = DEFAULTS.failOn;
  cfg.budgets = { allocs: null, bytes: null };
  cfg.countAllocs = true;
  return cfg;
}

/**
 * The run configuration from the values of parseCommand('run', argv):
 * the schema's defaults, then what was given, then what follows from both.
 * Throws a SoakError (exit 2) for combinations that cannot run.
 */
export function runConfig(values) {
  const run = optionsOf('run');
  const { maxAllocsPerCall, maxBytesPerCall, help, ...cfg } = {
    ...Object.fromEntries(run.filter((o) => !o.fromAddon).map((o) => [o.key, o.default])),
    ...values,
  };
  cfg.seed ??= Math.floor(Math.random() * 2 ** 32);
  // The -n default bounds a run only when neither limit is given: a
  // --duration run without -n runs until its time is up (iterations null).
  if (values.iterations === undefined && cfg.durationMs !== null) cfg.iterations = null;
  if (typeof cfg.warmup === 'number' && cfg.iterations !== null && cfg.warmup >= cfg.iterations) {
    throw usageError(
      'WS_EOPTION',
      `--warmup ${cfg.warmup} leaves no iterations to measure out of ${cfg.iterations}.`,
      'Use a smaller --warmup, more --iterations, or --warmup auto.',
    );
  }
  checkArgOps(cfg.args, cfg.calls);
  // The defaults decided in C, after the checks: a usage error needs no addon.
  for (const o of run.filter((x) => x.fromAddon && !(x.key in values))) cfg[o.key] = o.default;
  cfg.yieldFloorMs = values.yieldEvery === undefined ? DEFAULT_YIELD_FLOOR_MS : 0;
  // Enough slow samples for the trend tests on a short run.
  if (values.slowEvery === undefined && Number.isFinite(cfg.iterations))
    cfg.slowEvery = Math.max(1, Math.min(MAX_SLOW_EVERY, Math.floor(cfg.iterations / DEFAULT_SLOW_SAMPLES)));
  cfg.budgets = { allocs: maxAllocsPerCall, bytes: maxBytesPerCall };
  // Budgets are checked on the counting pass's exact counts; sites are its too.
  cfg.sites = cfg.sites || cfg.symbols !== null;
  cfg.countAllocs = cfg.countAllocs || cfg.sites || maxAllocsPerCall !== null || maxBytesPerCall !== null;
  cfg.blockContents = resolveBlockContents(values);
  delete cfg.noBlockContents;
  return cfg;
}

/**
 * Whether a run shows what leaked blocks hold: --block-contents or
 * --no-block-contents as given (both: a usage error), else on (soak gives
 * its targets --no-block-contents unless told otherwise).
 */
function resolveBlockContents(values) {
  if (values.blockContents && values.noBlockContents) {
    throw usageError(
      'WS_EOPTION',
      '--block-contents and --no-block-contents contradict each other.',
      'Give one of them: --block-contents shows the first bytes of leaked blocks, --no-block-contents leaves them out.',
    );
  }
  return !values.noBlockContents;
}
