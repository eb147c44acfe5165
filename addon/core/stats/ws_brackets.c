/* A few order statistics of many values in one pass (ws__bracketed_ranks in
 * ws_internal.h): a sample of the values, evenly spaced, brackets each rank
 * between two sample values wide enough to hold it with near certainty; the
 * pass counts the values below, at and between each bracket's ends (four
 * values at a time, GCC's vector extension) and keeps the few strictly
 * between them, among which the rank is selected. Whole times fall on a
 * few values: a rank then lands on a bracket's end, counted, never kept.
 * About 1 ns a value against 4 for the histograms' two passes.
 * A bracket that misses its rank gives the caller back the work (the
 * histograms of ws__order_stats), so the result is always exact. */
#include <math.h>
#include <stdlib.h>

#include "ws_internal.h"
#include "ws_stats.h"

/* Sample size; the fewest values worth bracketing (below, the histograms
 * cost less than sampling). */
#define SAMPLE 16384u
#define MIN_VALUES 65536u
/* A bracket spans this many standard deviations of a sample quantile on
 * each side of the rank's place in the sample, and two sample values more. */
#define SPREAD 4.0
/* Brackets one pass takes (ranks sharing a bracket count once). */
#define SLOTS 4

/* Signed keys: the float order as int32 order (ws__float_key ^ 2^31), so
 * that SSE2's signed compares order them. */
typedef int32_t skey4 __attribute__((vector_size(16)));

/* The signed keys of y[0..4) (NaN as +infinity). */
static inline skey4 skeys_of(const float *y) {
  skey4 u;
  memcpy(&u, y, sizeof u);
  skey4 nan = (u & 0x7fffffff) > 0x7f800000;
  u = (u & ~nan) | (0x7f800000 & nan);
  return u ^ ((u >> 31) & 0x7fffffff);
}

static inline int32_t skey_of(float f) {
  return (int32_t)(ws__float_key(f) ^ 0x80000000u);
}

/* One bracket: its ends, the counts of values below lo, at most lo, below
 * hi and at most hi, and the values strictly between (room for `room`). */
typedef struct {
  int32_t lo, hi;
  size_t lt_lo, le_lo, lt_hi, le_hi;
  float *between;
  size_t n_between, room;
} bracket;

static int int32_cmp(const void *pa, const void *pb) {
  int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
  return (a > b) - (a < b);
}

/* Keeps the lanes of k that `in` marks in b (0 when it has no room left). */
static int keep(bracket *b, skey4 k, skey4 in) {
  for (int l = 0; l < 4; l++)
    if (in[l]) {
      if (b->n_between == b->room)
        return 0;
      b->between[b->n_between++] = ws__key_float((uint32_t)k[l] ^ 0x80000000u);
    }
  return 1;
}

/* Counts y[0..n) against the brackets b[0..nb) (nb <= SLOTS). Returns 1, or
 * 0 when a bracket held more values between its ends than it has room
 * for. */
static int count_pass(const float *y, size_t n, bracket *b, int nb) {
  skey4 lo[SLOTS], hi[SLOTS], c[SLOTS][4];
  for (int j = 0; j < SLOTS; j++) {
    lo[j] = (skey4){0} + (j < nb ? b[j].lo : INT32_MAX);
    hi[j] = (skey4){0} + (j < nb ? b[j].hi : INT32_MAX);
    for (int q = 0; q < 4; q++)
      c[j][q] = (skey4){0};
  }
  size_t i = 0;
  /* Lane counts stay below 2^31: the pass folds them every 2^30 values. */
  while (i + 4 <= n) {
    size_t stop = n - (n - i) % 4;
    if (stop - i > ((size_t)1 << 30))
      stop = i + ((size_t)1 << 30);
    for (; i < stop; i += 4) {
      skey4 k = skeys_of(y + i), any = (skey4){0};
      for (int j = 0; j < nb; j++) {
        skey4 le_lo = ~(k > lo[j]), lt_hi = hi[j] > k;
        c[j][0] -= lo[j] > k;
        c[j][1] -= le_lo;
        c[j][2] -= lt_hi;
        c[j][3] -= ~(k > hi[j]);
        any |= ~le_lo & lt_hi;
      }
      if (any[0] | any[1] | any[2] | any[3])
        for (int j = 0; j < nb; j++)
          if (!keep(&b[j], k, (k > lo[j]) & (hi[j] > k)))
            return 0;
    }
    for (int j = 0; j < nb; j++) {
      size_t *sum[4] = {&b[j].lt_lo, &b[j].le_lo, &b[j].lt_hi, &b[j].le_hi};
      for (int q = 0; q < 4; q++) {
        for (int l = 0; l < 4; l++)
          *sum[q] += (uint32_t)c[j][q][l];
        c[j][q] = (skey4){0};
      }
    }
  }
  for (; i < n; i++) {
    int32_t k = skey_of(y[i]);
    for (int j = 0; j < nb; j++) {
      b[j].lt_lo += k < b[j].lo;
      b[j].le_lo += k <= b[j].lo;
      b[j].lt_hi += k < b[j].hi;
      b[j].le_hi += k <= b[j].hi;
      if (k > b[j].lo && k < b[j].hi) {
        if (b[j].n_between == b[j].room)
          return 0;
        b[j].between[b[j].n_between++] = ws__key_float((uint32_t)k ^ 0x80000000u);
      }
    }
  }
  return 1;
}

