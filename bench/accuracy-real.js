// `npm run bench:accuracy`: the verdicts' accuracy on real modules and on a
// machine that changes under the run (docs/verdicts.md, "Accuracy on real
// modules and a loaded machine"). Every run is the CLI's own `run -q` at the
// default settings (only `--format md`: the figures do not change a verdict
// and cost a second a run); its summary.json says the verdict, the findings
// and the open questions.
//
// Targets: the clean fixtures (clean.wasm, clean-stats, work.wasm and
// alloc-dlmalloc.wasm through the bench scenarios with no drift and no leak)
// and the clean real modules of soak/real/ (devDependencies), and glue with
// finalizers whose objects are all freed (soak/scenarios/glue-objects.mjs);
// a +20 % time drift (bench/scenarios/work-drift.mjs), a 16 B/call leak
// (bench/scenarios/alloc-leak.mjs) and a forgotten free() of that glue
// (soak/scenarios/glue-objects-unfreed.mjs: unfreed-objects). Each run draws its call count
// log-uniformly from its target's range (so that a run takes seconds) and
// its seed, both printed; the same run is made under each condition in turn:
//
//   quiet    nothing of ours runs beside it (the machine is shared: others may)
//   midload  one busy loop per core starts once the run's samples.wslog holds
//            half of the bytes the quiet run wrote, and runs to its end
//   slowed   the run pinned to CPU 0 (taskset), a busy loop pinned to CPU 0
//            from 30 % to 60 % of the log: the machine at half speed for a
//            stretch
//
// A false alarm is a `slowdown` or any memory finding on a clean target
// (`inconclusive` is counted apart, by reason); detection is the expected
// verdict (`slowdown`, `leak`, `unfreed-objects`). Exits 1 when a condition misses a target
// (false alarms ≤ 1 %, detection ≥ 95 %) or a run failed.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { hasTaskset, killAllLoads, startLoad } from './load.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'src', 'cli', 'main.js');

const TARGETS = { falseAlarms: 0.01, detection: 0.95 };
/** Clean runs per condition, and drift and leak runs each, in the real measurement. */
const DEFAULT_RUNS = 200;
const DEFAULT_DETECTION_RUNS = 60;
/** Poll cadence of a run's log, and the bound of any one run (it is killed past it). */
const POLL_MS = 5;
const RUN_LIMIT_MS = 300_000;
/** Log bytes per call when no quiet run said it (a 32-byte record each, and a little more). */
const LOG_BYTES_PER_CALL = 34;
/** A load counts as landed when it started before this share of the run's log was written. */
const LANDED_SHARE = 0.9;

const scenario = (path, env = {}) => ({ args: [path], env });
const CLEAN = [
  { name: 'clean.wasm', args: ['soak/modules/clean.wasm', '--call', 'step'], env: {}, calls: [50_000, 200_000] },
  { name: 'clean-stats', ...scenario('soak/scenarios/clean-stats.mjs'), calls: [50_000, 200_000] },
  { name: 'work', ...scenario('bench/scenarios/work-drift.mjs', { WS_ACCURACY_DRIFT: '0' }), calls: [10_000, 200_000] },
  {
    name: 'alloc-dlmalloc',
    ...scenario('bench/scenarios/alloc-leak.mjs', { WS_ACCURACY_LEAK_BYTES: '0' }),
    calls: [10_000, 200_000],
  },
  { name: 'harfbuzz', ...scenario('soak/real/harfbuzz.mjs'), calls: [2_000, 10_000] },
  { name: 'lz4', ...scenario('soak/real/lz4.mjs'), calls: [2_000, 10_000] },
  { name: 'md4w', ...scenario('soak/real/md4w.mjs'), calls: [2_000, 8_000] },
  { name: 'meshoptimizer', ...scenario('soak/real/meshoptimizer.mjs'), calls: [2_000, 8_000] },
  { name: 'png', ...scenario('soak/real/png.mjs'), calls: [2_000, 10_000] },
  { name: 'xxhash', ...scenario('soak/real/xxhash.mjs'), calls: [2_000, 20_000] },
  { name: 'yoga', ...scenario('soak/real/yoga.mjs'), calls: [2_000, 5_000] },
  { name: 'zstd', ...scenario('soak/real/zstd.mjs'), calls: [2_000, 8_000] },
  { name: 'zig-fmt', ...scenario('soak/real/zig-fmt.mjs'), calls: [2_000, 10_000] },
  { name: 'assemblyscript', ...scenario('soak/real/assemblyscript.mjs'), calls: [2_000, 20_000] },
  // Glue with finalizers, every object freed by the application: stays stable.
  { name: 'glue-objects', ...scenario('soak/scenarios/glue-objects.mjs'), calls: [5_000, 40_000] },
  { name: 'photon', ...scenario('soak/real/photon.mjs'), calls: [5_000, 20_000] },
];
const DETECT = [
  {
    name: 'work+20%',
    expect: 'slowdown',
    ...scenario('bench/scenarios/work-drift.mjs', { WS_ACCURACY_DRIFT: '0.2' }),
    calls: [10_000, 200_000],
  },
  {
    name: 'alloc+16B',
    expect: 'leak',
    ...scenario('bench/scenarios/alloc-leak.mjs', { WS_ACCURACY_LEAK_BYTES: '16' }),
    calls: [10_000, 200_000],
  },
  {
    name: 'glue-objects-unfreed',
    expect: 'unfreed-objects',
    ...scenario('soak/scenarios/glue-objects-unfreed.mjs'),
    calls: [5_000, 40_000],
  },
  {
    name: 'photon-unfreed',
    expect: 'unfreed-objects',
    ...scenario('soak/real/photon-unfreed.mjs'),
    calls: [5_000, 20_000],
  },
];
const CONDITIONS = ['quiet', 'midload', 'slowed'];

