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

/* Copies src[0..n) to dst, turning NaN into +infinity so comparisons order. */
static void copy_ordered(float *dst, const float *src, size_t n) {
  for (size_t i = 0; i < n; i++)
    dst[i] = isnan(src[i]) ? INFINITY : src[i];
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
  if (scratch == NULL)
    return WS_ENOMEM;
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
    copy_ordered(scratch, y + start, width);
    double q[3];
    three_quantiles(scratch, width, q);
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
  return 0;
}

/* Maps a float to an unsigned key whose order matches the float order. */
static uint32_t float_key(float f) {
  uint32_t u;
  if (isnan(f))
    f = INFINITY;
  memcpy(&u, &f, sizeof u);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

static float key_float(uint32_t k) {
  uint32_t u = (k & 0x80000000u) ? (k & 0x7fffffffu) : ~k;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* Sorts keys[0..n) ascending with three 11-bit LSD radix passes, using tmp
 * (n entries) as the second buffer. The result ends up in tmp after an odd
 * number of passes, so it is copied back into keys. */
static void radix_sort(uint32_t *keys, uint32_t *tmp, size_t n) {
  static const int shifts[3] = {0, 11, 22};
  uint32_t *src = keys, *dst = tmp;
  for (int pass = 0; pass < 3; pass++) {
    size_t count[2048] = {0};
    int s = shifts[pass];
    for (size_t i = 0; i < n; i++)
      count[(src[i] >> s) & 2047u]++;
    size_t sum = 0;
    for (size_t d = 0; d < 2048; d++) {
      size_t c = count[d];
      count[d] = sum;
      sum += c;
    }
    for (size_t i = 0; i < n; i++)
      dst[count[(src[i] >> s) & 2047u]++] = src[i];
    uint32_t *t = src;
    src = dst;
    dst = t;
  }
  memcpy(keys, src, n * sizeof *keys);
}

int ws_quantiles(const float *y, size_t n, const double *p, size_t np, double *out) {
  if (y == NULL || p == NULL || out == NULL || n == 0)
    return WS_EINVAL;
  for (size_t i = 0; i < np; i++)
    if (!(p[i] >= 0.0 && p[i] <= 1.0))
      return WS_EINVAL;
  uint32_t *keys = malloc(2 * n * sizeof *keys);
  if (keys == NULL)
    return WS_ENOMEM;
  for (size_t i = 0; i < n; i++)
    keys[i] = float_key(y[i]);
  radix_sort(keys, keys + n, n);
  for (size_t i = 0; i < np; i++)
    out[i] = key_float(keys[rank_of(p[i], n)]);
  free(keys);
  return 0;
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
