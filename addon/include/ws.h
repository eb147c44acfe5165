/* wasm-soak C core: records, the shared ring, the clock, the seeded RNG and
 * the log reader. Nothing here includes node_api.h; binding*.c adapts it to
 * Node-API. Functions return 0 or a negative WS_E* code unless stated. */
#ifndef WS_H
#define WS_H

#include <stddef.h>
#include <stdint.h>

/* Error codes (negative errno values where one fits). */
#define WS_EINVAL (-22)    /* an argument or a file's content is invalid */
#define WS_ENOMEM (-12)    /* an allocation failed */
#define WS_EIO (-5)        /* reading a file failed */
#define WS_EFORMAT (-1001) /* not a wasm-soak log, or an unknown version */

/* Returns a static, human-readable description of code. */
const char *ws_strerror(int code);
/* Returns the symbolic name of code ("WS_EINVAL"), or "WS_EUNKNOWN". */
const char *ws_errname(int code);

/* ---- Records (docs/log-format.md) ---- */

enum { WS_REC_CALL = 1, WS_REC_METRIC = 2, WS_REC_MARK = 3, WS_REC_ALLOC = 4 };

/* Allocation counters of one call (counting pass), as the host keeps them. */
enum {
  WS_COUNT_ALLOCS = 0,
  WS_COUNT_FREES = 1,
  WS_COUNT_BYTES = 2,
  WS_COUNT_LIVE = 3,
  WS_COUNT_PEAK = 4,
  WS_COUNT_FIELDS = 5
};
enum { WS_FLAG_GREW = 1, WS_FLAG_THREW = 2, WS_FLAG_ASYNC = 4 };
enum {
  WS_METRIC_RSS = 1,
  WS_METRIC_JS_HEAP = 2,
  WS_METRIC_LIVE_BYTES = 3,
  WS_METRIC_HEAP_BYTES = 4,
  WS_METRIC_MEMORY_BASE = 256
};
enum { WS_MARK_BACKPRESSURE = 1, WS_MARK_MEMORY_TRACKED = 2, WS_MARK_END = 3 };

typedef struct {
  uint8_t type;
  uint8_t flags;
  uint16_t op;
  uint32_t iteration;
  uint64_t a;
  uint64_t b;
  uint64_t t;
} ws_record;

#define WS_RECORD_SIZE 32

/* ---- Clock ---- */

/* Returns the monotonic clock in nanoseconds (CLOCK_MONOTONIC). */
uint64_t ws_now_ns(void);

/* The loop's stopwatch. On x86-64 with an invariant TSC it reads the time
 * stamp counter (about 10 ns, against about 24 ns for clock_gettime here),
 * calibrated against CLOCK_MONOTONIC; elsewhere it reads CLOCK_MONOTONIC. */
typedef struct {
  int tsc;            /* 1 when ticks are TSC cycles, 0 when nanoseconds */
  double ns_per_tick; /* 1.0 without the TSC */
  uint64_t tick0;     /* ticks at ws_clock_init */
} ws_clock;

/* Chooses the source and, for the TSC, calibrates it against CLOCK_MONOTONIC
 * over about 20 ms (relative error near 1e-6). */
void ws_clock_init(ws_clock *clock);

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

/* Returns the current tick count of clock's source. */
static inline uint64_t ws_clock_ticks(const ws_clock *clock) {
#if defined(__x86_64__)
  if (clock->tsc)
    return __rdtsc();
#endif
  (void)clock;
  return ws_now_ns();
}

/* Converts a tick interval to nanoseconds. */
static inline uint64_t ws_clock_ns(const ws_clock *clock, uint64_t ticks) {
  return clock->tsc ? (uint64_t)((double)ticks * clock->ns_per_tick + 0.5) : ticks;
}

/* ---- Ring (docs/architecture.md) ---- */

