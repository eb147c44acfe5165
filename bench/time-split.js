// --time-split's accuracy (issue 35's "done when"), measured where timing
// belongs: in a benchmark, each figure against another of the same run.
// Every run is the CLI's own `run ... --time-split -q --format md` into a
// temp folder, read back from its summary.json; the runs go in rounds (each
// round one run of every workload), so that the machine's drift over the
// bench reaches every workload alike, and each run's line says the load
// average as the run ended (1 minute; the machine is shared), each
// target's line the range of them.
//
//   swap check   the allocator fixtures' `scratch` op (frees all it
//                allocates: soak/modules/alloc-dlmalloc.wasm and
//                alloc-firstfit.wasm), 20 000 calls: the allocator swap's
//                cost per call with its 95 % interval beside the stamped
//                allocator part with its own, and whether the intervals
//                overlap. Target: they agree in every run of a fixture but
//                at most one.
//   four parts   a Rust/wasm-bindgen package (lz4-wasm-nodejs,
//                soak/real/lz4.mjs) and an Emscripten one (sql.js,
//                soak/dev/sqljs.mjs), 4 000 calls: per op, the four parts'
//                sum per call against the timed pass's call time over the
//                same calls (its calls up to the op's 75th percentile, the
//                cut the parts use). Target: each op's median over the runs
//                within ±10 %. Each run's line also says the sum against
//                the same pass's control calls (stamped nowhere: what the
//                stamps' correction is checked against) and those against
//                the timed pass (the two passes' difference unstamped), so
//                that a miss tells which it comes from.
//
// `node bench/time-split.js [--runs R] [WORD]`: R rounds (3 by default;
// about 45 s each on this machine), only the workloads whose label holds
// WORD. Exits 1 when a target is missed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'src', 'cli', 'main.js');
/** Runs of a fixture whose swap may disagree with the stamps. */
const SWAP_MISSES = 1;
/** The parts' sum may differ from the timed call time by this share. */
const PARTS_TOLERANCE = 0.1;

const fixture = (name) => ({
  kind: 'swap',
  label: `${name} scratch`,
  args: [join(ROOT, 'soak', 'modules', `${name}.wasm`), '--call', 'scratch', '-n', '20000'],
});
const pkg = (label, ...path) => ({ kind: 'parts', label, args: [join(ROOT, ...path), '-n', '4000'] });
const workloads = [
  fixture('alloc-dlmalloc'),
  fixture('alloc-firstfit'),
  pkg('lz4-wasm-nodejs (Rust, wasm-bindgen)', 'soak', 'real', 'lz4.mjs'),
  pkg('sql.js (Emscripten)', 'soak', 'dev', 'sqljs.mjs'),
];

const { values, positionals } = parseArgs({
  options: { runs: { type: 'string', default: '3' } },
  allowPositionals: true,
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs wants a whole number from 1, not ${values.runs}`);
const only = positionals[0] ?? '';

/** summary.timeSplit of one `run --time-split` of args, written to dir (a failed run ends the bench). */
function timeSplitOf(args, dir, seed) {
  // --fail-on none: a verdict is not the subject here; only a failed run is an error.
  const argv = [CLI, 'run', ...args, '--time-split', '-q', '--format', 'md', '--fail-on', 'none'];
  const r = spawnSync(process.execPath, [...argv, '-o', dir, '--seed', String(seed)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`wasm-soak run ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')).timeSplit;
}

const load = () => loadavg()[0];
const ns = (x) => (Math.abs(x) >= 1000 ? `${(x / 1000).toFixed(2)} µs` : `${Math.round(x)} ns`);
const interval = (x, low, high) => `${ns(x)} (${ns(low)} to ${ns(high)})`;
const percent = (x) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)} %`;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};

/** Prints one run's swap against the stamps (the load average loadNow); returns whether it was measured and agreed. */
function swapRun(label, r, t, loadNow) {
  const o = t.swap?.ops[0];
  const head = `swap check, ${label}, run ${r + 1}/${runs} (load average ${loadNow.toFixed(1)})`;
  if (o?.status !== 'measured' || o.agree === null) {
    console.log(`${head}: swap ${o?.status ?? t.swap?.status ?? 'not run'}`);
    return false;
  }
  const swapped = interval(o.allocatorNs, o.low, o.high);
  const stamped = interval(o.stamped.ns, o.stamped.low, o.stamped.high);
  console.log(`${head}: swapped ${swapped}, stamped ${stamped}: agree ${o.agree ? 'yes' : 'no'}`);
  return o.agree;
}

/**
 * Prints one run's parts against the timed call per op, and against the
 * pass's control calls (the load average loadNow); returns { op: deviation }.
 */
function partsRun(label, r, t, loadNow) {
  const deviations = {};
  const each = t.ops.map((o) => {
    deviations[o.op] = o.callNs / o.timedCallNs - 1;
    const se = o.callSe > 0 ? ` ± ${percent((1.96 * o.callSe) / o.timedCallNs).slice(1)}` : '';
    const control =
      o.drift === null
        ? ''
        : `; ${percent((1 + deviations[o.op]) / (1 + o.drift) - 1)} against the unstamped calls, which are ${percent(o.drift)} against the timed`;
    return `${o.op} ${ns(o.callNs)} vs ${ns(o.timedCallNs)} (${percent(deviations[o.op])}${se}${control})`;
  });
  console.log(`four parts, ${label}, run ${r + 1}/${runs} (load average ${loadNow.toFixed(1)}): ${each.join(', ')}`);
  return deviations;
}

const chosen = workloads.filter((w) => w.label.includes(only));
const results = chosen.map(() => []);
const loads = chosen.map(() => []);
const dir = mkdtempSync(join(tmpdir(), 'wasm-soak-bench-time-split-'));
try {
  for (let r = 0; r < runs; r++) {
    for (const [w, { kind, label, args }] of chosen.entries()) {
      const t = timeSplitOf(args, join(dir, `${w}-${r}`), r + 1);
      loads[w].push(load());
      results[w].push((kind === 'swap' ? swapRun : partsRun)(label, r, t, loads[w].at(-1)));
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

let missed = false;
for (const [w, { kind, label }] of chosen.entries()) {
  const loadRange = `load average ${Math.min(...loads[w]).toFixed(1)}–${Math.max(...loads[w]).toFixed(1)}`;
  if (kind === 'swap') {
    const agreed = results[w].filter(Boolean).length;
    const ok = runs - agreed <= SWAP_MISSES;
    missed ||= !ok;
    console.log(
      `swap check, ${label}: the swap's allocator cost agrees with the stamped one in ${agreed} of ${runs} runs, ${loadRange} (target: all but at most ${SWAP_MISSES}) ${ok ? 'ok' : 'MISSED'}`,
    );
  } else {
    const ops = Object.keys(results[w][0]);
    const medians = ops.map((op) => median(results[w].map((d) => d[op])));
    const ok = medians.every((m) => Math.abs(m) <= PARTS_TOLERANCE);
    missed ||= !ok;
    const each = ops.map((op, i) => `${op} ${percent(medians[i])}`).join(', ');
    console.log(
      `four parts, ${label}: their sum against the timed call, median of ${runs} runs per op: ${each}, ${loadRange} (target within ±${100 * PARTS_TOLERANCE} %) ${ok ? 'ok' : 'MISSED'}`,
    );
  }
}
if (missed) process.exitCode = 1;