const HELP = `usage: npm run bench:accuracy -- [options]
       node bench/accuracy-real.js [options]

False alarms and detection of \`wasm-soak run\` at its default settings on
real modules, quiet, under a load that starts mid-run, and on a machine
slowed for a stretch (docs/verdicts.md, "Accuracy on real modules and a
loaded machine"). Exits 1 when a target is missed (false alarms <= 1 %,
detection >= 95 %) or a run failed.

The real measurement is the default: ${DEFAULT_RUNS} clean runs and ${DEFAULT_DETECTION_RUNS} runs of each
detection case per condition (${(DEFAULT_RUNS + DETECT.length * DEFAULT_DETECTION_RUNS) * 3} runs, 60-80 min on 2 cores).
--quick and --runs are smoke checks: their rates are too coarse to show 1 %.

  --runs N            clean runs per condition (default ${DEFAULT_RUNS}); the drift and
                      the leak get 0.3 N each (at least 4)
  --quick             one run per clean target, 4 per detection case
                      (${(CLEAN.length + 4 * DETECT.length) * 3} runs, about 3-5 min)
  --conditions LIST   among ${CONDITIONS.join(',')} (default all)
  --cases LIST        only these cases (names as in the table, e.g. lz4,work)
  --seed N            seeds the draw of call counts and run seeds (default
                      random, printed)
  -h, --help          this text`;

/** mulberry32: a small seeded generator for the plan (counts, seeds, order). */
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A call count drawn log-uniformly from [lo, hi], rounded to 1 000 (500 below 10 000). */
function drawCalls(random, [lo, hi]) {
  const n = Math.exp(Math.log(lo) + random() * (Math.log(hi) - Math.log(lo)));
  const unit = n < 10_000 ? 500 : 1000;
  return Math.min(hi, Math.max(lo, Math.round(n / unit) * unit));
}

/** The runs to make: each clean target in turn, then the detection cases, in a seeded shuffled order. */
function plan({ runs, detectionRuns, cases, seed }) {
  const random = rng(seed);
  const jobs = [];
  const add = (target, kind) =>
    jobs.push({ target, kind, calls: drawCalls(random, target.calls), seed: Math.floor(random() * 2 ** 31) });
  const clean = CLEAN.filter((t) => !cases || cases.has(t.name));
  for (let k = 0; clean.length && k < runs; k++) add(clean[k % clean.length], 'clean');
  for (const target of DETECT.filter((t) => !cases || cases.has(t.name))) {
    for (let k = 0; k < detectionRuns; k++) add(target, 'detect');
  }
  for (let i = jobs.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [jobs[i], jobs[j]] = [jobs[j], jobs[i]];
  }
  return jobs;
}

