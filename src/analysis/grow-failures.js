// A memory.grow that failed is a memory-exhausted finding (docs/verdicts.md,
// "Exhaustion"): the module asked for memory and did not get it, whatever
// the memory series shows (a memory that starts at its declared maximum
// never changes size). The loop logs failed grows as growFailed records
// (docs/log-format.md); the decoded run's growFailures holds the first and
// the count. The timed pass sees grows from JS (Memory.prototype.grow), the
// counting pass also those inside the module (its binaryen rewrite).
import { GROW_REASON, WASM32_MAX_BYTES } from '../protocol.js';

const REASON_NAME = Object.fromEntries(Object.entries(GROW_REASON).map(([name, id]) => [id, name]));

/** The declared maximum of a run's memory that the first failure points at, or null when unknown. */
function declaredMaximum(header, memoryBytes) {
  const declared = (header.memories ?? []).filter((m) => m.maximumBytes > 0);
  const fits = declared.filter((m) => m.maximumBytes >= memoryBytes);
  return fits.length === 1 ? fits[0].maximumBytes : declared.length === 1 ? declared[0].maximumBytes : null;
}

/**
 * The memory-exhausted finding of a pass's failed grows, or null when none
 * failed. g: the decoded run's growFailures; header: its log header (ops,
 * memories); pass: 'timed' or 'counting'.
 */
export function growFailedFinding(g, header, pass) {
  if (!g) return null;
  const reason = REASON_NAME[g.reason] ?? 'refused';
  const op = g.op != null ? (header.ops?.[g.op]?.name ?? null) : null;
  const limit = reason === 'wasm32-limit' ? WASM32_MAX_BYTES : declaredMaximum(header, g.memoryBytes);
  return {
    kind: 'memory-exhausted',
    series: 'memory.grow',
    iteration: g.iteration,
    op,
    bytes: g.bytes,
    memoryBytes: g.memoryBytes,
    limitBytes: limit,
    reason,
    failedGrows: g.total,
    pass,
  };
}

/**
 * The findings with the failed grows of the timed pass (timedGrows) or,
 * when it saw none, of the counting pass (countedGrows): a memory-exhausted
 * finding the trend tests already made (a memory that reached its limit)
 * gets failedGrows and the failed grows' facts (grow); else a new one leads.
 */
export function withGrowFailures(findings, header, timedGrows, countedGrows = null) {
  const f = growFailedFinding(timedGrows ?? countedGrows, header, timedGrows ? 'timed' : 'counting');
  if (!f) return findings;
  const at = findings.findIndex((x) => x.kind === 'memory-exhausted');
  if (at < 0) return [f, ...findings];
  const { kind: _, series: __, ...grow } = f;
  const merged = { ...findings[at], failedGrows: f.failedGrows, grow };
  return findings.map((x, i) => (i === at ? merged : x));
}

/**
 * What the summary's sources say of failed grows: which grows were watched
 * and, without a counting pass, the memories that sat at their declared
 * maximum the whole run (initial = maximum), where a memory.grow inside the
 * module fails unseen: { source, atMaximum, enable }.
 */
export function memoryGrowSource(header, counted) {
  const atMaximum = (header.memories ?? [])
    .filter((m) => m.maximumBytes > 0 && m.initialBytes >= m.maximumBytes)
    .map((m) => m.label);
  const source = counted
    ? 'from JS (Memory.prototype.grow) and inside the module (counting pass)'
    : 'from JS (Memory.prototype.grow)';
  const enable =
    !counted && atMaximum.length > 0
      ? `${atMaximum.length > 1 ? 'the memories' : 'the memory'} ${atMaximum.map((l) => `"${l}"`).join(', ')} sat at ${atMaximum.length > 1 ? 'their' : 'its'} declared maximum the whole run: a memory.grow inside the module would fail unseen; --count-allocs reports every one`
      : null;
  return { source, atMaximum, enable };
}
