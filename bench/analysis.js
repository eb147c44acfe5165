// The whole analysis of a 1 M-call log, as `wasm-soak report` runs it: C log
// decoding, windows, trend verdicts, summary (timed without writing; then
// summary.json and summary.md are written, figures left out: bench/plot.js
// times those). Prints time and peak memory per sample; targets: <= 1 s and
// <= 24 bytes per sample.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const N = Number(process.argv[2] ?? 1_000_000);
const root = fileURLToPath(new URL('..', import.meta.url));

if (process.argv[3] === '--measure') {
  const { analyzeFacts } = await import('../src/analysis/analyze.js');
  const { readResultLogs } = await import('../src/analysis/log-reader.js');
  const { writeResult } = await import('../src/report/result.js');
  const { DEFAULTS } = await import('../src/options/schema.js');
  const dir = process.argv[4];
  const cfg = { ...DEFAULTS, formats: ['md'] };
  const rss0 = process.memoryUsage().rss;
  const t = performance.now();
  const analysis = analyzeFacts({ ...readResultLogs(dir), cfg, run: { status: 'completed' } });
  const ms = performance.now() - t;
  const s = await writeResult(dir, analysis, cfg);
  const peak = process.resourceUsage().maxRSS * 1024;
  const perSample = Math.max(0, peak - rss0) / s.samples.calls;
  console.log(
    `analysis: ${s.samples.calls.toLocaleString('en-US')} calls in ${ms.toFixed(0)} ms (target <= 1000) ${ms <= 1000 ? 'ok' : 'MISSED'}; peak memory ${perSample.toFixed(1)} B/sample (target <= 24) ${perSample <= 24 ? 'ok' : 'MISSED'}`,
  );
} else {
  const dir = mkdtempSync(join(tmpdir(), 'wasm-soak-analysis-'));
  const run = spawnSync(
    process.execPath,
    [
      join(root, 'src/cli/main.js'),
      'run',
      join(root, 'soak/modules/empty.wasm'),
      '--call',
      'noop',
      '-n',
      String(N),
      '-o',
      dir,
      '-q',
      '--format',
      'md',
      '--seed',
      '1',
    ],
    { stdio: 'inherit' },
  );
  if (run.status !== 0) process.exit(1);
  // A fresh process, so that the peak memory is the analysis's own.
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), String(N), '--measure', dir], {
    stdio: 'inherit',
  });
  rmSync(dir, { recursive: true });
  process.exitCode = r.status;
}
