/* The sample log reader and the decoded run it fills (docs/log-format.md,
 * docs/architecture.md "Decoded run data"). */
#ifndef WS_LOG_H
#define WS_LOG_H

#include <stddef.h>
#include <stdint.h>

#include "ws_protocol.h"

typedef struct ws_log ws_log;

/* ---- Iterations past 2^32 (docs/log-format.md, "Iterations") ---- */

/* Returns the iteration whose low 32 bits are low nearest to near (serial
 * number arithmetic): near plus the difference low - near's low 32 bits taken
 * as a signed 32-bit number, or low itself where that would fall below 0.
 * Exact when the iteration is within 2^31 of near. */
uint64_t ws_iteration_near(uint64_t near, uint32_t low);

/* The full iterations of records read in log (or ring) order: the last
 * record's, from which the next one is unwrapped. Zero-initialise it. */
typedef struct {
  uint64_t last;
} ws_iteration_track;

/* Returns the full iteration of rec, the record after those tracked so far:
 * an iteration mark's a; a summary record's, unwrapped without moving on (it
 * names a block already past); any other's, unwrapped, becoming the last. */
uint64_t ws_iteration_next(ws_iteration_track *tr, const ws_record *rec);

/* Tracks the n raw records at bytes (ws_iteration_next) and stores the full
 * iterations of the first and the last call record among them in *first_call
 * and *last_call (-1: no call record). */
void ws_iteration_scan(ws_iteration_track *tr, const uint8_t *bytes, size_t n,
                       int64_t *first_call, int64_t *last_call);

/* A damaged stretch of a version-2 log: bytes that are not intact blocks,
 * between two intact ones (or the end of the file). */
typedef struct {
  uint64_t offset;          /* file offset where the damage starts */
  uint64_t bytes;           /* its length */
  uint64_t records;         /* records lost in it */
  int records_estimated;    /* 1: no intact block follows, records = bytes / 32 */
  int64_t after_iteration;  /* iteration of the last record before it, -1: none */
  int64_t before_iteration; /* iteration of the first record after it, -1: none */
} ws_log_damage;

/* Opens the log at path, validates magic and version (WS_LOG_OLDEST_VERSION
 * to WS_LOG_VERSION) and reads its JSON header. On success *out owns the
 * file's read-only mapping, up to its size now (it must not be cut shorter
 * while open: reading a page past its end raises SIGBUS), and a checker
 * thread for a long version-2 log; close it with ws_log_close. Returns WS_EIO when the
 * file cannot be read, WS_EFORMAT when it is not a wasm-soak log of a known version,
 * WS_ENOMEM. */
int ws_log_open(const char *path, ws_log **out);
/* Opens a log held in memory: data[0..len), the bytes a log file would
 * hold, read exactly as ws_log_open reads a file. data is not copied: it
 * must stay valid and unchanged until ws_log_close. Returns WS_EFORMAT when
 * it is not a wasm-soak log of a known version, WS_ENOMEM. */
int ws_log_open_memory(const void *data, size_t len, ws_log **out);
/* Returns the log's format version. */
uint32_t ws_log_version(const ws_log *log);
/* Returns the NUL-terminated JSON header, owned by log. */
const char *ws_log_header(const ws_log *log);
/* Returns an upper bound on the records ws_log_next returns (exact for a
 * version-1 log: its complete records). */
uint64_t ws_log_record_count(const ws_log *log);
/* Returns the full iteration (ws_iteration_next) of the record ws_log_next
 * returned last. */
uint64_t ws_log_iteration(const ws_log *log);
/* Returns the bytes of a torn last record (0 when the file ends cleanly),
 * known once ws_log_next returned 0. */
uint32_t ws_log_torn_bytes(const ws_log *log);
/* Reads the next intact record into rec, skipping damaged stretches (each
 * one noted, see ws_log_damage_at) and resynchronising on the next intact
 * block. Returns 1 when a record was read, 0 at the end (a torn tail is not
 * a record), WS_EIO on a read error, WS_ENOMEM. */
