/* The run so far, bounded: a decimated copy of a running run's records that
 * the main thread keeps so that the progress line's preliminary verdict runs
 * the same analysis as the final one on the data seen so far
 * (src/analysis/live.js, docs/verdicts.md "Preliminary verdict"). Runs on
 * the thread that owns it; not thread-safe. */
#ifndef WS_LIVE_H
#define WS_LIVE_H

#include <stddef.h>
#include <stdint.h>

#include "ws_log.h"
#include "ws_protocol.h"

typedef struct ws_live ws_live;

/* Most points one kept series (the memory step series, each metric) holds;
 * past it, every other point is dropped. */
#define WS_LIVE_SERIES_CAP 2048
/* Most metric ids kept (the rest are ignored). */
#define WS_LIVE_MAX_METRICS 80

/* One kept series. Iterations are in kept-call units (see ws_live_view). */
typedef struct {
  uint16_t id; /* metric id (0 for the memory series) */
  size_t n;
  const double *iter, *t_ms, *value;
} ws_live_series;

/* What has been kept so far. Per-call times are sampled at every stride-th
 * iteration (iterations 0, stride, 2 stride, ...); every iteration in the
 * series is divided by stride, so that the kept calls are iterations 0 ..
 * kept - 1 of a smaller run with the same shape. Pointers stay valid until
 * the next ws_live_add or ws_live_free. */
typedef struct {
  uint64_t calls;        /* call records seen */
  uint64_t stride;       /* a power of two */
  size_t kept;           /* per-call times kept */
  const float *elapsed;  /* elapsed[j]: ns of call j * stride */
  const uint8_t *flags;  /* flags[j]: that call's record flags (WS_FLAG_*) */
  ws_live_series memory; /* total tracked memory: iteration 0 and every change */
  size_t n_metrics;
  const ws_live_series *metrics;  /* in order of first sight */
  uint64_t last_t_ns;             /* largest timestamp seen */
  ws_grow_failures grow_failures; /* the failed memory.grow calls seen */
} ws_live_view;

/* Creates an empty copy that keeps at most capacity per-call times
 * (capacity even, >= 16). On success *out owns it (ws_live_free). Returns 0,
 * WS_EINVAL for a bad capacity, WS_ENOMEM. */
int ws_live_create(size_t capacity, ws_live **out);

/* Adds n little-endian records from bytes (as the ring holds them,
 * WS_RECORD_SIZE bytes each) in the order they were written: call records
 * (their time and memory), metric records, failed grows, iteration marks
 * (their full iterations, counted from the first call's); other records are
 * ignored. When
 * the per-call buffer is full, every other kept time is dropped and the
 * stride doubles; a series at WS_LIVE_SERIES_CAP points drops every other
 * point (the first stays; the new one is added). O(1) amortised per record, no
 * allocation after a metric id's first sight. Returns 0, WS_EFORMAT for a
 * call record out of order (nothing after it is added), WS_ENOMEM. */
int ws_live_add(ws_live *l, const uint8_t *bytes, size_t n);

/* Fills v with what has been kept (see ws_live_view). */
void ws_live_get(ws_live *l, ws_live_view *v);

/* Frees l; NULL is allowed. */
void ws_live_free(ws_live *l);

#endif
