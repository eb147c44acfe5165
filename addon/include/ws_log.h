/* The sample log reader and the decoded run it fills (docs/log-format.md,
 * docs/architecture.md "Decoded run data"). */
#ifndef WS_LOG_H
#define WS_LOG_H

#include <stddef.h>
#include <stdint.h>

#include "ws_protocol.h"

typedef struct ws_log ws_log;

/* Opens the log at path, validates magic and version and reads its JSON
 * header. On success *out owns an open file and must be closed with
 * ws_log_close. Returns WS_EIO when the file cannot be read, WS_EFORMAT when
 * it is not a version-1 wasm-soak log, WS_ENOMEM. */
int ws_log_open(const char *path, ws_log **out);
/* Returns the NUL-terminated JSON header, owned by log. */
const char *ws_log_header(const ws_log *log);
/* Returns the number of complete records in the file. */
uint64_t ws_log_record_count(const ws_log *log);
/* Returns the bytes of a torn last record (0 when the file ends cleanly). */
uint32_t ws_log_torn_bytes(const ws_log *log);
/* Reads the next record into rec. Returns 1 when a record was read, 0 at the
 * end (a torn tail is not a record), WS_EIO on a read error. */
int ws_log_next(ws_log *log, ws_record *rec);
/* Closes log and frees it; NULL is allowed. */
void ws_log_close(ws_log *log);

/* ---- Decoded run (docs/architecture.md, "Decoded run data") ---- */

typedef struct {
  uint16_t id;
  size_t n, cap;
  double *iter, *t_ms, *value; /* owned by the run */
} ws_metric_series;

typedef struct {
  /* Per-call arrays provided by the caller, each with room for cap_calls. */
  float *elapsed;
  uint16_t *op;
  uint8_t *flags;
  size_t cap_calls;
  size_t calls; /* call records decoded */
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
  uint64_t last_t_ns; /* largest timestamp seen */
  int complete;       /* the end mark was seen */
} ws_run;

/* Packs a call's allocation counters (WS_COUNT_* order) into an allocation
 * record: a = allocs | frees << 32, b = bytes requested, t = live bytes after
 * the call | peak live bytes within it << 32 (wasm32 sizes fit 32 bits). */
void ws_alloc_record(ws_record *rec, uint32_t iteration, uint16_t op,
                     const double *counters);

/* Decodes every remaining record of log into run, whose per-call arrays the
 * caller set up (cap_calls >= ws_log_record_count; the allocation arrays may
 * be NULL to skip allocation records). Metric and memory arrays
 * are allocated here and owned by run until ws_run_free. Returns WS_EFORMAT
 * when call records are out of order, WS_ENOMEM, or WS_EIO. */
int ws_run_decode(ws_log *log, ws_run *run);

/* Frees the arrays ws_run_decode allocated (not the caller's per-call ones)
 * and clears their pointers. */
void ws_run_free(ws_run *run);

#endif