/** Size of a file, 0 while it does not exist. */
function sizeOf(path) {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** The run in progress and the benchmark's temporary folder, for the signal handlers. */
let current = null;
let tempRoot = null;

/**
 * Runs one job under one condition in `dir` (a fresh folder); resolves
 * { summary, wallMs, logBytes, load, error }. The load is started and stopped
 * on evidence (the log's size against `expectedBytes`), polled every POLL_MS
 * while the run lasts; the run is killed past RUN_LIMIT_MS, and its load is
 * stopped however it ends.
 */
function runOnce(job, condition, dir, expectedBytes) {
  const runArgs = ['run', ...job.target.args, '-n', String(job.calls), '--seed', String(job.seed)];
  const cliArgs = [CLI, ...runArgs, '-q', '-o', dir, '--format', 'md'];
  const [command, args] =
    condition === 'slowed' ? ['taskset', ['-c', '0', process.execPath, ...cliArgs]] : [process.execPath, cliArgs];
  const log = join(dir, 'samples.wslog');
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { ...process.env, ...job.target.env, WS_ACCURACY_CALLS: String(job.calls) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    current = child;
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr = (stderr + d).slice(-4000);
    });
    const load = { startedAt: null, stoppedAt: null };
    let stop = null;
    const startAt = condition === 'midload' ? 0.5 : 0.3;
    const stopAt = condition === 'slowed' ? 0.6 : Number.POSITIVE_INFINITY;
    const poll = setInterval(() => {
      if (condition === 'quiet') return;
      const size = sizeOf(log);
      if (load.startedAt === null && size >= startAt * expectedBytes) {
        load.startedAt = size;
        stop =
          condition === 'midload'
            ? startLoad({ count: availableParallelism(), limitMs: RUN_LIMIT_MS })
            : startLoad({ count: 1, cpu: 0, limitMs: RUN_LIMIT_MS });
      } else if (stop && load.stoppedAt === null && size >= stopAt * expectedBytes) {
        load.stoppedAt = size;
        stop();
      }
    }, POLL_MS);
    const limit = setTimeout(() => child.kill('SIGKILL'), RUN_LIMIT_MS);
    const finish = (error) => {
      clearInterval(poll);
      clearTimeout(limit);
      stop?.();
      current = null;
      const wallMs = Date.now() - started;
      const logBytes = sizeOf(log);
      let summary = null;
      try {
        summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
      } catch {
        error ??= `no summary.json; stderr: ${stderr.trim().split('\n').slice(-3).join(' | ')}`;
      }
      if (summary && summary.status !== 'completed') error ??= `status ${summary.status}`;
      resolve({ summary, wallMs, logBytes, load, error });
    };
    child.on('error', (err) => finish(err.message));
    child.on('close', (code, signal) => finish(signal ? `killed by ${signal}` : code > 1 ? `exit ${code}` : undefined));
  });
}

/** What a run came to: its verdict, finding kinds and open questions, and how its case judges it. */
function judge(job, result) {
  const s = result.summary;
  const kinds = s && !result.error ? s.findings.map((f) => f.kind) : [];
  const reasons = s && !result.error ? [...new Set(s.inconclusive.map((q) => q.reason))] : [];
  const out = { verdict: result.error ? 'error' : s.verdict, kinds, reasons, sentences: [] };
  if (job.kind === 'clean') {
    out.falseTime = kinds.includes('slowdown');
    out.falseMemory = kinds.some((k) => k !== 'slowdown' && k !== 'budget');
    out.falseAlarm = out.falseTime || out.falseMemory;
    if (out.falseAlarm) out.sentences = s.findings.map((f) => `${f.kind}: ${f.sentence}`);
  } else {
    out.detected = out.verdict === job.target.expect;
    // A miss says why, in the run's own words, so it can be read without a replay.
    if (!out.detected && s && !result.error)
      out.sentences = [...s.findings, ...s.inconclusive].map((x) => `${x.kind ?? x.reason}: ${x.sentence}`);
  }
  return out;
}

const pct = (k, n) => (n ? `${((100 * k) / n).toFixed(1)} %` : '—');
const pad = (text, width) => String(text).padEnd(width);

