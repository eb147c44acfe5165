// Names of the heap census's series in decoded run data: one census per
// tracked memory (ws_protocol.h, WS_METRIC_CENSUS_STRIDE). Memory 0's series
// keep their plain names (censusLive), memory k's are censusLive@k.

/** The name of census series `name` (e.g. 'censusLive') of tracked memory k. */
export function censusMetric(name, k) {
  return k === 0 ? name : `${name}@${k}`;
}

/**
 * The census series of memory k in metrics, by their plain names
 * ({ censusLive, censusFree, censusKind, censusClass16, … }): only those
 * recorded.
 */
export function censusMetricsOf(metrics, k) {
  if (k === 0) return metrics;
  const suffix = `@${k}`;
  const out = {};
  for (const [name, s] of Object.entries(metrics)) if (name.endsWith(suffix)) out[name.slice(0, -suffix.length)] = s;
  return out;
}
