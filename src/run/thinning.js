// The thinning of a capped log (docs/log-format.md, "Thinned logs"), in one
// place: the plan (which stride, from when) is here, and the one filter it
// drives is C's (addon/core/ws_thin.c through addon.logThin*: one seeded
// call per block of 2^shift iterations, per-op summaries of every call,
// fewer metrics), called from nowhere else. The plan: every record until
// half the cap is used, then windows of doubling length (the calls so far,
// then twice as many, …), each with an eighth of the budget left, at the
// stride that fits it; a window that spends its budget early doubles the
// stride again, and a chunk that alone holds more than its window's share
// (a fast export's drain against a small cap) raises it until the chunk
// fits. The cap is never passed: past it (less a reserve) only marks,
// summaries and failed grows are written. The plan's state is one object
// (createThinning), its steps small functions over it.
import { addon } from '../addon.js';
import { LOG_BLOCK_RECORDS, RECORD_SIZE, RECORD_TYPE } from '../protocol.js';

/** Bytes kept free below the cap for the records that end a run (marks, summaries). */
export const RESERVE_BYTES = 256 * 1024;
/** Share of the budget left that each doubling window may spend. */
export const WINDOW_SHARE = 1 / 8;

/** Bytes that n records add to the log, block headers included. */
export const cost = (n) => (n + Math.ceil(n / LOG_BLOCK_RECORDS)) * RECORD_SIZE;

/**
 * The least shift (at least 1) at which iterations more calls, at
 * perIteration bytes each, fit budget; an empty budget needs the longest
 * (ws_thin caps it).
 */
export function neededShift(iterations, perIteration, budget) {
  const ratio = (iterations * perIteration) / budget; // NaN when both are 0
  return ratio > 2 ? Math.ceil(Math.log2(ratio)) : 1;
}

/**
 * How many of chunk's records are written whole before thinning starts,
 * given the bytes written: those that fit half of maxBytes, ending before a
 * call (the metrics and marks after a call stay with it).
 */
export function wholePrefix(chunk, written, maxBytes) {
  const n = chunk.length / RECORD_SIZE;
  const fits = (k) => written + 2 * cost(k) <= maxBytes / 2;
  // The most that fit, found in log2(n) steps (cost rises with k): a drain
  // long before the cap, the common case, costs one test, not one per record.
  let whole = 0;
  if (fits(n)) whole = n;
  else
    for (let step = 2 ** Math.floor(Math.log2(Math.max(1, n))); step >= 1; step /= 2)
      if (whole + step < n && fits(whole + step)) whole += step;
  while (whole > 0 && whole < n && chunk[whole * RECORD_SIZE] !== RECORD_TYPE.call) whole--;
  return whole;
}

/**
 * At the cap: moves to the front of buf the first kept records that still
 * go in (marks always, the end of the run; per-op summaries and failed
 * grows while the cap holds them); the thinned calls and metrics are
 * dropped. Returns how many were kept.
 */
export function keepAtCap(buf, kept, written, maxBytes) {
  let left = 0;
  for (let k = 0; k < kept; k++) {
    const type = buf[k * RECORD_SIZE];
    const lasting = type === RECORD_TYPE.mark || type === RECORD_TYPE.summary || type === RECORD_TYPE.growFailed;
    if (!lasting || (type !== RECORD_TYPE.mark && written + cost(left + 1) > maxBytes)) continue;
    buf.copyWithin(left * RECORD_SIZE, k * RECORD_SIZE, (k + 1) * RECORD_SIZE);
    left++;
  }
  return left;
}

/**
 * The first iteration of chunk's calls: its first call's, else the one after
 * the last record's (metrics and marks carry the call they follow). Called
 * once per chunk, in order: it tracks the records' full iterations in s.
 */
function firstIteration(s, chunk) {
  const { firstCall, last } = addon.recordIterations(chunk, s.near);
  s.near = last;
  if (s.origin === null && firstCall >= 0) s.origin = firstCall;
  return firstCall >= 0 ? firstCall : last + 1;
}

/** Raises s's stride to 2^to from iteration from (ws_thin may cap it). */
function raise(s, to, from) {
  s.shift = addon.logThinShift(s.thin, to, from);
}

/** A budget of an eighth of what is left below the cap, from written bytes on. */
function startBudget(s, written) {
  s.windowBytes = written;
  s.budget = Math.max(0, s.maxBytes - RESERVE_BYTES - written) * WINDOW_SHARE;
}

