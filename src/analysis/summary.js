// The base of summary.json (docs/summary.md) from a decoded run: counts, the
// time rows of the early and late windows, memory figures, the error.
import { addon } from '../addon.js';
import { CENSUS_KIND, FLAG, windowRow as statsRow } from '../protocol.js';
import { TOOL } from '../version.js';
import { censusMetricsOf } from './census-metrics.js';
import { damageOf } from './log-reader.js';

const CENSUS_KIND_NAMES = Object.fromEntries(Object.entries(CENSUS_KIND).map(([name, id]) => [id, name]));

/**
 * What memory k's own heap census saw (null: no census of it was recorded):
 * { kind: the allocator it recognised last (null: none), liveBytes: the
 * first and last live bytes it walked ({ start, end }, null when it
 * recognised nothing) }.
 */
function memoryCensus(metrics, k) {
  const c = censusMetricsOf(metrics, k);
  const kinds = c.censusKind?.value;
  if (!kinds?.length) return null;
  let last = kinds.length - 1;
  while (last > 0 && kinds[last] === CENSUS_KIND.none) last--;
  const live = c.censusLive?.value;
  return {
    kind: kinds[last] === CENSUS_KIND.none ? null : (CENSUS_KIND_NAMES[kinds[last]] ?? null),
    liveBytes: live?.length ? { start: live[0], end: live[live.length - 1] } : null,
  };
}

function windowRow(stats, row, from, to) {
  const { n, median, p90, p99 } = statsRow(stats, row);
  return n === 0 ? { from, to, n: 0, median: null, p90: null, p99: null } : { from, to, n, median, p90, p99 };
}

/** Memory (total tracked bytes) in effect at iteration i of the step series. */
export function memoryAt(memory, i) {
  let value = memory.bytes.length ? memory.bytes[0] : 0;
  for (let k = 0; k < memory.iter.length && memory.iter[k] <= i; k++) value = memory.bytes[k];
  return value;
}

/**
 * Calls and throws per op and the calls that grew memory: every call's, from
 * the log's per-op summaries when it was thinned (its kept calls are a
 * sample), else as the C reader counted them while it decoded (a capped
 * log), else counted call by call.
 */
function callCounts(data, nOps) {
  const counts = new Float64Array(nOps);
  const threw = new Float64Array(nOps);
  const totals = data.thinning ?? data.callTotals;
  if (totals) {
    for (let k = 0; k < nOps; k++) {
      counts[k] = totals.opCalls[k] ?? 0;
      threw[k] = totals.opThrew[k] ?? 0;
    }
    return { counts, threw, growthEvents: totals.growthEvents };
  }
  const { calls, op, flags } = data;
  let growthEvents = 0;
  for (let i = 0; i < calls; i++) {
    counts[op[i]]++;
    if (flags[i] & FLAG.threw) threw[op[i]]++;
    if (flags[i] & FLAG.grew) growthEvents++;
  }
  return { counts, threw, growthEvents };
}

/**
 * The summary's error of a run that failed (run.error), or null: where it
 * failed as the run says (a hung call, a failed stats()), else the last
 * call that threw, with its op.
 */
function runError(data, ops, run) {
  if (!run.error) return null;
  const { calls, op, flags } = data;
  // Where it failed: as the run says (a hung call, a failed stats()), else
  // the call that threw.
  let failedAt = calls - 1;
  while (failedAt >= 0 && !(flags[failedAt] & FLAG.threw)) failedAt--;
  const known = Number.isInteger(run.error.iteration) && run.error.iteration >= 0;
  const at = known ? run.error.iteration : failedAt >= 0 ? failedAt : null;
  const opName = known
    ? (run.error.op ?? (at < calls ? (ops[op[at]]?.name ?? null) : null))
    : failedAt >= 0
      ? (ops[op[failedAt]]?.name ?? null)
      : null;
  const error = {
    message: run.error.message,
    name: run.error.name ?? 'Error',
    code: run.error.code ?? null,
    iteration: at,
    op: opName,
    phase: run.phase ?? 'iteration',
    stack: run.error.stack ?? null,
  };
  if (run.error.elapsedMs !== undefined) error.elapsedMs = run.error.elapsedMs;
  return error;
}

