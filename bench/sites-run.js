// The cost of `--sites` on a whole run, as a user pays it: `wasm-soak run`
// with --sites against the same run without it (and with --count-allocs,
// the counting pass alone, for where the cost goes), each a CLI process at
// the defaults (the fixture: 200 000 calls), in rounds whose order rotates (src/compare/design.js) so
// that the machine's drift hits every arm alike. Printed as the ratio of
// the medians, --sites / without (target <= 3) for a real Emscripten module
// (sql.js's release build, soak/dev/sqljs.mjs), --sites / --count-allocs
// (target <= 3) for the sites fixture (soak/modules/sites.wasm; why below),
// each line with the other ratio and the load average. bench/sites.js
// measures the instrumented module's calls alone.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { roundOrder } from '../src/compare/design.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'src', 'cli', 'main.js');
const ROUNDS = Number(process.env.SITES_RUN_ROUNDS ?? 3);
const TARGET = 3;

const ARMS = [
  { label: 'without', extra: [] },
  { label: '--count-allocs', extra: ['--count-allocs'] },
  { label: '--sites', extra: ['--sites'] },
];

const workloads = [
  // against: the arm the target compares --sites with (0: the run without).
  { label: 'sql.js (soak/dev/sqljs.mjs)', args: [join(ROOT, 'soak', 'dev', 'sqljs.mjs')], against: 0 },
  // The fixture's calls take about a microsecond in the timed pass's C loop,
  // and each of its allocations crosses into JS in the counting pass: that
  // pass alone is about 5x the run without it (its start, loading binaryen
  // and a cold first rewrite, is about 3 s of it at the default 20 000
  // calls), whatever the sites cost. So its target is on --sites against
  // the counting pass without sites (the issue's own measure), with the
  // ratio to the run without printed beside it; 200 000 calls make the
  // start a small part of either.
  {
    label: 'sites fixture (soak/modules/sites.wasm, 200 000 calls)',
    args: [join(ROOT, 'soak', 'modules', 'sites.wasm'), '--call', 'request:1,store:1', '-n', '200000'],
    against: 1,
  },
];

/** Seconds one run of args took (a run that fails ends the bench). */
function runSeconds(args, dir) {
  const t0 = process.hrtime.bigint();
  // --fail-on none: the sites fixture leaks on purpose; only a failed run is an error here.
  const argv = [CLI, 'run', ...args, '-q', '--format', 'md', '--fail-on', 'none', '-o', dir, '--seed', '5'];
  const r = spawnSync(process.execPath, argv, { encoding: 'utf8' });
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`wasm-soak run ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return s;
}

const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];

// `node bench/sites-run.js WORD`: only the workloads whose label holds WORD.
const only = process.argv[2] ?? '';
const dir = mkdtempSync(join(tmpdir(), 'wasm-soak-bench-sites-run-'));
try {
  for (const [w, { label, args, against }] of workloads.entries()) {
    if (!label.includes(only)) continue;
    const seconds = ARMS.map(() => []);
    for (let r = 0; r < ROUNDS; r++) {
      for (const i of roundOrder(ARMS.length, r)) {
        seconds[i].push(runSeconds([...args, ...ARMS[i].extra], join(dir, `${w}-${r}-${i}`)));
      }
    }
    const medians = seconds.map(median);
    const [plain, count, sites] = medians;
    const ratio = sites / medians[against];
    const other =
      against === 0
        ? `--sites / --count-allocs ${(sites / count).toFixed(2)}`
        : `--sites / without ${(sites / plain).toFixed(2)}`;
    console.log(
      `sites on a whole run, ${label}: ${plain.toFixed(1)} s without, ${count.toFixed(1)} s --count-allocs, ${sites.toFixed(1)} s --sites: --sites / ${ARMS[against].label} ${ratio.toFixed(2)} (target <= ${TARGET}) ${ratio <= TARGET ? 'ok' : 'MISSED'}, ${other} (medians of ${ROUNDS} rotated rounds; load average ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')})`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
