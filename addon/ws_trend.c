/* Trend test on a short sequence: Theil-Sen slope, Mann-Kendall test with
 * the Hamed-Rao (1998) correction for autocorrelation, and a moving-block
 * bootstrap of the residuals for the slope's interval. Every caller first
 * reduces its data to at most WS_TREND_MAX points (batch medians or segment
 * levels), so the O(n^2) pair work stays small. */
#include <math.h>
#include <stdlib.h>

#include "ws_stats.h"

double ws_normal_sf(double z) {
  return 0.5 * erfc(z / sqrt(2.0));
}

/* Returns the Theil-Sen slope of (x, y0 + y) using pairs (n(n-1)/2 floats). */
static double theil_sen(const double *x, const double *y, size_t n, float *pairs) {
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    for (size_t j = i + 1; j < n; j++) pairs[m++] = (float)((y[j] - y[i]) / (x[j] - x[i]));
  return ws__median_f32(pairs, m);
}

/* Returns the median of y - slope * x, using n floats of scratch. */
static double intercept_of(const double *x, const double *y, size_t n, double slope,
                           float *scratch) {
  for (size_t i = 0; i < n; i++) scratch[i] = (float)(y[i] - slope * x[i]);
  return ws__median_f32(scratch, n);
}

static int cmp_double(const void *pa, const void *pb) {
  double a = *(const double *)pa, b = *(const double *)pb;
  return (a > b) - (a < b);
}

/* Returns the Mann-Kendall variance of S for y[0..n), corrected for ties;
 * sorted receives a sorted copy of y. */
static double mk_variance(const double *y, size_t n, double *sorted) {
  for (size_t i = 0; i < n; i++) sorted[i] = y[i];
  qsort(sorted, n, sizeof *sorted, cmp_double);
  double dn = (double)n;
  double v = dn * (dn - 1) * (2 * dn + 5);
  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    while (j < n && sorted[j] == sorted[i]) j++;
    double t = (double)(j - i);
    v -= t * (t - 1) * (2 * t + 5);
    i = j;
  }
  return v / 18.0;
}

/* Returns the Hamed-Rao variance inflation n/n* (at least 1) from the ranks
 * of the detrended series e[0..n); rank receives the ranks. Only lags whose
 * rank autocorrelation is significant at 5 % contribute, as in the original. */
static double hamed_rao(const double *e, size_t n, double *rank) {
  for (size_t i = 0; i < n; i++) {
    double below = 0, equal = 0;
    for (size_t j = 0; j < n; j++) {
      if (e[j] < e[i]) below++;
      else if (e[j] == e[i] && j != i) equal++;
    }
    rank[i] = 1 + below + equal / 2;
  }
  double mean = ((double)n + 1) / 2, denom = 0;
  for (size_t i = 0; i < n; i++) denom += (rank[i] - mean) * (rank[i] - mean);
  if (denom <= 0) return 1;
  double dn = (double)n, limit = 1.96 / sqrt(dn), sum = 0;
  for (size_t k = 1; k + 2 < n; k++) {
    double c = 0;
    for (size_t i = 0; i + k < n; i++) c += (rank[i] - mean) * (rank[i + k] - mean);
    double rho = c / denom;
    if (fabs(rho) <= limit) continue;
    double dk = (double)k;
    sum += (dn - dk) * (dn - dk - 1) * (dn - dk - 2) * rho;
  }
  double ratio = 1 + 2 * sum / (dn * (dn - 1) * (dn - 2));
  return ratio > 1 ? ratio : 1;
}

int ws_trend_fit(const double *x, const double *y, size_t n, uint64_t seed,
                 ws_trend *out) {
  if (n < 4 || n > WS_TREND_MAX) return WS_EINVAL;
  /* pairs also serves as scratch for the n residuals and the replicates. */
  size_t npairs = n * (n - 1) / 2;
  if (npairs < WS_TREND_BOOT) npairs = WS_TREND_BOOT;
  float *pairs = malloc(npairs * sizeof *pairs);
  float *boot = malloc(WS_TREND_BOOT * sizeof *boot);
  double *work = malloc(3 * n * sizeof *work);
  if (pairs == NULL || boot == NULL || work == NULL) {
    free(pairs);
    free(boot);
    free(work);
    return WS_ENOMEM;
  }
  double *resid = work, *tmp = work + n, *ystar = work + 2 * n;

  /* Work relative to y[0] so that floats keep their precision on large
   * values such as bytes. */
  double y0 = y[0];
  for (size_t i = 0; i < n; i++) ystar[i] = y[i] - y0;
  double slope = theil_sen(x, ystar, n, pairs);
  double icept = intercept_of(x, ystar, n, slope, pairs);
  out->slope = slope;
  out->intercept = icept + y0;

  double s = 0;
  for (size_t i = 0; i < n; i++)
    for (size_t j = i + 1; j < n; j++) s += (y[j] > y[i]) - (y[j] < y[i]);
  double var = mk_variance(y, n, tmp);
  for (size_t i = 0; i < n; i++) resid[i] = ystar[i] - icept - slope * x[i];
  out->var_ratio = hamed_rao(resid, n, tmp);
  if (var > 0) {
    double sc = s > 0 ? s - 1 : s < 0 ? s + 1 : 0;
    out->z = sc / sqrt(var * out->var_ratio);
    out->p_up = ws_normal_sf(out->z);
  } else {
    out->z = 0;
    out->p_up = 1;
  }

  /* Moving-block bootstrap of the residuals around the fitted line: blocks
   * keep short-range dependence that batching left. */
  size_t block = (size_t)ceil(cbrt((double)n));
  if (block < 2) block = 2;
  ws_rng rng;
  ws_rng_seed(&rng, seed);
  for (size_t r = 0; r < WS_TREND_BOOT; r++) {
    for (size_t i = 0; i < n;) {
      size_t start = (size_t)ws_rng_range(&rng, 0, n - block);
      for (size_t b = 0; b < block && i < n; b++, i++)
        ystar[i] = icept + slope * x[i] + resid[start + b];
    }
    boot[r] = (float)theil_sen(x, ystar, n, pairs);
  }
  const double probs[4] = {0.025, 0.975, 0.01, 0.99};
  double ci[4];
  ws_quantiles_f32(boot, WS_TREND_BOOT, probs, 4, ci, pairs);
  out->low = ci[0];
  out->high = ci[1];
  out->low98 = ci[2];
  out->high98 = ci[3];
  free(pairs);
  free(boot);
  free(work);
  return 0;
}
