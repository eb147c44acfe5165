// `wasm-soak report` of a long run's log (10 M calls by default) against its
// reference measured in the same run: a process that only decodes the same
// log (bench/decode-log.js: the C reader, one pass over the file). Each is a fresh process (the
// report command's own cost from start to exit), their repetitions
// interleaved, the medians compared. Targets: the report with every format
// <= 0.5 s (quiet), and <= 3x the decode alone. Prints the load average
// beside the figures: on a loaded machine the absolute time stretches, the
// ratio less.
//
// Then a 100 M-call log, a `--duration 30m` nightly of a small module: 100 M
// calls of an empty export at the default --max-log-bytes (2 GiB, so the log
// is thinned), generated once into a cache folder this benchmark owns
// (<tmpdir>/wasm-soak-bench-cache, kept between runs; generated again when
// the log format changes, and not at all when the disk cannot hold it: the
// line says so). Its report with every format: <= 5 s and <= 1 GiB peak RSS
// quiet, and <= 3x that time with four busy loops running (load 4 on top of
// the machine's own). Usage: node bench/report.js [calls] [long-run calls]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statfsSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULTS } from '../src/options/schema.js';
import { LOG_VERSION } from '../src/protocol.js';
import { formatBytes } from '../src/report/format.js';
import { startLoad } from './load.js';

const N = Number(process.argv[2] ?? 10_000_000);
const N_LONG = Number(process.argv[3] ?? 100_000_000);
const REPEATS = 5;
const REPEATS_LONG = 3;
const TARGET_MS = 500;
const TARGET_RATIO = 3;
const TARGET_LONG_MS = 5000;
const TARGET_LONG_RSS = 1024 ** 3;
const TARGET_LOADED_RATIO = 3;
const LOAD_LOOPS = 4;
// The log (at most the cap) and the run's other files.
const LONG_NEED_BYTES = DEFAULTS.maxLogBytes + 256 * 1024 ** 2;
const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'src/cli/main.js');
const module = join(root, 'soak/modules/empty.wasm');
const FORMATS = ['--format', 'png,svg,html,md,junit'];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const verdict = (met) => (met ? 'ok' : 'MISSED');

// ok: the exit codes a step may end with (a run or report: a verdict's 0 or 1; the decode alone: 0).
function node(args, ok = [0, 1], env = process.env) {
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'], env });
  if (!ok.includes(r.status)) throw new Error(`${args.join(' ')} exited ${r.status}`);
  return performance.now() - t;
}

/** `report` of dir with every format: { ms, rss } (its wall time and its own peak RSS, bench/peak-rss.js). */
function timedReport(dir, scratch) {
  const file = join(scratch, 'rss');
  const ms = node(['--import', join(root, 'bench/peak-rss.js'), cli, 'report', dir, '-q', ...FORMATS], [0, 1], {
    ...process.env,
    WASM_SOAK_BENCH_RSS: file,
  });
  return { ms, rss: Number(readFileSync(file, 'utf8')) };
}

