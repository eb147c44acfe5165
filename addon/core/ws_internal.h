/* Helpers the C core's files share with each other and with nothing else
 * (the ws__ prefix): not part of the public headers in addon/include. */
#ifndef WS_INTERNAL_H
#define WS_INTERNAL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ws_census.h"
#include "ws_log.h"
#include "ws_protocol.h"

/* Internal: decodes one little-endian WS_RECORD_SIZE-byte record (as the
 * ring and the log hold it) from raw into rec. */
void ws__record_decode(const uint8_t *raw, ws_record *rec);

/* Internal: hands out the records ws_log_next would return next, in place
 * and taken as read: *raw points at *n >= 1 whole raw records (valid until
 * the next call on log): the rest of a version-2 log's current block, or
 * every remaining record of a version-1 log. The caller unwraps their
 * iterations with ws__log_track(log) and calls ws__log_seen before the next
 * call. Returns 1, 0 at the end (as ws_log_next), or a negative code. */
int ws__log_span(ws_log *log, const uint8_t **raw, size_t *n);

/* Internal (tests): waits until the log's checker thread (ws_log.c) has
 * gone as far ahead of the reader as it goes, or stopped; returns 1, or 0
 * when the log has none. */
int ws__log_settle(ws_log *log);

/* Internal (tests): holds the log's checker thread (hold 1) where it is,
 * or lets it go on (0); nothing for a log without one. */
void ws__log_hold_checker(ws_log *log, int hold);

/* Internal (tests): how many times the reader overtook the log's checker
 * (which then leaps past it, or stops at the end). */
size_t ws__log_overtaken(ws_log *log);

/* Internal: the log's iteration track, which ws__log_span's caller unwraps
 * the records' iterations with (ws_iteration_next), in order. */
ws_iteration_track *ws__log_track(ws_log *log);

/* Internal: tells log the full iterations of the first and the last record
 * of the span ws__log_span handed out (as ws_log_next would have noted
 * them: the last for ws_log_iteration, the first for a damaged stretch
 * before it). */
void ws__log_seen(ws_log *log, uint64_t first, uint64_t last);

/* Internal: CRC-32C of data[0..n) by the tables alone (ws_crc32c may use the
 * CPU's instruction), so that tests compare the two. */
uint32_t ws__crc32c_portable(const void *data, size_t n);

/* Internal: rearranges a[0..n) (n > 0, k < n) so that a[k] holds the value of
 * rank k, nothing larger before it and nothing smaller after it. */
void ws__select_f32(float *a, size_t n, size_t k);

/* Internal: writes to out[i] the value of rank rank[i] (0-based, < n) among
 * y[0..n) (n > 0; NaN ranks as +infinity, after every number), without
 * reordering y: two passes over it (a histogram of the high 16 bits of
 * the keys, then the keys of the bins the ranks fall in), whatever the
 * ranks. Returns 0 or WS_ENOMEM. */
int ws__order_stats(const float *y, size_t n, const size_t *rank, size_t np, float *out);

/* Internal: maps a float to an unsigned key whose order is the float order,
 * NaN as +infinity (after every number). */