/* Stores in *out the value of rank r from bracket b's counts (selecting
 * among its values between, reordered); returns 0 when r is not within
 * the bracket. */
static int resolve(bracket *b, size_t r, float *out) {
  if (r < b->lt_lo || r >= b->le_hi)
    return 0;
  if (r >= b->le_lo && r < b->lt_hi) {
    ws__select_f32(b->between, b->n_between, r - b->le_lo);
    *out = b->between[r - b->le_lo];
    return 1;
  }
  *out = ws__key_float((uint32_t)(r < b->le_lo ? b->lo : b->hi) ^ 0x80000000u);
  return 1;
}

int ws__bracketed_ranks(const float *y, size_t n, const size_t *rank, size_t np,
                        float *out) {
  if (n < MIN_VALUES || np == 0)
    return 0;
  int32_t *sample = malloc(SAMPLE * sizeof *sample);
  if (sample == NULL)
    return WS_ENOMEM;
  for (size_t s = 0; s < SAMPLE; s++)
    sample[s] = skey_of(y[(size_t)((uint64_t)s * n / SAMPLE)]);
  qsort(sample, SAMPLE, sizeof *sample, int32_cmp);
  bracket b[SLOTS];
  int nb = 0, rc = 1;
  for (size_t j = 0; rc == 1 && j < np; j++) {
    double p = (double)rank[j] / (double)(n - 1), at = p * (SAMPLE - 1);
    double spread = SPREAD * sqrt(SAMPLE * p * (1 - p)) + 2;
    double a = floor(at - spread), z = ceil(at + spread);
    int32_t lo = a <= 0 ? INT32_MIN : sample[(size_t)a];
    int32_t hi = z >= SAMPLE - 1 ? INT32_MAX : sample[(size_t)z];
    int k = 0;
    while (k < nb && !(b[k].lo == lo && b[k].hi == hi))
      k++;
    if (k < nb)
      continue;
    if (nb == SLOTS) {
      rc = 0;
      break;
    }
    /* Room for twice the values the sample puts between the ends. */
    double share = (z - a) / (double)SAMPLE;
    size_t room = (size_t)(2 * share * (double)n) + 1024;
    b[nb] = (bracket){.lo = lo, .hi = hi, .room = room};
    b[nb].between = malloc(room * sizeof *b[nb].between);
    if (b[nb++].between == NULL)
      rc = WS_ENOMEM;
  }
  free(sample);
  if (rc == 1)
    rc = count_pass(y, n, b, nb);
  /* lo and hi equal: its values at hi are its values at lo. */
  for (int j = 0; rc == 1 && j < nb; j++)
    if (b[j].hi == b[j].lo)
      b[j].lt_hi = b[j].le_hi = b[j].le_lo;
  for (size_t j = 0; rc == 1 && j < np; j++) {
    int found = 0;
    for (int k = 0; !found && k < nb; k++)
      found = resolve(&b[k], rank[j], &out[j]);
    rc = found;
  }
  for (int j = 0; j < nb; j++)
    free(b[j].between);
  return rc;
}