/**
 * Returns the base summary: counts, time windows, memory figures, error.
 * warmupEnd: the first iteration after warm-up. windows: the early and late
 * windows { early: { from, to }, late: { from, to } } the verdicts defined
 * (analyzeRun; C's ws_time_windows). run: { status, exitCode, error, reason }
 * from the runner (or from the log alone for `report`).
 * Long: most of it is the summary object's fields, in docs/summary.md's order.
 */
export function buildSummary(data, warmupEnd, windows, run) {
  const { header, calls, elapsed, op } = data;
  const ops = header.ops ?? [];
  const warm = Math.min(warmupEnd, data.thinning?.iterations ?? calls);
  const e = windows.early;
  const l = windows.late;
  // A thinned run keeps one call per stride iterations: its windows are in
  // iterations, its calls are counted per op in the log's summaries.
  const stride = data.stride ?? 1;
  const early = addon.windowStats(elapsed, op, Math.round(e.from / stride), Math.round(e.to / stride), ops.length);
  const late = addon.windowStats(elapsed, op, Math.round(l.from / stride), Math.round(l.to / stride), ops.length);

  const { counts, threw, growthEvents } = callCounts(data, ops.length);
  const thin = data.thinning;
  let maxBytes = 0;
  for (const b of data.memory.bytes) maxBytes = Math.max(maxBytes, b);
  const declared = (header.memories ?? []).map((m) => m.maximumBytes);
  const memories = (header.memories ?? []).map((m, k) => {
    const series = data.metrics[`memory:${m.label}`];
    return {
      label: m.label,
      module: m.module ?? null,
      start: m.initialBytes,
      end: series ? series.value[series.value.length - 1] : m.initialBytes,
      maximumBytes: m.maximumBytes,
      census: memoryCensus(data.metrics, k),
    };
  });

  const error = runError(data, ops, run);

  return {
    schema: 'wasm-soak-summary',
    version: 1,
    tool: TOOL, // the tool that wrote this summary
    name: header.target.name,
    status: run.status,
    exitCode: run.exitCode,
    stopReason: run.reason ?? null,
    // Why a leaking run ended early (src/analysis/early-stop.js), else null.
    earlyStop: run.decided ?? null,
    seed: header.seed,
    command: header.command,
    reproduce: header.reproduce,
    target: header.target,
    env: header.env,
    iterations: {
      requested: header.config.iterations,
      // The counter where the run stopped: its start (0, unless a test hook
      // moved it) and every call after it.
      completed: (data.firstIteration ?? 0) + (thin ? thin.iterations : calls + (data.lostCalls ?? 0)),
    },
    durationMs: data.durationMs,
    samples: {
      calls,
      metrics: Object.values(data.metrics).reduce((s, m) => s + m.value.length, 0),
      tornBytes: data.tornBytes,
      backPressureWaits: data.backPressureWaits,
      complete: data.complete,
      capBytes: header.config.maxLogBytes ?? null,
      damage: damageOf(data),
      thinning: thin
        ? {
            capBytes: header.config.maxLogBytes,
            fullIterations: thin.from,
            stride,
          }
        : null,
    },
    error,
    warmup: { method: header.config.warmup === 'auto' ? 'auto' : 'fixed', iterations: warm },
    time: { early: windowRow(early, 0, e.from, e.to), late: windowRow(late, 0, l.from, l.to) },
    ops: ops.map((o, k) => ({
      name: o.name,
      weight: o.weight,
      count: counts[k],
      threw: threw[k],
      time: { early: windowRow(early, k + 1, e.from, e.to), late: windowRow(late, k + 1, l.from, l.to) },
    })),
    memory: {
      start: data.memory.bytes.length ? data.memory.bytes[0] : 0,
      afterWarmup: memoryAt(data.memory, Math.max(0, warm - 1)),
      end: data.memory.bytes.length ? data.memory.bytes[data.memory.bytes.length - 1] : 0,
      max: maxBytes,
      growthEvents,
      declaredMaximum:
        declared.every((d) => d !== null && d !== undefined) && declared.length
          ? declared.reduce((a, b) => a + b, 0)
          : null,
      memories,
      untrackedMemories: run.untrackedMemories ?? 0, // created past the cap of 64 tracked memories
    },
  };
}
