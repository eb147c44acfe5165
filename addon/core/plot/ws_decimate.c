/* Decimation of per-call series for plotting (see ws_decimate.h). */
#include "ws_decimate.h"
#include "ws_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Returns the index of the nearest-rank quantile p in m sorted values. */
static size_t rank_of(double p, size_t m) {
  return (size_t)floor(p * (double)(m - 1) + 0.5);
}

/* Writes the nearest-rank p10, median and p90 of a[0..m) (m > 0) to q[0..3),
 * reordering a. */
static void three_quantiles(float *a, size_t m, double q[3]) {
  size_t k10 = rank_of(0.1, m), k50 = rank_of(0.5, m), k90 = rank_of(0.9, m);
  ws__select_f32(a, m, k50);
  q[1] = a[k50];
  if (k10 < k50)
    ws__select_f32(a, k50, k10);
  q[0] = a[k10];
  if (k90 > k50)
    ws__select_f32(a + k50 + 1, m - k50 - 1, k90 - k50 - 1);
  q[2] = a[k90];
}

/* Maps a float to an unsigned key whose order matches the float order. */
static uint32_t float_key(float f) {
  uint32_t u;
  if (isnan(f))
    f = INFINITY;
  memcpy(&u, &f, sizeof u);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

/* The float whose float_key is k (the inverse of float_key). */
static float key_float(uint32_t k) {
  uint32_t u = (k & 0x80000000u) ? (k & 0x7fffffffu) : ~k;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* The bins of the high 16 bits of float keys (ws_quantiles, window_quantiles). */
#define HALF_BINS 65536u

/* Writes the nearest-rank p10, median and p90 of y[0..m) (m > 0, NaN as
 * +infinity) to q[0..3), as three_quantiles does, without reordering y:
 * counts (HALF_BINS, all zero on entry and again on return) count the high
 * halves of the values' keys to find the bin of each rank; only the values
 * of those bins are copied to group (m floats) and selected among. */
static void window_quantiles(const float *y, size_t m, uint32_t *counts, float *group,
                             double q[3]) {
  uint32_t lo = HALF_BINS - 1, hi = 0;
  for (size_t i = 0; i < m; i++) {
    uint32_t b = float_key(y[i]) >> 16;
    counts[b]++;
    lo = b < lo ? b : lo;
    hi = b > hi ? b : hi;
  }
  const size_t rank[3] = {rank_of(0.1, m), rank_of(0.5, m), rank_of(0.9, m)};
  uint32_t bin[3], b = lo;
  size_t size[3], start[3], below = 0;
  for (int j = 0; j < 3; j++) {
    while (below + counts[b] <= rank[j])
      below += counts[b++];
    bin[j] = b;
    size[j] = counts[b];
    start[j] = below; /* the rank of the bin's first value */
  }
  memset(counts + lo, 0, (hi - lo + 1) * sizeof *counts);
  /* The bins in group, in order: bin j's values from at[j] (a bin shared
   * with the rank before shares its place). */
  size_t at[3], fill[3], next = 0;
  for (int j = 0; j < 3; j++) {
    at[j] = j > 0 && bin[j] == bin[j - 1] ? at[j - 1] : next;
    next = at[j] + size[j];
    fill[j] = at[j];
  }
  for (size_t i = 0; i < m; i++) {
    uint32_t k = float_key(y[i]), hb = k >> 16;
    int j = hb == bin[0] ? 0 : hb == bin[1] ? 1 : hb == bin[2] ? 2 : -1;
    if (j >= 0)
      group[fill[j]++] = key_float(k);
  }
  for (int j = 0; j < 3; j++) {
    ws__select_f32(group + at[j], size[j], rank[j] - start[j]);
    q[j] = group[at[j] + rank[j] - start[j]];
  }
}

/* Returns the first index of part `i` when n items are split into `parts`. */
static size_t part_start(size_t i, size_t n, size_t parts) {
  return (size_t)((uint64_t)i * n / parts);
}

int ws_decimate_bands(const float *y, size_t n, size_t buckets, size_t window,
                      double *out) {
  if (y == NULL || out == NULL || n == 0 || buckets == 0 || window == 0 || buckets > n)
    return WS_EINVAL;
  size_t widest = (n + buckets - 1) / buckets;
  if (window < widest)
    window = widest;
  if (window > n)
    window = n;
  float *scratch = malloc(window * sizeof *scratch);
  uint32_t *counts = calloc(HALF_BINS, sizeof *counts);
  if (scratch == NULL || counts == NULL) {
    free(scratch);
    free(counts);
    return WS_ENOMEM;
  }
  for (size_t b = 0; b < buckets; b++) {
    size_t lo = part_start(b, n, buckets), hi = part_start(b + 1, n, buckets);
    double *o = out + b * WS_BAND_FIELDS;
    float mn = INFINITY, mx = -INFINITY;
    size_t imax = lo;
    for (size_t i = lo; i < hi; i++) {
      float v = isnan(y[i]) ? INFINITY : y[i];
      if (v < mn)
        mn = v;
      if (v > mx) {
        mx = v;
        imax = i;
      }
    }
    size_t width = hi - lo < window ? window : hi - lo;
    size_t centre = lo + (hi - lo) / 2;
    size_t start = centre > width / 2 ? centre - width / 2 : 0;
    if (start + width > n)
      start = n - width;
    double q[3];
    window_quantiles(y + start, width, counts, scratch, q);
    o[WS_BAND_FIRST] = (double)lo;
    o[WS_BAND_LAST] = (double)(hi - 1);
    o[WS_BAND_MIN] = mn;
    o[WS_BAND_MAX] = mx;
    o[WS_BAND_IMAX] = (double)imax;
    o[WS_BAND_P10] = q[0];
    o[WS_BAND_MEDIAN] = q[1];
    o[WS_BAND_P90] = q[2];
  }
  free(scratch);
  free(counts);
  return 0;
}

/* The quantiles select by the float key in two 16-bit halves: a histogram
 * of the high halves finds the bin of each rank; the keys of those bins only
 * are then gathered, and the low half is found by a second histogram (or, in
 * a bin of at most SMALL_BIN keys, by sorting them). */
#define SMALL_BIN 2048u

/* Histograms of keys' 16-bit halves count into four interleaved tables
 * (lanes: 4 * HALF_BINS counts, zero on entry and again on return), summed
 * at the end: times mostly fall in one bin, and one table would make their
 * increments one chain of dependent additions. */

/* Sums lanes into hist[0..HALF_BINS) (adding to it) and zeroes them. */
static void sum_lanes(uint32_t *lanes, size_t *hist) {
  for (size_t b = 0; b < HALF_BINS; b++) {
    hist[b] += (size_t)lanes[b] + lanes[HALF_BINS + b] + lanes[2 * HALF_BINS + b] +
               lanes[3 * HALF_BINS + b];
    lanes[b] = lanes[HALF_BINS + b] = lanes[2 * HALF_BINS + b] =
        lanes[3 * HALF_BINS + b] = 0;
  }
}

/* Adds to hist the count of y[0..n)'s keys per high half (n < 2^34). */
static void high_histogram(const float *y, size_t n, uint32_t *lanes, size_t *hist) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (size_t l = 0; l < 4; l++)
      lanes[l * HALF_BINS + (float_key(y[i + l]) >> 16)]++;
  for (; i < n; i++)
    lanes[float_key(y[i]) >> 16]++;
  sum_lanes(lanes, hist);
}

/* Adds to hist the count of keys g[0..m) per low half (m < 2^34). */
static void low_histogram(const uint32_t *g, size_t m, uint32_t *lanes, size_t *hist) {
  size_t i = 0;
  for (; i + 4 <= m; i += 4)
    for (size_t l = 0; l < 4; l++)
      lanes[l * HALF_BINS + (g[i + l] & 0xffffu)]++;
  for (; i < m; i++)
    lanes[g[i] & 0xffffu]++;
  sum_lanes(lanes, hist);
}

/* qsort order of uint32_t keys, ascending. */
static int key_cmp(const void *pa, const void *pb) {
  uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
  return (a > b) - (a < b);
}

/* Writes to order[0..np) the indices i by ascending rank[i]. */
static void ranks_in_order(const size_t *rank, size_t np, size_t *order) {
  for (size_t i = 0; i < np; i++) {
    size_t j = i;
    for (; j > 0 && rank[order[j - 1]] > rank[i]; j--)
      order[j] = order[j - 1];
    order[j] = i;
  }
}

/* Sets key[j] to the full key of rank r_j - first within the m keys g[0..m)
 * of one high-half bin `high`, for the run of ranks order[*at..) that fall in
 * the bin (r < first + m), advancing *at past them. low: HALF_BINS counts of
 * scratch; lanes: the histograms' (zero). */
static void resolve_bin(uint32_t *g, size_t m, uint32_t high, size_t first,
                        const size_t *rank, const size_t *order, size_t np, size_t *at,
                        size_t *low, uint32_t *lanes, uint32_t *key) {
  if (m <= SMALL_BIN) {
    qsort(g, m, sizeof *g, key_cmp);
    for (; *at < np && rank[order[*at]] < first + m; (*at)++)
      key[order[*at]] = g[rank[order[*at]] - first];
    return;
  }
  memset(low, 0, HALF_BINS * sizeof *low);
  low_histogram(g, m, lanes, low);
  size_t below = first, l = 0;
  for (; *at < np && rank[order[*at]] < first + m; (*at)++) {
    size_t r = rank[order[*at]];
    while (below + low[l] <= r)
      below += low[l++];
    key[order[*at]] = high << 16 | (uint32_t)l;
  }
}

int ws_quantiles(const float *y, size_t n, const double *p, size_t np, double *out) {
  if (y == NULL || p == NULL || out == NULL || n == 0)
    return WS_EINVAL;
  for (size_t i = 0; i < np; i++)
    if (!(p[i] >= 0.0 && p[i] <= 1.0))
      return WS_EINVAL;
  size_t *rank = malloc((np + 1) * sizeof *rank);
  float *value = malloc((np + 1) * sizeof *value);
  int rc = rank == NULL || value == NULL ? WS_ENOMEM : 0;
  for (size_t i = 0; rc == 0 && i < np; i++)
    rank[i] = rank_of(p[i], n);
  if (rc == 0)
    rc = ws__order_stats(y, n, rank, np, value);
  for (size_t i = 0; rc == 0 && i < np; i++)
    out[i] = value[i];
  free(rank);
  free(value);
  return rc;
}

int ws__order_stats(const float *y, size_t n, const size_t *rank, size_t np, float *out) {
  size_t *start = calloc(HALF_BINS + 1, sizeof *start);
  size_t *at = malloc(HALF_BINS * sizeof *at);
  size_t *low = malloc(HALF_BINS * sizeof *low);
  uint32_t *lanes = calloc(4 * HALF_BINS, sizeof *lanes);
  size_t *order = malloc((np + 1) * sizeof *order);
  uint32_t *key = malloc((np + 1) * sizeof *key);
  uint8_t *need = calloc(HALF_BINS, 1);
  uint32_t *g = NULL;
  int rc = WS_ENOMEM;
  if (start == NULL || at == NULL || low == NULL || lanes == NULL || order == NULL ||
      key == NULL || need == NULL)
    goto done;
  high_histogram(y, n, lanes, start + 1);
  for (size_t b = 0; b < HALF_BINS; b++)
    start[b + 1] += start[b]; /* start[b]: the keys below bin b */
  ranks_in_order(rank, np, order);
  size_t b = 0, gathered = 0;
  for (size_t j = 0; j < np; j++) {
    while (start[b + 1] <= rank[order[j]])
      b++;
    if (!need[b])
      gathered += start[b + 1] - start[b];
    need[b] = 1;
  }
  g = malloc((gathered + 1) * sizeof *g);
  if (g == NULL)
    goto done;
  for (size_t k = 0, next = 0; k < HALF_BINS; k++) {
    at[k] = next;
    if (need[k])
      next += start[k + 1] - start[k];
  }
  for (size_t i = 0; i < n; i++) {
    uint32_t k = float_key(y[i]);
    if (need[k >> 16])
      g[at[k >> 16]++] = k;
  }
  /* at[k] is now the end of bin k's keys in g. */
  for (size_t j = 0, high = 0; j < np;) {
    while (start[high + 1] <= rank[order[j]])
      high++;
    size_t m = start[high + 1] - start[high];
    resolve_bin(g + at[high] - m, m, (uint32_t)high, start[high], rank, order, np, &j,
                low, lanes, key);
  }
  for (size_t i = 0; i < np; i++)
    out[i] = key_float(key[i]);
  rc = 0;
done:
  free(start);
  free(at);
  free(low);
  free(lanes);
  free(order);
  free(key);
  free(need);
  free(g);
  return rc;
}

int ws_decimate_ops(const float *y, const uint16_t *op, size_t n, size_t nops,
                    size_t windows, double *out) {
  if (y == NULL || op == NULL || out == NULL || n == 0 || nops == 0 || windows == 0 ||
      windows > n)
    return WS_EINVAL;
  size_t widest = (n + windows - 1) / windows;
  float *scratch = malloc(widest * sizeof *scratch);
  size_t *offset = malloc((nops + 1) * sizeof *offset);
  if (scratch == NULL || offset == NULL) {
    free(scratch);
    free(offset);
    return WS_ENOMEM;
  }
  for (size_t w = 0; w < windows; w++) {
    size_t lo = part_start(w, n, windows), hi = part_start(w + 1, n, windows);
    memset(offset, 0, (nops + 1) * sizeof *offset);
    for (size_t i = lo; i < hi; i++)
      if (op[i] < nops)
        offset[op[i] + 1]++;
    for (size_t k = 0; k < nops; k++)
      offset[k + 1] += offset[k];
    for (size_t i = lo; i < hi; i++)
      if (op[i] < nops)
        scratch[offset[op[i]]++] = isnan(y[i]) ? INFINITY : y[i];
    /* offset[k] now holds the end of op k's values, the start of op k + 1. */
    for (size_t k = 0; k < nops; k++) {
      size_t start = k == 0 ? 0 : offset[k - 1], m = offset[k] - start;
      double *o = out + (w * nops + k) * WS_OPS_FIELDS;
      o[WS_OPS_COUNT] = (double)m;
      if (m == 0) {
        o[WS_OPS_MEDIAN] = o[WS_OPS_P90] = NAN;
        continue;
      }
      double q[3];
      three_quantiles(scratch + start, m, q);
      o[WS_OPS_MEDIAN] = q[1];
      o[WS_OPS_P90] = q[2];
    }
  }
  free(scratch);
  free(offset);
  return 0;
}