int ws_log_next(ws_log *log, ws_record *rec);
/* Returns the number of damaged stretches found so far. */
size_t ws_log_damage_count(const ws_log *log);
/* Returns damaged stretch i (< ws_log_damage_count), owned by log. */
const ws_log_damage *ws_log_damage_at(const ws_log *log, size_t i);
/* Closes log and frees it; NULL is allowed. */
void ws_log_close(ws_log *log);

/* Returns the CRC-32C (Castagnoli) of data[0..n). */
uint32_t ws_crc32c(const void *data, size_t n);

/* Fills out with the header of a block of n records (1 <= n <=
 * WS_LOG_BLOCK_RECORDS) at records (n * WS_RECORD_SIZE bytes): the sync
 * marker, n, the records' CRC-32C, index (records in the log before this
 * block), seq (blocks before it) and the header's own CRC-32C. */
void ws_log_block_header(uint8_t out[WS_RECORD_SIZE], const void *records, uint32_t n,
                         uint64_t index, uint32_t seq);

/* ---- Thinning (docs/log-format.md, "Thinned logs") ---- */

typedef struct ws_thin ws_thin;

/* Returns the iteration kept of aligned block `block` of 2^shift iterations:
 * a seeded choice, nested (the survivor at shift + 1 is one of the two
 * survivors at shift of its halves). */
uint64_t ws_thin_survivor(uint64_t seed, unsigned shift, uint64_t block);

/* The survivor of the block asked for last (ws_thin_survivor_cached); zeroed: empty. */
typedef struct {
  uint64_t block, survivor;
  unsigned shift; /* 0: empty (at shift 0 a block is its own survivor) */
} ws_survivor_cache;

/* Returns ws_thin_survivor(seed, shift, block), computed only when block or
 * shift differs from the last asked through c (seed must not change): the
 * calls of a thinned log come block by block, 2^shift to a block, and a
 * survivor costs 2 * shift hashes. */
uint64_t ws_thin_survivor_cached(ws_survivor_cache *c, uint64_t seed, unsigned shift,
                                 uint64_t block);
/* Creates a thinning filter for a run of n_ops ops seeded with seed, at
 * shift 0 (everything kept). Returns 0 or WS_ENOMEM; free with
 * ws_thin_free. */
int ws_thin_create(uint64_t seed, uint32_t n_ops, ws_thin **out);
/* Raises the stride to 2^shift (shift <= 31; a lower one is ignored) from
 * iteration from on; the next filter call writes a THINNED mark first. The
 * first raise also tells the filter the full iteration its records start
 * near (it unwraps their low 32 bits from there). */
void ws_thin_set_shift(ws_thin *t, unsigned shift, uint64_t from);
/* Returns the current shift. */
unsigned ws_thin_shift(const ws_thin *t);
/* Returns room, in records, that ws_thin_filter needs in out for n records:
 * n + 1 + n_ops * (n / 64 + 2). */
size_t ws_thin_out_records(const ws_thin *t, size_t n);
/* Filters n raw records at in into out (room: ws_thin_out_records): at shift
 * 0 a copy; else each call's survivor of its block, metrics once per 16
 * blocks per id, the allocation and failed-grow records of a kept call (and
 * the first failed-grow record), every mark, and
 * summary records of blocks of 64 strides. Returns the records written. */
size_t ws_thin_filter(ws_thin *t, const uint8_t *in, size_t n, uint8_t *out);
/* Writes the summaries of the calls not yet summed up (room: n_ops
 * records); returns the records written. */
size_t ws_thin_finish(ws_thin *t, uint8_t *out);
/* Frees t; NULL is allowed. */
void ws_thin_free(ws_thin *t);

/* ---- Decoded run (docs/architecture.md, "Decoded run data") ---- */

typedef struct {
  uint16_t id;
  size_t n, cap;
  double *iter, *t_ms, *value; /* owned by the run */
  uint64_t bucket;             /* thinned logs: the last sample's block of 16 strides */
} ws_metric_series;

/* The failed memory.grow calls of a run, from its GROW_FAILED records: the
 * run's count (the largest running count seen, exact up to the last record
 * kept), the records (calls with a failure, and failures outside calls) and
 * the first one. */
