/* Order statistics by selection: quantiles of float and double arrays in
 * O(n) expected time, without sorting. NaN values order after every number,
 * so selection always terminates. */
#include <stdlib.h>
#include <string.h>

#include "ws_internal.h"
#include "ws_stats.h"

/* Total order on floats with NaN last: returns 1 when a sorts before b. */
static int f32_less(float a, float b) {
  if (b != b)
    return a == a;
  return a < b;
}

static void f32_swap(float *a, float *b) {
  float t = *a;
  *a = *b;
  *b = t;
}

static int f32_cmp(const void *pa, const void *pb) {
  float a = *(const float *)pa, b = *(const float *)pb;
  return f32_less(a, b) ? -1 : f32_less(b, a) ? 1 : 0;
}

/* Rearranges a[0..n) so that a[k] holds the value of rank k, with no larger
 * value before it and no smaller one after it (Hoare partition around a
 * median of three). After 2 log2(n) + 8 rounds without convergence, sorts the
 * remaining range, so the worst case stays O(n log n). */
void ws__select_f32(float *a, size_t n, size_t k) {
  size_t lo = 0, hi = n - 1;
  int budget = 8;
  for (size_t m = n; m > 1; m >>= 1)
    budget += 2;
  while (hi > lo) {
    if (budget-- == 0) {
      qsort(a + lo, hi - lo + 1, sizeof *a, f32_cmp);
      return;
    }
    size_t mid = lo + (hi - lo) / 2;
    if (f32_less(a[mid], a[lo]))
      f32_swap(&a[mid], &a[lo]);
    if (f32_less(a[hi], a[lo]))
      f32_swap(&a[hi], &a[lo]);
    if (f32_less(a[hi], a[mid]))
      f32_swap(&a[hi], &a[mid]);
    float pivot = a[mid];
    size_t i = lo, j = hi;
    for (;;) {
      while (f32_less(a[i], pivot))
        i++;
      while (f32_less(pivot, a[j]))
        j--;
      if (i >= j)
        break;
      f32_swap(&a[i], &a[j]);
      i++;
      j--;
    }
    /* a[lo..j] <= pivot <= a[j+1..hi]. */
    if (k <= j)
      hi = j;
    else
      lo = j + 1;
  }
}

/* Returns the smallest value of a[0..n) under the NaN-last order; n > 0. */
static float f32_min(const float *a, size_t n) {
  float m = a[0];
  for (size_t i = 1; i < n; i++)
    if (f32_less(a[i], m))
      m = a[i];
  return m;
}

double ws__rank_value_f32(float *a, size_t m, double h) {
  if (!(h > 0))
    h = 0;
  if (h > (double)(m - 1))
    h = (double)(m - 1);
  size_t r = (size_t)h;
  double frac = h - (double)r;
  ws__select_f32(a, m, r);
  double lo = a[r];
  if (frac > 0.0 && r + 1 < m)
    return lo + frac * ((double)f32_min(a + r + 1, m - r - 1) - lo);
  return lo;
}

int ws_quantiles_f32(const float *x, size_t n, const double *probs, size_t k,
                     double *out) {
  if (n == 0)
    return WS_EINVAL;
  for (size_t i = 0; i < k; i++)
    if (!(probs[i] >= 0.0 && probs[i] <= 1.0))
      return WS_EINVAL;
  /* Each quantile is the order statistic of rank r = floor(h), h = (n - 1) p,
   * and, between two, the one above it (ws__rank_value_f32's values): all
   * of them found at once, x unmoved. */
  size_t *rank = malloc((2 * k + 1) * sizeof *rank);
  float *value = malloc((2 * k + 1) * sizeof *value);
  int rc = rank == NULL || value == NULL ? WS_ENOMEM : 0;
  for (size_t i = 0; rc == 0 && i < k; i++) {
    size_t r = (size_t)((double)(n - 1) * probs[i]);
    rank[2 * i] = r;
    rank[2 * i + 1] = r + 1 < n ? r + 1 : r;
  }
  if (rc == 0)
    rc = ws__order_stats(x, n, rank, 2 * k, value);
  for (size_t i = 0; rc == 0 && i < k; i++) {
    double h = (double)(n - 1) * probs[i];
    double frac = h - (double)rank[2 * i], lo = value[2 * i];
    out[i] = frac > 0.0 && rank[2 * i] + 1 < n
                 ? lo + frac * ((double)value[2 * i + 1] - lo)
                 : lo;
  }
  free(rank);
  free(value);
  return rc;
}

double ws__median_f32(float *a, size_t n) {
  return ws__rank_value_f32(a, n, (double)(n - 1) / 2);
}

int ws__compare_doubles(const void *pa, const void *pb) {
  double a = *(const double *)pa, b = *(const double *)pb;
  return (a > b) - (a < b);
}
