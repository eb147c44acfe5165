// The protocol between the C core and JavaScript, as the addon exports it
// (addon/include/ws_protocol.h): record layout, record types and flags,
// metric ids, marks, allocation counters, ring control words, worker phases,
// loop statuses, argument kinds and value types, series roles, the heap
// census's allocator kinds, finding kinds in severity order with their gates,
// run statuses and exit codes, the verdict defaults, the log's magic and
// version. No number here is written in JS.
// Also the one decoder of raw records that the main thread uses.
import { addon } from './addon.js';

const c = addon.constants;
const freeze = (o) => Object.freeze({ ...o });

export const RECORD_SIZE = c.recordSize;
export const RECORD_OFFSETS = freeze(c.recordOffsets);
export const RECORD_TYPE = freeze(c.recordType);
export const FLAG = freeze(c.flag);
export const METRIC = freeze(c.metric);
export const METRIC_MEMORY_BASE = c.metricMemoryBase;
/** The census of tracked memory k records its series under the census ids plus k * METRIC_CENSUS_STRIDE. */
export const METRIC_CENSUS_STRIDE = c.metricCensusStride;
/** The memories that get a heap census: the first CENSUS_MEMORIES tracked. */
export const CENSUS_MEMORIES = c.censusMemories;
export const MARK = freeze(c.mark);
export const COUNTER = freeze(c.counter);
export const COUNTER_FIELDS = c.counterFields;
/** What the instrumented allocator reports (its event's kind argument). */
export const ALLOC_EVENT = freeze(c.allocEvent);
/** Allocation sites (ws_protocol.h "Allocation sites"): an event's Int32 fields, frames last. */
export const SITE_EVENT = freeze(c.siteEvent);
export const SITE_EVENT_INTS = c.siteEventInts;
/** Frames a site keeps (innermost first), and the frame past the stack's bottom. */
export const SITE_FRAMES = c.siteFrames;
export const SITE_NO_FRAME = c.siteNoFrame;
/** A site's op outside any call (the scenario's setup, a slow sample). */
export const SITE_NO_OP = c.siteNoOp;
/** A site's key (module, op, frames) and its totals, as sitesSnapshot returns them. */
export const SITE_KEY_INTS = c.siteKeyInts;
export const SITE_VALUE = freeze(c.siteValue);
export const SITE_VALUE_FIELDS = c.siteValueFields;
export const CTL = freeze(c.ctl);
/** What the STOP control word asks of the loop. */
export const STOP_REQUEST = freeze(c.stopRequest);
export const CTL_WORDS = c.ctlWords;
/** Worker phases (the PHASE control word), by name. */
export const PHASE = freeze(c.phase);
export const RING_HEADER_BYTES = c.ringHeaderBytes;
export const STATUS = freeze(c.status);
export const ARG_KIND = freeze(c.argKind);
/** Most argument sources of one raw op (ws_loop.h WS_MAX_PARAMS; a buffer is one). */
export const MAX_PARAMS = c.maxParams;
export const VALUE_TYPE = freeze(c.valueType);
/** Checked outputs' region (ws_protocol.h WS_OUTPUT_*): the call counter's and the values' byte offsets, the fold's prime. */
export const OUTPUT_COUNTER = c.outputCounter;
export const OUTPUT_VALUES = c.outputValues;
export const OUTPUT_FOLD_PRIME = c.outputFoldPrime;
/** Where a raw module's driver stores its memories' sizes in pages and finds the op to call (ws_protocol.h WS_DRIVER_*). */
export const DRIVER_OP = c.driverOp;
export const DRIVER_PAGES = c.driverPages;
export const DRIVER_PAGES_MAX = c.driverPagesMax;
export const ROLE = freeze(c.role);
/** Allocators the heap census recognises (metric censusKind). */
export const CENSUS_KIND = freeze(c.censusKind);
/** Each census kind's description, by id ("dlmalloc, Rust crate layout"). */
export const CENSUS_KIND_TEXT = freeze(c.censusKindText);
/** In-use chunks of [2^k, 2^(k+1)) bytes are metric METRIC_CENSUS_CLASS_BASE + k. */
export const METRIC_CENSUS_CLASS_BASE = c.metricCensusClassBase;
/** The finding kinds that name a verdict, most severe first (a verdict is the most severe finding's kind). */
export const FINDING_KINDS = Object.freeze([...c.findingKinds]);
/**
 * Every finding kind the judge takes, in C's order, with its gate: 'fail-on',
 * 'always', 'against' (a comparison: never the verdict) or 'fails-run'
 * (ws_protocol.h WS_GATES).
 */