typedef struct {
  uint64_t total, records;
  uint64_t first_iteration;
  uint16_t first_op;               /* WS_NO_OP outside a call */
  uint8_t first_reason;            /* WS_GROW_* */
  double first_asked, first_bytes; /* bytes asked for, the memory's bytes then */
} ws_grow_failures;

/* Adds rec (a GROW_FAILED record of full iteration `iteration`, as
 * ws_iteration_next gives it) to g (zeroed before the first). */
void ws_grow_failures_add(ws_grow_failures *g, const ws_record *rec, uint64_t iteration);

typedef struct {
  /* Per-call arrays provided by the caller, each with room for cap_calls. */
  float *elapsed;
  uint16_t *op;
  uint8_t *flags;
  size_t cap_calls;
  size_t calls; /* call records decoded */
  /* Calls missing between decoded ones (a damaged stretch of the log): the
   * per-call arrays hold the intact calls in order, without gaps. */
  uint64_t lost_calls;
  /* Where the gaps are: call gap_index[k] (an index into the per-call
   * arrays) has iteration gap_iter[k]; later calls follow it one by one. */
  double *gap_index, *gap_iter;
  size_t n_gaps, cap_gaps;
  /* Total tracked memory as a step series: iteration 0 and every change. */
  double *mem_iter, *mem_bytes;
  size_t n_mem, cap_mem;
  ws_metric_series *metrics; /* one per metric id seen, in order of first sight */
  size_t n_metrics;
  /* Allocation records (counting pass), per call; NULL when not wanted. */
  uint32_t *allocs, *frees;
  double *alloc_bytes, *live, *peak;
  size_t alloc_records;
  uint64_t backpressure_waits, backpressure_ns;
  ws_grow_failures grow_failures;
  uint64_t last_t_ns; /* largest timestamp seen */
  int complete;       /* the end mark was seen */
  /* Thinned logs: the caller sets thinnable (and thin_seed, the run's seed)
   * before decoding when the log may be thinned (its header has a cap);
   * the decode then reads its THINNED marks as it goes, in the one pass:
   * thin_shift is the largest (0: not thinned) and thin_from the iteration
   * the first applies from. The per-call arrays then hold one call per
   * aligned block of 2^thin_shift iterations (ws_thin_survivor; each kept
   * call noted as a gap), slow metrics one sample per 16 blocks per series,
   * and every call is counted per op in op_calls, op_threw (calls before
   * thin_from from their records, later ones from summary records) and
   * growth_events. */
  int thinnable;
  unsigned thin_shift;
  uint64_t thin_seed;
  uint64_t thin_from;
  /* The run's first iteration: an iteration mark's before any call record
   * (a counter started past 0, a test hook), else 0. The per-call arrays
   * start there; the first call is noted as a gap when it is not 0. */
  uint64_t first_iteration;
  double *op_calls, *op_threw; /* per op index, n_op_totals of them */
  size_t n_op_totals;
  uint64_t growth_events;
  ws_survivor_cache survivor; /* the decode's own */
} ws_run;

/* Packs a call's allocation counters (WS_COUNT_* order) into an allocation
 * record: a = allocs | frees << 32, b = bytes requested, t = live bytes after
 * the call | peak live bytes within it << 32 (wasm32 sizes fit 32 bits). */
void ws_alloc_record(ws_record *rec, uint64_t iteration, uint16_t op,
                     const double *counters);

/* Decodes every remaining record of log into run, in one pass over it
 * (a thinnable log's strides included), whose per-call arrays the
 * caller set up (cap_calls >= ws_log_record_count; the allocation arrays may
 * be NULL to skip allocation records). Metric and memory arrays
 * are allocated here and owned by run until ws_run_free. Returns WS_EFORMAT
 * when call records are out of order, WS_ENOMEM, or WS_EIO. */
int ws_run_decode(ws_log *log, ws_run *run);

/* Frees the arrays ws_run_decode allocated (not the caller's per-call ones)
 * and clears their pointers. */
void ws_run_free(ws_run *run);

#endif
