// `wasm-soak report` of a long run's log (10 M calls by default) against its
// reference measured in the same run: a process that only decodes the same
// log (the C reader, one pass over the file). Each is a fresh process (the
// report command's own cost from start to exit), their repetitions
// interleaved, the medians compared. Targets: the report with every format
// <= 0.5 s (quiet), and <= 3x the decode alone (the 0.5 s over a decode of
// about 0.17 s). Prints the load average beside the figures: on a loaded
// machine the absolute time stretches, the ratio less.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const N = Number(process.argv[2] ?? 10_000_000);
const REPEATS = 5;
const TARGET_MS = 500;
const TARGET_RATIO = 3;
const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'src/cli/main.js');

if (process.argv[2] === '--decode') {
  const { decodeLog } = await import('../src/analysis/log-reader.js');
  decodeLog(process.argv[3]);
} else {
  const dir = mkdtempSync(join(tmpdir(), 'wasm-soak-report-bench-'));
  // ok: the exit codes a step may end with (a run or report: a verdict's 0 or 1; the decode alone: 0).
  const node = (args, ok = [0, 1]) => {
    const t = performance.now();
    const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    if (!ok.includes(r.status)) throw new Error(`${args.join(' ')} exited ${r.status}`);
    return performance.now() - t;
  };
  try {
    const module = join(root, 'soak/modules/empty.wasm');
    node([cli, 'run', module, '--call', 'noop', '-n', String(N), '-o', dir, '-q', '--format', 'md', '--seed', '1']);
    const decode = [],
      report = [];
    for (let r = 0; r < REPEATS; r++) {
      decode.push(node([fileURLToPath(import.meta.url), '--decode', join(dir, 'samples.wslog')], [0]));
      report.push(node([cli, 'report', dir, '-q', '--format', 'png,svg,html,md,junit']));
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const d = median(decode),
      rep = median(report),
      ratio = rep / d;
    const load = loadavg()[0].toFixed(1);
    console.log(`report: ${N.toLocaleString('en-US')} calls, median of ${REPEATS} interleaved, load ${load}`);
    console.log(`  decode alone (reference)   ${d.toFixed(0)} ms (a process that reads the log)`);
    console.log(
      `  report, every format       ${rep.toFixed(0)} ms (target <= ${TARGET_MS}, quiet)  ${rep <= TARGET_MS ? 'ok' : 'MISSED'}`,
    );
    console.log(
      `  ratio to decode alone      ${ratio.toFixed(2)}x (target <= ${TARGET_RATIO}, reference ${d.toFixed(0)} ms)  ${ratio <= TARGET_RATIO ? 'ok' : 'MISSED'}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
