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

/* Writes the nearest-rank p10, median and p90 of y[0..m) (m > 0, m <
 * 2^32, NaN as +infinity) to q[0..3), as three_quantiles does, without
 * reordering y: lanes (ws__count_high's, zero on entry and again on return)
 * count the high halves of the values' keys to find the bin of each rank,
 * stored in *span with the window's least and greatest key. A bin of one
 * whole value (ws__bin_value) is its rank's value; else a second pass finds
 * the least and the greatest key of each of those bins. A bin of one value
 * holds its rank's value; only the values of the other bins are copied to
 * group (m floats) and selected among. */
static void window_quantiles(const float *y, size_t m, uint32_t *lanes, float *group,
                             double q[3], ws_key_span *span) {
  ws__count_high(y, m, lanes, span);
  uint32_t lo = span->lo, hi = span->hi;
  const size_t rank[3] = {rank_of(0.1, m), rank_of(0.5, m), rank_of(0.9, m)};
  uint32_t bin[3], b = lo;
  size_t size[3], start[3], below = 0;
  for (int j = 0; j < 3; j++) {
    while (below + lanes[b] <= rank[j])
      below += lanes[b++];
    bin[j] = b;
    size[j] = lanes[b];
    start[j] = below; /* the rank of the bin's first value */
  }
  memset(lanes + lo, 0, (hi - lo + 1) * sizeof *lanes);
  /* Whole times in bins narrower than 1: each bin is its one value. */
  int known = 0;
  for (int j = 0; j < 3; j++) {
    float v;
    if (ws__bin_value(span, bin[j], &v)) {
      q[j] = v;
      known++;
    }
  }
  if (known == 3)
    return;
  const uint32_t bins[WS_BIN_SLOTS] = {bin[0], bin[1], bin[2], UINT32_MAX};
  uint32_t least[WS_BIN_SLOTS], most[WS_BIN_SLOTS];
  ws__bin_extremes(y, m, bins, least, most);
  int mixed = 0;
  for (int j = 0; j < 3; j++) {
    q[j] = ws__key_float(least[j]);
    mixed |= least[j] != most[j];
  }
  if (!mixed)
    return;
  /* The bins of more than one value in group, in order: bin j's values from
   * at[j] (a bin shared with the rank before shares its place). */
  size_t at[3], fill[3], next = 0;
  for (int j = 0; j < 3; j++) {
    at[j] = j > 0 && bin[j] == bin[j - 1] ? at[j - 1] : next;
    next = at[j] + (least[j] != most[j] ? size[j] : 0);
    fill[j] = at[j];
  }
  for (size_t i = 0; i < m; i++) {
    uint32_t k = ws__float_key(y[i]), hb = k >> 16;
    int j = hb == bin[0] ? 0 : hb == bin[1] ? 1 : hb == bin[2] ? 2 : -1;
    if (j >= 0 && least[j] != most[j])
      group[fill[j]++] = ws__key_float(k);
  }
  for (int j = 0; j < 3; j++) {
    if (least[j] == most[j])
      continue;
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
  uint32_t *lanes = calloc(WS_KEY_LANES * (size_t)WS_HALF_BINS, sizeof *lanes);
  if (scratch == NULL || lanes == NULL) {
    free(scratch);
    free(lanes);
    return WS_ENOMEM;
  }
  for (size_t b = 0; b < buckets; b++) {
    size_t lo = part_start(b, n, buckets), hi = part_start(b + 1, n, buckets);
    double *o = out + b * WS_BAND_FIELDS;
    size_t width = hi - lo < window ? window : hi - lo;
    size_t centre = lo + (hi - lo) / 2;
    size_t start = centre > width / 2 ? centre - width / 2 : 0;
    if (start + width > n)
      start = n - width;
    double q[3];
    ws_key_span span;
    window_quantiles(y + start, width, lanes, scratch, q, &span);
    /* The bucket's least and greatest: its window's when they are one. */
    uint32_t least = span.least, most = span.most;
    if (start != lo || width != hi - lo)
      ws__key_range(y + lo, hi - lo, &least, &most);
    size_t imax = lo + ws__first_key(y + lo, hi - lo, most);
    o[WS_BAND_FIRST] = (double)lo;
    o[WS_BAND_LAST] = (double)(hi - 1);
    o[WS_BAND_MIN] = ws__key_float(least);
    o[WS_BAND_MAX] = ws__key_float(most);
    o[WS_BAND_IMAX] = (double)imax;
    o[WS_BAND_P10] = q[0];
    o[WS_BAND_MEDIAN] = q[1];
    o[WS_BAND_P90] = q[2];
  }
  free(scratch);
  free(lanes);
  return 0;
}

/* The quantiles select by the float key in two 16-bit halves: a histogram
 * of the high halves finds the bin of each rank; the keys of those bins only
 * are then gathered, and the low half is found by a second histogram (or, in
 * a bin of at most SMALL_BIN keys, by sorting them). */
#define SMALL_BIN 2048u

/* Histograms of keys' 16-bit halves count into four interleaved tables
 * (lanes: 4 * WS_HALF_BINS counts, zero on entry and again on return), summed
 * at the end: times mostly fall in one bin, and one table would make their
 * increments one chain of dependent additions. */

/* Sums lanes into hist[0..WS_HALF_BINS) (adding to it) and zeroes them. */
static void sum_lanes(uint32_t *lanes, size_t *hist) {
  for (size_t b = 0; b < WS_HALF_BINS; b++) {
    hist[b] += (size_t)lanes[b] + lanes[WS_HALF_BINS + b] + lanes[2 * WS_HALF_BINS + b] +
               lanes[3 * WS_HALF_BINS + b];
    lanes[b] = lanes[WS_HALF_BINS + b] = lanes[2 * WS_HALF_BINS + b] =
        lanes[3 * WS_HALF_BINS + b] = 0;
  }
}

/* Adds to hist the count of y[0..n)'s keys per high half (n < 2^34). */
static void high_histogram(const float *y, size_t n, uint32_t *lanes, size_t *hist) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (size_t l = 0; l < 4; l++)
      lanes[l * WS_HALF_BINS + (ws__float_key(y[i + l]) >> 16)]++;
  for (; i < n; i++)
    lanes[ws__float_key(y[i]) >> 16]++;
  sum_lanes(lanes, hist);
}