/** Starts thinning at iteration first (the calls so far set the bytes per iteration). */
function start(s, first, written, n) {
  s.thin = addon.logThinCreate(s.seed, s.ops);
  s.full = first;
  // Bytes per iteration so far, or this chunk's when it alone crosses half the cap.
  s.perIteration = first > s.origin ? written / (first - s.origin) : cost(n) / n;
  s.windowEnd = s.origin + 2 * Math.max(1, first - s.origin);
  startBudget(s, written);
  raise(s, neededShift(s.windowEnd - first, s.perIteration, s.budget), first);
}

/** Sets the stride for a chunk of n records from iteration first. */
function pace(s, first, written, n) {
  if (first >= s.windowEnd) {
    // The next window: as long as the run so far, an eighth of what is left.
    s.windowEnd = s.origin + 2 * (first - s.origin);
    startBudget(s, written);
    raise(s, neededShift(s.windowEnd - first, s.perIteration, s.budget), first);
  } else if (written - s.windowBytes > s.budget) {
    // This window spent its share early: half as many calls from here on.
    startBudget(s, written);
    raise(s, s.shift + 1, first);
  }
  // A chunk alone may hold more than its window's whole share: a longer stride from its first call.
  while (cost(Math.ceil(n / 2 ** s.shift)) > s.budget) {
    const was = s.shift;
    raise(s, s.shift + 1, first);
    if (s.shift === was) break; // the longest stride ws_thin takes
  }
}

/** An output buffer of s for the filter's records out of n. */
function room(s, n) {
  const bytes = addon.logThinRoom(s.thin, n);
  if (!s.out || s.out.length < bytes) s.out = new Uint8Array(bytes);
  return s.out;
}

/** The records of chunk to write once thinning has started (or starts with it). */
function thinned(s, chunk, written) {
  const n = chunk.length / RECORD_SIZE;
  const first = firstIteration(s, chunk);
  if (!s.thin) start(s, first, written, n);
  pace(s, first, written, n);
  const buf = room(s, n);
  const kept = addon.logThin(s.thin, chunk, buf);
  if (written + cost(kept) <= s.maxBytes - RESERVE_BYTES / 2) return buf.subarray(0, kept * RECORD_SIZE);
  const left = keepAtCap(buf, kept, written, s.maxBytes);
  s.dropped += n - left;
  return buf.subarray(0, left * RECORD_SIZE);
}

/**
 * The thinning of a log capped at maxBytes (records only, the header
 * excluded), seeded as the run, with ops ops: filter(chunk, written) -> the
 * pieces of chunk to write, kept (what was kept, for the summary), finish()
 * (the summaries still open).
 */
export function createThinning({ maxBytes, seed, ops }) {
  const s = {
    maxBytes,
    seed,
    ops,
    thin: null, // the C filter, once thinning started
    shift: 0, // the stride is 2^shift
    out: null, // the filter's output buffer, reused
    full: 0, // iterations logged in full
    perIteration: 0, // bytes per iteration while everything was logged
    windowEnd: 0,
    windowBytes: 0, // bytes written when the window started
    budget: 0,
    dropped: 0, // records dropped at the cap
    near: 0, // the full iteration of the last record filtered (records carry its low 32 bits)
    origin: null, // the run's first call: 0, unless a test hook started the counter elsewhere
  };
  return {
    /**
     * The pieces of chunk (whole raw records) to write, in order, given the
     * bytes written so far: before thinning starts, the records that still
     * fit half the cap are written whole, so a first drain that alone
     * crosses it (a main thread a loaded machine kept from draining) still
     * leaves a full prefix of calls.
     */
    filter(chunk, written) {
      if (s.thin) return [thinned(s, chunk, written)];
      const whole = wholePrefix(chunk, written, maxBytes);
      if (whole === chunk.length / RECORD_SIZE) {
        firstIteration(s, chunk);
        return [chunk];
      }
      if (whole === 0) return [thinned(s, chunk, written)];
      const head = chunk.subarray(0, whole * RECORD_SIZE);
      firstIteration(s, head);
      return [head, thinned(s, chunk.subarray(whole * RECORD_SIZE), written + cost(whole))];
    },
    /** What the plan kept: null when it never thinned. */
    get kept() {
      return s.thin ? { fullIterations: s.full, stride: 2 ** s.shift, droppedAtCap: s.dropped } : null;
    },
    /** The summaries still open, to write before the log closes. */
    finish() {
      if (!s.thin) return null;
      const buf = room(s, 0);
      return buf.subarray(0, addon.logThinFinish(s.thin, buf) * RECORD_SIZE);
    },
  };
}