static inline uint32_t ws__float_key(float f) {
  uint32_t u;
  if (f != f)
    f = __builtin_inff();
  memcpy(&u, &f, sizeof u);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

/* Internal: the float whose ws__float_key is k (its inverse). */
static inline float ws__key_float(uint32_t k) {
  uint32_t u = (k & 0x80000000u) ? (k & 0x7fffffffu) : ~k;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* The bins of a float key's 16-bit halves (histograms that find ranks). */
#define WS_HALF_BINS 65536u

/* Interleaved count tables of ws__count_high: times mostly fall in a few
 * bins, and one table would make their increments one chain of dependent
 * additions. */
#define WS_KEY_LANES 4

/* What ws__count_high saw: the lowest and the highest bin counted, the
 * least and the greatest key, and whether every value is a whole number
 * (below 2^31 in size; times decoded from a log always are). */
typedef struct {
  uint32_t lo, hi;
  uint32_t least, most;
  int whole;
} ws_key_span;

/* Internal: counts the high halves of the keys of b[0..n) (0 < n <
 * 2^32) into lanes (WS_KEY_LANES tables of WS_HALF_BINS counts, zero on
 * entry), folded into the first table, the others zero again, and stores
 * what it saw in *span. The caller zeroes lanes[span->lo..span->hi] once
 * done with them. */
void ws__count_high(const float *b, size_t n, uint32_t *lanes, ws_key_span *span);

/* Internal: when the values span counted are whole numbers and bin is
 * narrower than 1 (its values below 256 in size), stores in *value the one
 * value its counted values can have and returns 1; else returns 0. */
int ws__bin_value(const ws_key_span *span, uint32_t bin, float *value);

/* Internal: stores the least and the greatest key of y[0..n) in *least
 * and *most (UINT32_MAX and 0 when n is 0). */
void ws__key_range(const float *y, size_t n, uint32_t *least, uint32_t *most);

/* Internal: returns the index of the first value of y[0..n) whose key is
 * key, or n. */
size_t ws__first_key(const float *y, size_t n, uint32_t key);

/* The bins ws__bin_extremes looks at in one pass. */
#define WS_BIN_SLOTS 4

/* Internal: stores in least[j] and most[j] the least and the greatest key
 * among the values of y[0..n) whose key's high half is bins[j] (UINT32_MAX
 * and 0 when none is; a bin above WS_HALF_BINS - 1 fills an unused slot). */
void ws__bin_extremes(const float *y, size_t n, const uint32_t bins[WS_BIN_SLOTS],
                      uint32_t least[WS_BIN_SLOTS], uint32_t most[WS_BIN_SLOTS]);

/* Whole times (ns) below this have their logarithm kept once computed
 * (ws__log_time's cache). */
#define WS_LOG_CACHE 4096

/* Internal: returns ln(v) for v > 1, else 0 (ln 1; NaN too), taken from
 * cache (WS_LOG_CACHE doubles, 0: not computed yet; ln of a whole v >= 2
 * is never 0) when v is a whole number below WS_LOG_CACHE: times are
 * mostly whole ns, few of them distinct. The same value as log(). */
static inline double ws__log_time(float v, double *cache) {
  if (!(v > 1.0f))
    return 0.0;
  if (v < (float)WS_LOG_CACHE && v == (float)(int)v) {
    double *c = &cache[(int)v];
    return *c != 0.0 ? *c : (*c = log((double)v));
  }
  return log((double)v);
}

/* Internal: a histogram workspace for ws__iq_log_mean, reused across
 * batches by one thread: counts zero between calls. */
typedef struct {
  uint32_t *high;    /* WS_KEY_LANES tables of WS_HALF_BINS counts (ws__count_high) */
  uint32_t *low;     /* 2 tables of WS_HALF_BINS counts: the two rank bins */
  double *log_cache; /* WS_LOG_CACHE */
} ws_iq_work;

/* Internal: allocates w's tables (zeroed); returns 0 or WS_ENOMEM (then
 * nothing is left to free). ws__iq_work_free frees them. */
int ws__iq_work_init(ws_iq_work *w);
void ws__iq_work_free(ws_iq_work *w);

/* Internal: returns the mean of ln (ws__log_time) of the values of ranks
 * n/4 .. n - n/4 - 1 of b[0..n) (n >= 4; NaN ranks last), the batch's
 * interquartile log mean, without reordering b: a histogram of the keys'
 * high halves finds the two bins those ranks fall in; a second pass sums
 * the values between them and counts the two bins' low halves, which
 * place the ranks exactly. */
double ws__iq_log_mean(const float *b, size_t n, ws_iq_work *w);

/* Internal: writes to out[i] the value of rank rank[i] among y[0..n) (NaN
 * as +infinity) as ws__order_stats does, in one pass, when the ranks fall
 * in at most four brackets that a sample of y places them in: returns 1
 * then, 0 when y is short or a bracket missed its rank (the caller finds
 * them otherwise), or WS_ENOMEM. */
int ws__bracketed_ranks(const float *y, size_t n, const size_t *rank, size_t np,
                        float *out);

/* Internal: returns the median (type 7) of a[0..n), n > 0, reordering a. */
double ws__median_f32(float *a, size_t n);

/* Internal: returns the value at fractional rank h (0-based, clamped to
 * [0, m - 1]) of a[0..m), m > 0, interpolating linearly between neighbouring
 * order statistics (type 7 when h = p (m - 1)); reorders a. The one quantile
 * of the core: every quantile and median goes through it. */
double ws__rank_value_f32(float *a, size_t m, double h);

/* Internal: returns 1 when a memory of value bytes, just grown from prev,
 * has reached limit (> 0): the step just taken, or a page when there was
 * none, would not fit again, so a memory.grow of that size fails. */
int ws__at_limit(double prev, double value, double limit);

/* Internal: returns t with P(T > t) = p for Student's T with nu >= 1
 * degrees of freedom, 0 < p <= 0.5 (exact series, bisection to ~1e-12
 * relative; ws_student.c). */
double ws__t_upper_quantile(double p, size_t nu);

/* Internal: qsort comparator of doubles in ascending order (no NaN). */
int ws__compare_doubles(const void *pa, const void *pb);

/* ---- Heap census (addon/core/census) ---- */

/* Internal: the memory a census reads, and its bound on chunks per walk. */
typedef struct {
  const uint8_t *mem;
  uint64_t len;
  uint64_t max_chunks;
  /* While searching: the blocks the walk that failed furthest validated
   * first (ws__walk_failed); NULL when not tracked. */
  uint64_t *reach;
  /* While searching: the lowest address from which the memory is all zero
   * (len when its last byte is not), which no allocator has written yet. */
  uint64_t untouched;
  /* When not NULL, called for every in-use chunk a walk passes, in address
   * order within a segment: the chunk's address and size (header included,
   * as the size classes count it) and its payload's address and usable
   * bytes. A walk that fails may have called it before failing: its calls
   * count only when the walk returns 0. */
  void (*visit)(void *ctx, uint64_t chunk, uint64_t size, uint64_t payload,
                uint64_t payload_bytes);
  void *visit_ctx;
} ws__heap;

/* Internal: a walk failed after validating n blocks: notes n in *h->reach
 * (the furthest so far) and returns -1. */
static inline int ws__walk_failed(const ws__heap *h, uint64_t n) {
  if (h->reach != NULL && n > *h->reach)
    *h->reach = n;
  return -1;
}

/* Internal: the little-endian 32-bit word at h->mem[at..at+4); the caller
 * has checked at + 4 <= h->len. */
static inline uint32_t ws__word(const ws__heap *h, uint64_t at) {
  uint32_t w;
  memcpy(&w, h->mem + at, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  w = __builtin_bswap32(w);
#endif
  return w;
}

/* Internal: the size class of a chunk of size bytes (16 or more, below
 * 2^32): the floor of its log2. A table serves sizes below 1 KiB, which most
 * chunks are: bsr (x86-64 without lzcnt) would chain a walk's steps through
 * its output register. */
static inline unsigned ws__size_class(uint64_t size) {
  static const uint8_t small[64] = {0, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7,
                                    8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8,
                                    9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
                                    9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};
  return size < 1024 ? small[size >> 4] : 31u - (unsigned)__builtin_clz((uint32_t)size);
}

/* Internal: walks the heap census remembers with visitor visit (and its
 * ctx) into *out; when the remembered state no longer validates (or there
 * is none), calls reset(ctx) to forget what the failed walk visited,
 * locates the state (ws_census_take, without the visitor) and walks again.
 * Returns 0, or WS_ENOHEAP when no allocator is recognised (the visitor's
 * calls then count for nothing). */
int ws__census_visit(ws_census *census, const uint8_t *mem, size_t len,
                     void (*visit)(void *ctx, uint64_t chunk, uint64_t size,
                                   uint64_t payload, uint64_t payload_bytes),
                     void (*reset)(void *ctx), void *ctx, ws_census_result *out);

/* Internal: fills out's derived fields (chunks, fragmentation) from its
 * totals. */
void ws__census_finish(ws_census_result *out);

/* Internal: adds tally t into *into (largest: the larger of the two); a
 * walk merges its own into its result's (ws_census_result.tally) once what
 * it counted validated. */
void ws__tally_merge(ws__tally *into, const ws__tally *t);

/* Internal: one allocator family's search for its state in progress:
 * ws_census.c scans static memory word by word and hands each word to the
 * family's try function, which walks the candidates it makes and keeps the
 * best in here. */
#define WS__SEARCH_KEYS 32
typedef struct {
  ws_census census;     /* the best layout so far (kind WS_CENSUS_NONE: none yet) */
  ws_census_result out; /* its census */
  uint64_t scan_end;    /* where the scan stops: lowered to the lowest heap base found */
  uint32_t tried;       /* candidates walked */
  uint32_t n_keys;      /* candidate heaps remembered in keys */
  uint32_t keys[WS__SEARCH_KEYS][6];
  uint32_t best_key[6]; /* the best layout's candidate heap (dlmalloc) */
  uint64_t low;         /* the best layout's lowest heap address (dlmalloc) */
  /* The candidate whose walk validated most blocks before failing: its
   * state's address and those blocks (0: none failed after any). */
  uint64_t miss_at, miss_chunks;
  /* The caller's census, for what a family remembers across censuses
   * (ws_census.bump); trials never carry it. */
  ws_census *owner;
} ws__search;

/* Internal: notes in s a walk of the candidate at state that failed (its
 * reach in *h->reach, which it resets) when it went further than the
 * nearest miss so far. */
void ws__search_missed(const ws__heap *h, ws__search *s, uint64_t state);

/* Internal: walks the candidate trial with walk (its family's) and, when it
 * validates, keeps it in s if it spans more heap than s's best so far (the
 * first wins ties). Counts it in s->tried. Returns 0 when it validated, -1
 * otherwise. */
int ws__search_keep(const ws__heap *h, ws__search *s, const ws_census *trial,
                    int (*walk)(const ws__heap *h, const ws_census *census,
                                ws_census_result *out));

/* Internal: how one allocator family finds and walks its heap: the object
 * ws__<family>_family that its walker file (addon/core/census/ws_<family>.c)
 * defines for the family's row of WS_CENSUS_FAMILIES (ws_protocol.h), which
 * holds its name and kinds. The census driver's table (ws_census.c) holds
 * one a row. */
typedef struct {
  /* Every word at a multiple of step (4 or more) below the scan's end goes
   * to try_word; with pointers_only, only a word that could point into the
   * memory (non-zero, a multiple of 4, at least 16 bytes before its end). */
  uint32_t step;
  int pointers_only;
  /* Examines the word w at address p as the family's state: walks the
   * candidates it makes and keeps the best in s, lowering s->scan_end to
   * the lowest address of its heap (the state lies below its heap). */
  void (*try_word)(const ws__heap *h, uint64_t p, uint32_t w, ws__search *s);
  /* Re-walks the heap from the state census remembers (census->kind is one
   * of its row's kinds). Fills *out (zeroed first; kind and state included)
   * and returns 0 when the heap validates, -1 otherwise. */
  int (*walk)(const ws__heap *h, const ws_census *census, ws_census_result *out);
  /* 1: a last resort, adopted only when no other family proved a heap (its
   * proof is the absence of the others' structures). */
  int fallback;
  /* When not NULL: called with the caller's census after every census the
   * family's walk validated (a re-walk, or the search's pick, adopted into
   * census); notes what the family remembers across censuses and returns 0
   * when the heap is proven, -1 while more censuses must see it (out->reason
   * then says why). */
  int (*settle)(const ws__heap *h, ws_census *census, ws_census_result *out);
} ws__family;

/* Internal: the families' walkers, one a row of WS_CENSUS_FAMILIES. */
#define WS__FAMILY_EXTERN(family, name, sought, kinds)                                   \
  extern const ws__family ws__##family##_family;
WS_CENSUS_FAMILIES(WS__FAMILY_EXTERN, WS_CENSUS_NO_KIND)
#undef WS__FAMILY_EXTERN

#endif
