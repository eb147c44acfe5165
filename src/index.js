// wasm-soak as a library (package.json "exports"): soak() runs a target and
// resolves its summary; readRun, analyze and writeReports are the steps of
// `wasm-soak report` for logs already recorded. Types: src/index.d.ts.
import { logOutcome } from './analysis/config.js';
import { readResultLogs } from './analysis/log-reader.js';
import { analysisConfig } from './library/analysis-config.js';
import { DEFAULTS } from './options/schema.js';
import { analyzed, writeResult } from './report/result.js';
import { prepareOutDir } from './run/out-dir.js';

export { EXIT, SoakError } from './errors.js';
export { soak } from './library/soak.js';
export { VERSION as version } from './version.js';

/**
 * The decoded logs of a result folder: { timed } from samples.wslog,
 * { counted } from samples-count.wslog (null without a counting pass),
 * { replica } from samples-replica.wslog (null unless a finding was run
 * again), { sites } from sites.json (null without --sites) and { blocks }
 * from blocks.json (null without block contents), { objects } from
 * objects.json (null for a raw module, or a scenario whose glue made none).
 * Throws a SoakError (exit 2 code) when dir holds no readable log.
 */
export function readRun(dir) {
  return readResultLogs(dir);
}

/**
 * The pure analysis of decoded logs (readRun): { summary, figureData }.
 * cfg ({ warmup, failOn, timeThreshold, budgets }) defaults to what the run
 * was recorded with; run (the timed pass's outcome) to what its log says.
 * Reads and writes nothing.
 */
export function analyze({
  timed,
  counted = null,
  sites = null,
  blocks = null,
  objects = null,
  cfg = {},
  run = null,
  count = null,
}) {
  return analyzed({
    timed,
    counted,
    sites,
    blocks,
    objects,
    cfg: analysisConfig(timed.header, cfg),
    run: run ?? logOutcome(timed),
    count,
  });
}

/**
 * Writes dir/summary.json and the reports of an analysis ({ summary,
 * figureData } from analyze): formats (default every one of REPORT_FORMATS,
 * src/options/formats.js), requirePlots, plotTimeoutMs. Resolves the summary as written
 * (outputs filled in).
 */
export async function writeReports(dir, result, { formats, requirePlots, plotTimeoutMs } = {}) {
  const out = prepareOutDir(dir, { force: true }); // like `wasm-soak report`, it rewrites a result folder in place
  try {
    return await writeResult(dir, result, {
      formats: formats ?? DEFAULTS.formats,
      requirePlots: requirePlots ?? DEFAULTS.requirePlots,
      plotTimeoutMs: plotTimeoutMs ?? DEFAULTS.plotTimeoutMs,
    });
  } finally {
    out.release();
  }
}