/* Adds to hist the count of keys g[0..m) per low half (m < 2^34). */
static void low_histogram(const uint32_t *g, size_t m, uint32_t *lanes, size_t *hist) {
  size_t i = 0;
  for (; i + 4 <= m; i += 4)
    for (size_t l = 0; l < 4; l++)
      lanes[l * WS_HALF_BINS + (g[i + l] & 0xffffu)]++;
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
 * the bin (r < first + m), advancing *at past them. low: WS_HALF_BINS counts of
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
  memset(low, 0, WS_HALF_BINS * sizeof *low);
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

/* need[b] of a bin that holds a rank: its keys span more than one value
 * (gathered and resolved by resolve_bin), or one (the rank's key is it). */
enum { NEED_NONE, NEED_ONE_VALUE, NEED_GATHER };

int ws__order_stats(const float *y, size_t n, const size_t *rank, size_t np, float *out) {
  int bracketed = ws__bracketed_ranks(y, n, rank, np, out);
  if (bracketed != 0)
    return bracketed == 1 ? 0 : bracketed;
  size_t *start = calloc(WS_HALF_BINS + 1, sizeof *start);
  size_t *at = malloc(WS_HALF_BINS * sizeof *at);
  size_t *low = malloc(WS_HALF_BINS * sizeof *low);
  uint32_t *lanes = calloc(4 * WS_HALF_BINS, sizeof *lanes);
  uint32_t *least = malloc(2 * WS_HALF_BINS * sizeof *least),
           *most = least + WS_HALF_BINS;
  size_t *order = malloc((np + 1) * sizeof *order);
  uint32_t *key = malloc((np + 1) * sizeof *key);
  uint8_t *need = calloc(WS_HALF_BINS, 1);
  uint32_t *g = NULL;
  int rc = WS_ENOMEM;
  if (start == NULL || at == NULL || low == NULL || lanes == NULL || least == NULL ||
      order == NULL || key == NULL || need == NULL)
    goto done;
  high_histogram(y, n, lanes, start + 1);
  for (size_t b = 0; b < WS_HALF_BINS; b++)
    start[b + 1] += start[b]; /* start[b]: the keys below bin b */
  ranks_in_order(rank, np, order);
  for (size_t j = 0, b = 0; j < np; j++) {
    while (start[b + 1] <= rank[order[j]])
      b++;
    need[b] = NEED_ONE_VALUE;
    least[b] = UINT32_MAX;
    most[b] = 0;
  }
  /* The least and the greatest key of each bin holding a rank: a bin of one
   * value (whole times below 256 ns are one a bin) is never gathered. */
  for (size_t i = 0; i < n; i++) {
    uint32_t k = ws__float_key(y[i]), h = k >> 16;
    if (need[h]) {
      least[h] = k < least[h] ? k : least[h];
      most[h] = k > most[h] ? k : most[h];
    }
  }
  size_t gathered = 0;
  for (size_t k = 0; k < WS_HALF_BINS; k++) {
    at[k] = gathered;
    if (need[k] && least[k] != most[k]) {
      need[k] = NEED_GATHER;
      gathered += start[k + 1] - start[k];
    }
  }
  g = malloc((gathered + 1) * sizeof *g);
  if (g == NULL)
    goto done;
  for (size_t i = 0; gathered > 0 && i < n; i++) {
    uint32_t k = ws__float_key(y[i]);
    if (need[k >> 16] == NEED_GATHER)
      g[at[k >> 16]++] = k;
  }
  /* at[k] is now the end of bin k's keys in g. */
  for (size_t j = 0, high = 0; j < np;) {
    while (start[high + 1] <= rank[order[j]])
      high++;
    size_t m = start[high + 1] - start[high];
    if (need[high] == NEED_GATHER) {
      resolve_bin(g + at[high] - m, m, (uint32_t)high, start[high], rank, order, np, &j,
                  low, lanes, key);
      continue;
    }
    for (; j < np && rank[order[j]] < start[high] + m; j++)
      key[order[j]] = least[high];
  }
  for (size_t i = 0; i < np; i++)
    out[i] = ws__key_float(key[i]);
  rc = 0;
done:
  free(start);
  free(at);
  free(low);
  free(lanes);
  free(least);
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