/** Counts reasons over runs: "spans-threshold 3, few-samples 1", or "0". */
function reasonCounts(rows) {
  const counts = new Map();
  for (const r of rows) for (const reason of r.outcome.reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return counts.size ? [...counts].map(([k, v]) => `${k} ${v}`).join(', ') : '0';
}

/** Prints the tables; returns the list of missed targets. */
function report(results, conditions) {
  const missed = [];
  const caseNames = [...CLEAN, ...DETECT]
    .map((t) => t.name)
    .filter((name) => results.some((r) => r.job.target.name === name));
  const cell = (rows, kind) => {
    if (!rows.length) return '';
    const inc = rows.filter((r) => r.outcome.verdict === 'inconclusive').length;
    const err = rows.filter((r) => r.outcome.verdict === 'error').length;
    const hits = rows.filter((r) => (kind === 'clean' ? r.outcome.falseAlarm : r.outcome.detected)).length;
    return `${hits}/${rows.length}${inc ? ` inc ${inc}` : ''}${err ? ` err ${err}` : ''}`;
  };
  console.log('\nPer case (clean: false alarms/runs; detection: detected/runs; inc = inconclusive, err = failed):');
  console.log(`${pad('case', 24)}${pad('calls', 16)}${conditions.map((c) => pad(c, 20)).join('')}`);
  for (const name of caseNames) {
    const rows = results.filter((r) => r.job.target.name === name);
    const calls = rows.map((r) => r.job.calls);
    const range = `${Math.min(...calls) / 1000}k-${Math.max(...calls) / 1000}k`;
    const cells = conditions.map((c) =>
      pad(
        cell(
          rows.filter((r) => r.condition === c),
          rows[0].job.kind,
        ),
        20,
      ),
    );
    console.log(`${pad(name, 24)}${pad(range, 16)}${cells.join('')}`);
  }
  const alarms = results.filter((r) => r.outcome.falseAlarm);
  if (alarms.length) console.log('\nFalse alarms (replay one with its case, -n and --seed):');
  for (const r of alarms) {
    console.log(
      `  ${pad(r.condition, 8)} ${pad(r.job.target.name, 16)} -n ${r.job.calls} --seed ${r.job.seed}: ${r.outcome.kinds.join(', ')}`,
    );
  }
  console.log('\nPer condition:');
  for (const c of conditions) {
    const rows = results.filter((r) => r.condition === c);
    const clean = rows.filter((r) => r.job.kind === 'clean' && r.outcome.verdict !== 'error');
    const errors = rows.filter((r) => r.outcome.verdict === 'error');
    const fa = clean.filter((r) => r.outcome.falseAlarm).length;
    const ft = clean.filter((r) => r.outcome.falseTime).length;
    const fm = clean.filter((r) => r.outcome.falseMemory).length;
    const inc = clean.filter((r) => r.outcome.verdict === 'inconclusive');
    const landed = rows.filter((r) => r.landed === true).length;
    const loaded = rows.filter((r) => r.landed !== null).length;
    const minutes = rows.reduce((sum, r) => sum + r.result.wallMs, 0) / 60_000;
    console.log(
      `  ${c}: ${rows.length} runs, ${minutes.toFixed(1)} min${loaded ? `, load landed in ${landed}/${loaded}` : ''}`,
    );
    const faOk = !clean.length || fa / clean.length <= TARGETS.falseAlarms;
    console.log(
      `    false alarms ${fa}/${clean.length} = ${pct(fa, clean.length)} (slowdown ${ft}, memory ${fm})  ${faOk ? 'ok' : 'MISSED'} (<= 1 %)`,
    );
    console.log(`    inconclusive on clean targets ${inc.length}/${clean.length}: ${reasonCounts(inc)}`);
    if (!faOk) missed.push(`${c}: false alarms ${pct(fa, clean.length)}`);
    for (const target of DETECT) {
      const d = rows.filter((r) => r.job.target === target && r.outcome.verdict !== 'error');
      if (!d.length) continue;
      const hit = d.filter((r) => r.outcome.detected).length;
      const other = new Map();
      for (const r of d.filter((x) => !x.outcome.detected)) {
        const key =
          r.outcome.verdict === 'inconclusive' ? `inconclusive (${r.outcome.reasons.join('+')})` : r.outcome.verdict;
        other.set(key, (other.get(key) ?? 0) + 1);
      }
      const ok = hit / d.length >= TARGETS.detection;
      const rest = other.size ? `; missed: ${[...other].map(([k, v]) => `${k} ${v}`).join(', ')}` : '';
      console.log(
        `    ${target.name}: ${hit}/${d.length} = ${pct(hit, d.length)}${rest}  ${ok ? 'ok' : 'MISSED'} (>= 95 %)`,
      );
      if (!ok) missed.push(`${c}: ${target.name} detected ${pct(hit, d.length)}`);
    }
    if (errors.length) {
      console.log(`    failed runs: ${errors.length}`);
      missed.push(`${c}: ${errors.length} failed runs`);
    }
  }
  return missed;
}

async function main() {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string' },
      quick: { type: 'boolean', default: false },
      conditions: { type: 'string' },
      cases: { type: 'string' },
      seed: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const usage = (message) => {
    console.error(`bench:accuracy: ${message} (see --help)`);
    return 2;
  };
  const runs = values.quick ? CLEAN.length : Number(values.runs ?? DEFAULT_RUNS);
  if (!Number.isInteger(runs) || runs < 1) return usage('--runs takes a whole number of runs, at least 1');
  const detectionRuns = values.quick ? 4 : values.runs ? Math.max(4, Math.round(0.3 * runs)) : DEFAULT_DETECTION_RUNS;
  const conditions = values.conditions ? values.conditions.split(',') : CONDITIONS;
  const unknown = conditions.filter((c) => !CONDITIONS.includes(c));
  if (unknown.length) return usage(`unknown condition ${unknown.join(', ')}; known: ${CONDITIONS.join(', ')}`);
  const cases = values.cases ? new Set(values.cases.split(',')) : null;
  const names = [...CLEAN, ...DETECT].map((t) => t.name);
  const unknownCases = cases ? [...cases].filter((c) => !names.includes(c)) : [];
  if (unknownCases.length) return usage(`unknown case ${unknownCases.join(', ')}; known: ${names.join(', ')}`);
  if (conditions.includes('slowed') && !hasTaskset()) {
    return usage(
      'the slowed condition needs taskset (Debian: util-linux); leave it out with --conditions quiet,midload',
    );
  }
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  if (!Number.isInteger(seed)) return usage('--seed takes an integer');

  const jobs = plan({ runs, detectionRuns, cases, seed });
  const total = jobs.length * conditions.length;
  console.log(
    `bench:accuracy seed ${seed}: ${jobs.length} runs x ${conditions.length} conditions (${conditions.join(', ')}) = ${total} runs, commit ${commitOf()}`,
  );
  const root = mkdtempSync(join(tmpdir(), 'wasm-soak-accuracy-'));
  tempRoot = root;
  const results = [];
  const began = Date.now();
  try {
    let index = 0;
    for (const job of jobs) {
      let expected = job.calls * LOG_BYTES_PER_CALL;
      for (const condition of conditions) {
        index++;
        const dir = join(root, `${index}-${condition}`);
        const result = await runOnce(job, condition, dir, expected);
        rmSync(dir, { recursive: true, force: true });
        if (condition === 'quiet' && !result.error) expected = result.logBytes;
        const outcome = judge(job, result);
        const landed =
          condition === 'quiet'
            ? null
            : result.load.startedAt !== null && result.load.startedAt < LANDED_SHARE * result.logBytes;
        results.push({ job, condition, result, outcome, landed });
        const loadText =
          condition === 'quiet'
            ? ''
            : result.load.startedAt === null
              ? '  load never started'
              : `  load ${Math.round((100 * result.load.startedAt) / result.logBytes)} %${
                  result.load.stoppedAt === null
                    ? ''
                    : `-${Math.round((100 * result.load.stoppedAt) / result.logBytes)} %`
                } of the log`;
        const what = result.error
          ? `error: ${result.error}`
          : `${outcome.verdict}${outcome.reasons.length ? ` (${outcome.reasons.join(', ')})` : ''}`;
        console.log(
          `[${String(index).padStart(String(total).length)}/${total}] ${pad(condition, 8)} ${pad(job.target.name, 22)} -n ${String(job.calls).padStart(6)} --seed ${String(job.seed).padEnd(10)} ${pad(what, 34)} ${(result.wallMs / 1000).toFixed(1)} s${loadText}`,
        );
        const label = job.kind === 'clean' ? 'FALSE ALARM' : 'MISSED';
        for (const sentence of outcome.sentences) console.log(`      ${label} ${sentence}`);
      }
    }
  } finally {
    killAllLoads();
    rmSync(root, { recursive: true, force: true });
  }
  const missed = report(results, conditions);
  console.log(`\n${total} runs in ${((Date.now() - began) / 60_000).toFixed(1)} min, seed ${seed}`);
  if (missed.length) {
    console.log(`MISSED: ${missed.join('; ')}`);
    return 1;
  }
  console.log('every target met');
  return 0;
}

/** The checked-out commit (short hash, "+dirty" with local changes), for the record. */
function commitOf() {
  const git = (...args) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' }).stdout?.trim() ?? '';
  const head = git('rev-parse', '--short', 'HEAD') || 'unknown';
  return git('status', '--porcelain', '--untracked-files=no') ? `${head}+dirty` : head;
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    current?.kill('SIGKILL');
    killAllLoads();
    if (tempRoot) rmSync(tempRoot, { recursive: true, force: true });
    process.exit(130);
  });
}

process.exitCode = await main();
