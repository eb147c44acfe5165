// The cost of `--sites` on a whole run, as a user pays it: `wasm-soak run`
// with --sites against the same run without it (and with --count-allocs,
// the counting pass alone, for where the cost goes), each a CLI process at
// the defaults, in rounds whose order rotates (src/compare/design.js) so
// that the machine's drift hits every arm alike. Printed as the ratio of
// the medians, --sites / without (target <= 3), with the load average, for
// a real Emscripten module (sql.js's release build, soak/dev/sqljs.mjs)
// and the sites fixture (soak/modules/sites.wasm). bench/sites.js measures
// the instrumented module's calls alone.
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
  { label: 'sql.js (soak/dev/sqljs.mjs)', args: [join(ROOT, 'soak', 'dev', 'sqljs.mjs')] },
  {
    label: 'sites fixture (soak/modules/sites.wasm)',
    args: [join(ROOT, 'soak', 'modules', 'sites.wasm'), '--call', 'request:1,store:1'],
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

const dir = mkdtempSync(join(tmpdir(), 'wasm-soak-bench-sites-run-'));
try {
  for (const [w, { label, args }] of workloads.entries()) {
    const seconds = ARMS.map(() => []);
    for (let r = 0; r < ROUNDS; r++) {
      for (const i of roundOrder(ARMS.length, r)) {
        seconds[i].push(runSeconds([...args, ...ARMS[i].extra], join(dir, `${w}-${r}-${i}`)));
      }
    }
    const [plain, count, sites] = seconds.map(median);
    const ratio = sites / plain;
    console.log(
      `sites on a whole run, ${label}: ${plain.toFixed(1)} s without, ${count.toFixed(1)} s --count-allocs, ${sites.toFixed(1)} s --sites: --sites / without ${ratio.toFixed(2)} (target <= ${TARGET}) ${ratio <= TARGET ? 'ok' : 'MISSED'} (medians of ${ROUNDS} rotated rounds; load average ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')})`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