export const FINDING_GATE = freeze(c.findingGate);
/** What became of a run, as the judge takes it (src/analysis/judge.js), by name. */
export const RUN_STATUS = freeze(c.runStatus);
/** The exit codes, by name (src/errors.js keeps a copy the command line needs without the addon). */
export const EXIT_CODE = freeze(c.exitCode);
/** Why a run's data could not decide (the verdict "inconclusive"), by name. */
export const UNDECIDED_REASON = freeze(c.undecidedReason);
export const GROWTH_CAUSE = freeze(c.growthCause);
/** What a run shows that is no finding (summary.notes), by name. */
export const NOTE_KIND = freeze(c.noteKind);
/** Largest wasm32 linear memory (4 GiB), decided in C. */
export const WASM32_MAX_BYTES = c.wasm32MaxBytes;
/** The auto warm-up is at most calls / WARMUP_CAP_DIVISOR (a quarter of the run), decided in C. */
export const WARMUP_CAP_DIVISOR = c.warmupCapDivisor;
/** A wasm page (64 KiB). */
export const PAGE_BYTES = c.pageBytes;
// A trend with p at most this is beyond doubt (ws_protocol.h WS_BEYOND_DOUBT_P).
export const BEYOND_DOUBT_P = c.beyondDoubtP;
/** Why a memory.grow failed (a growFailed record's flags), by name. */
export const GROW_REASON = freeze(c.growReason);
/** Defaults of the verdict options (timeThreshold, jsHeapThreshold, memFloorPerCall, memFloorRelative, alpha), decided in C. */
export const VERDICT_DEFAULTS = freeze(c.verdictDefaults);
/** The bootstrap intervals' settings (level, replicates, driftReplicates), decided in C. */
export const BOOTSTRAP = freeze(c.bootstrap);
/** Defaults of the comparison gates (failIfSlower), decided in C. */
export const GATE_DEFAULTS = freeze(c.gateDefaults);
/** The fields of a row of addon.windowStats (n, median, p90, p99), and the row's width. */
export const WINDOW_STAT = freeze(c.windowStat);
export const WINDOW_STAT_FIELDS = c.windowStatFields;
/** The fields of a bucket of addon.decimateBands (first, last, min, max, imax, p10, median, p90), and its width. */
export const BAND = freeze(c.band);
export const BAND_FIELDS = c.bandFields;
/** The fields of a (window, op) cell of addon.decimateOps (median, p90, count), and its width. */
export const OPS_CELL = freeze(c.opsCell);
export const OPS_FIELDS = c.opsFields;
/** Size classes of the heap census (class k: chunks of 2^k to 2^(k+1) bytes). */
export const CENSUS_CLASSES = c.censusClasses;
/** Most memory series one analysis takes. */
export const MAX_SERIES = c.maxSeries;
export const LOG_MAGIC = c.logMagic;
export const LOG_VERSION = c.logVersion;
/** Most records in one block of the log (docs/log-format.md, "Blocks"). */
export const LOG_BLOCK_RECORDS = c.logBlockRecords;

/** Row `row` of an addon.windowStats result as { n, median, p90, p99 }. */
export function windowRow(stats, row) {
  const at = row * WINDOW_STAT_FIELDS;
  return Object.fromEntries(Object.entries(WINDOW_STAT).map(([name, k]) => [name, stats[at + k]]));
}

const U32 = 4294967296;
const { type: T, flags: F, op: O, iteration: I, a: A, b: B, t: TS } = RECORD_OFFSETS;

/**
 * A read-only view of raw records (a Uint8Array holding whole records, e.g. a
 * drained chunk): count, and each field of record i. 64-bit fields come back
 * as Numbers (exact below 2^53, which covers nanoseconds for 104 days and
 * any wasm64 memory size in use).
 */
export function recordView(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u64 = (at) => view.getUint32(at, true) + view.getUint32(at + 4, true) * U32;
  return {
    count: Math.floor(bytes.byteLength / RECORD_SIZE),
    type: (i) => view.getUint8(i * RECORD_SIZE + T),
    flags: (i) => view.getUint8(i * RECORD_SIZE + F),
    op: (i) => view.getUint16(i * RECORD_SIZE + O, true),
    iteration: (i) => view.getUint32(i * RECORD_SIZE + I, true), // its low 32 bits: addon.recordIterations unwraps them
    a: (i) => u64(i * RECORD_SIZE + A),
    b: (i) => u64(i * RECORD_SIZE + B),
    t: (i) => u64(i * RECORD_SIZE + TS),
  };
}