/** The 10 M-call case: the report against decoding the log alone. */
function shortRun() {
  const dir = mkdtempSync(join(tmpdir(), 'wasm-soak-report-bench-'));
  try {
    node([cli, 'run', module, '--call', 'noop', '-n', String(N), '-o', dir, '-q', '--format', 'md', '--seed', '1']);
    const decode = [],
      report = [];
    for (let r = 0; r < REPEATS; r++) {
      decode.push(node([join(root, 'bench/decode-log.js'), join(dir, 'samples.wslog')], [0]));
      report.push(node([cli, 'report', dir, '-q', ...FORMATS]));
    }
    const d = median(decode),
      rep = median(report),
      ratio = rep / d;
    const load = loadavg()[0].toFixed(1);
    console.log(`report: ${N.toLocaleString('en-US')} calls, median of ${REPEATS} interleaved, load ${load}`);
    console.log(`  decode alone (reference)   ${d.toFixed(0)} ms (a process that reads the log)`);
    console.log(
      `  report, every format       ${rep.toFixed(0)} ms (target <= ${TARGET_MS}, quiet)  ${verdict(rep <= TARGET_MS)}`,
    );
    console.log(
      `  ratio to decode alone      ${ratio.toFixed(2)}x (target <= ${TARGET_RATIO}, reference ${d.toFixed(0)} ms)  ${verdict(ratio <= TARGET_RATIO)}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The long run's result folder in the cache, generated when missing (or
 * left incomplete); null, with the line saying why, when the disk cannot
 * hold it.
 */
function longRunFolder() {
  const cache = join(tmpdir(), 'wasm-soak-bench-cache');
  const dir = join(cache, `report-${N_LONG}-calls-log-v${LOG_VERSION}`);
  const summary = join(dir, 'summary.json');
  if (existsSync(summary) && JSON.parse(readFileSync(summary, 'utf8')).status === 'completed') return dir;
  mkdirSync(cache, { recursive: true });
  rmSync(dir, { recursive: true, force: true });
  const fs = statfsSync(cache);
  const free = fs.bavail * fs.bsize;
  if (free < LONG_NEED_BYTES) {
    console.log(
      `  the ${N_LONG.toLocaleString('en-US')}-call log needs ${formatBytes(LONG_NEED_BYTES)} in ${cache}, ${formatBytes(free)} free: not measured (target <= ${TARGET_LONG_MS / 1000} s)  MISSED`,
    );
    return null;
  }
  const ms = node([
    cli,
    'run',
    module,
    '--call',
    'noop',
    '-n',
    String(N_LONG),
    '-o',
    dir,
    '-q',
    '--format',
    'md',
    '--seed',
    '1',
  ]);
  console.log(`  generated the log once into ${dir} in ${(ms / 1000).toFixed(1)} s (kept for the next runs)`);
  return dir;
}

/** The 100 M-call case: quiet, then with LOAD_LOOPS busy loops. */
function longRun() {
  console.log(`report: ${N_LONG.toLocaleString('en-US')} calls (a --duration 30m nightly of a small module)`);
  const dir = longRunFolder();
  if (!dir) return;
  const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
  const thin = summary.samples.thinning;
  const scratch = mkdtempSync(join(tmpdir(), 'wasm-soak-report-bench-'));
  try {
    const quietLoad = loadavg()[0].toFixed(1);
    const quiet = Array.from({ length: REPEATS_LONG }, () => timedReport(dir, scratch));
    const stop = startLoad({ count: LOAD_LOOPS, limitMs: 10 * 60_000 });
    let loaded;
    let load;
    try {
      loaded = Array.from({ length: REPEATS_LONG }, () => timedReport(dir, scratch));
      load = loadavg()[0].toFixed(1);
    } finally {
      stop();
    }
    const q = median(quiet.map((x) => x.ms)),
      rss = Math.max(...quiet.map((x) => x.rss)),
      l = median(loaded.map((x) => x.ms));
    console.log(
      `  the log: ${summary.samples.calls.toLocaleString('en-US')} calls kept${thin ? ` (thinned, one per ${thin.stride} iterations after ${thin.fullIterations.toLocaleString('en-US')})` : ''}, median of ${REPEATS_LONG}`,
    );
    console.log(
      `  report, every format       ${(q / 1000).toFixed(2)} s, load ${quietLoad} (target <= ${TARGET_LONG_MS / 1000} s, quiet)  ${verdict(q <= TARGET_LONG_MS)}`,
    );
    console.log(
      `  its peak RSS               ${formatBytes(rss)} (target <= ${formatBytes(TARGET_LONG_RSS)})  ${verdict(rss <= TARGET_LONG_RSS)}`,
    );
    console.log(
      `  with ${LOAD_LOOPS} busy loops         ${(l / 1000).toFixed(2)} s, load ${load}, ${(l / q).toFixed(2)}x quiet (target <= ${TARGET_LOADED_RATIO}x, reference ${(q / 1000).toFixed(2)} s)  ${verdict(l / q <= TARGET_LOADED_RATIO)}`,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

shortRun();
longRun();