enum {
  WS_CTL_WRITE = 0,
  WS_CTL_READ = 1,
  WS_CTL_CAPACITY = 2,
  WS_CTL_STOP = 3,
  WS_CTL_ITERATION = 4,
  WS_CTL_WAITING = 5,
  WS_CTL_WORDS = 16
};
#define WS_RING_HEADER_BYTES (WS_CTL_WORDS * 4)

typedef struct {
  int32_t *ctl;      /* control words, shared with the consumer */
  ws_record *slots;  /* capacity records, shared with the consumer */
  uint32_t capacity; /* a power of two */
} ws_ring;

/* Attaches ring to a shared region of bytes bytes whose capacity word was set
 * by its creator. The region stays owned by the caller and must outlive ring.
 * Returns WS_EINVAL when the region is misaligned, the capacity is not a power
 * of two or does not fit. */
int ws_ring_attach(ws_ring *ring, void *region, size_t bytes);

/* Returns the bytes a region for capacity records needs. */
size_t ws_ring_region_bytes(uint32_t capacity);

/* Appends rec, waiting while the ring is full until the consumer frees a
 * slot (back-pressure: never drops). Returns the nanoseconds spent waiting
 * (0 when a slot was free at once). The runner avoids this wait by
 * checking ws_ring_free_slots first and letting JS wait instead; this is the
 * fallback that guarantees no record is ever dropped. */
uint64_t ws_ring_push(ws_ring *ring, const ws_record *rec);

/* Consumer side (used by tests and benchmarks; the real consumer is JS):
 * copies up to max published records into out, frees their slots and
 * returns how many were copied. */
size_t ws_ring_pop(ws_ring *ring, ws_record *out, size_t max);

/* Returns the number of free slots (the producer's view). */
uint32_t ws_ring_free_slots(const ws_ring *ring);

/* Returns 1 when the consumer asked the producer to stop, else 0. */
int ws_ring_stop_requested(const ws_ring *ring);

/* ---- Seeded random numbers (xoshiro256**, seeded by splitmix64) ---- */

typedef struct {
  uint64_t s[4];
} ws_rng;

/* Seeds rng deterministically from seed (any value, 0 included). */
void ws_rng_seed(ws_rng *rng, uint64_t seed);
/* Returns the next 64 random bits. */
uint64_t ws_rng_next(ws_rng *rng);
/* Returns a uniform integer in [lo, hi] (inclusive), without modulo bias.
 * Requires lo <= hi. */
uint64_t ws_rng_range(ws_rng *rng, uint64_t lo, uint64_t hi);
/* Fills buf[0..len) with random bytes. */
void ws_rng_fill(ws_rng *rng, uint8_t *buf, size_t len);
/* Picks an index in [0, n) with probability proportional to its weight, given
 * cumulative[i] = sum of weights 0..i (all > 0, strictly increasing). */
uint32_t ws_rng_pick(ws_rng *rng, const uint64_t *cumulative, uint32_t n);

/* ---- Log reader (docs/log-format.md) ---- */

#define WS_LOG_MAGIC "WASMSOAK"
#define WS_LOG_VERSION 1u

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

/* ---- Summary statistics ---- */

/* Computes [n, median, p90, p99] of elapsed[from..to) for all calls (row 0)
 * and for each op k < n_ops (row k + 1) into out[(n_ops + 1) * 4]. Returns 0,
 * WS_EINVAL for a bad window, WS_ENOMEM. */
int ws_window_stats(const float *elapsed, const uint16_t *op, size_t from, size_t to,
                    uint32_t n_ops, double *out);

/* ---- Process memory ---- */

/* Opens /proc/self/statm for repeated reads; returns the descriptor, or -1
 * where it does not exist (not Linux). Close it with close(). */
int ws_rss_open(void);

/* Reads the resident set size through fd into *bytes. Returns 0, WS_EIO or
 * WS_EFORMAT. About 3 µs: cheaper than going through JS each slow sample. */
int ws_rss_read(int fd, uint64_t *bytes);

#endif
