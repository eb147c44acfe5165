/* Trend test on a short sequence: Theil-Sen slope, Mann-Kendall test with
 * the Hamed-Rao (1998) correction for autocorrelation, and Sen's (1968)
 * distribution-free interval of the slope from the same (corrected) variance
 * of Kendall's S. Every caller first reduces its data to at most
 * WS_TREND_MAX points (batch statistics or segment levels), so the O(n^2)
 * pair work stays small. Deterministic: nothing here is random. */
#include <math.h>
#include <stdlib.h>

#include "ws_internal.h"
#include "ws_stats.h"

double ws_normal_sf(double z) {
  return 0.5 * erfc(z / sqrt(2.0));
}

/* Fills pairs[0..n(n-1)/2) with the pairwise slopes of (x, y). */
static void pair_slopes(const double *x, const double *y, size_t n, float *pairs) {
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    for (size_t j = i + 1; j < n; j++)
      pairs[m++] = (float)((y[j] - y[i]) / (x[j] - x[i]));
}

/* Returns the Mann-Kendall variance of S for y[0..n), corrected for ties;
 * sorted receives a sorted copy of y. */
static double mk_variance(const double *y, size_t n, double *sorted) {
  for (size_t i = 0; i < n; i++)
    sorted[i] = y[i];
  qsort(sorted, n, sizeof *sorted, ws__compare_doubles);
  double dn = (double)n;
  double v = dn * (dn - 1) * (2 * dn + 5);
  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    while (j < n && sorted[j] == sorted[i])
      j++;
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
      if (e[j] < e[i])
        below++;
      else if (e[j] == e[i] && j != i)
        equal++;
    }
    rank[i] = 1 + below + equal / 2;
  }
  double mean = ((double)n + 1) / 2, denom = 0;
  for (size_t i = 0; i < n; i++)
    denom += (rank[i] - mean) * (rank[i] - mean);
  if (denom <= 0)
    return 1;
  double dn = (double)n, limit = 1.96 / sqrt(dn), sum = 0;
  for (size_t k = 1; k + 2 < n; k++) {
    double c = 0;
    for (size_t i = 0; i + k < n; i++)
      c += (rank[i] - mean) * (rank[i + k] - mean);
    double rho = c / denom;
    if (fabs(rho) <= limit)
      continue;
    double dk = (double)k;
    sum += (dn - dk) * (dn - dk - 1) * (dn - dk - 2) * rho;
  }
  double ratio = 1 + 2 * sum / (dn * (dn - 1) * (dn - 2));
  return ratio > 1 ? ratio : 1;
}

int ws_trend_fit(const double *x, const double *y, size_t n, ws_trend *out) {
  if (n < 4 || n > WS_TREND_MAX)
    return WS_EINVAL;
  size_t npairs = n * (n - 1) / 2;
  float *pairs = malloc(npairs * sizeof *pairs);
  double *work = malloc(3 * n * sizeof *work);
  if (pairs == NULL || work == NULL) {
    free(pairs);
    free(work);
    return WS_ENOMEM;
  }
  double *resid = work, *tmp = work + n, *ystar = work + 2 * n;

  /* Work relative to y[0] so that floats keep their precision on large
   * values such as bytes. */
  double y0 = y[0];
  for (size_t i = 0; i < n; i++)
    ystar[i] = y[i] - y0;
  pair_slopes(x, ystar, n, pairs);
  double slope = ws__median_f32(pairs, npairs);
  for (size_t i = 0; i < n; i++)
    pairs[i] = (float)(ystar[i] - slope * x[i]);
  double icept = ws__median_f32(pairs, n);
  out->slope = slope;
  out->intercept = icept + y0;

  double s = 0;
  for (size_t i = 0; i < n; i++)
    for (size_t j = i + 1; j < n; j++)
      s += (y[j] > y[i]) - (y[j] < y[i]);
  double var = mk_variance(y, n, tmp);
  for (size_t i = 0; i < n; i++)
    resid[i] = ystar[i] - icept - slope * x[i];
  out->var_ratio = hamed_rao(resid, n, tmp);
  double sd = var > 0 ? sqrt(var * out->var_ratio) : 0;
  if (sd > 0) {
    double sc = s > 0 ? s - 1 : s < 0 ? s + 1 : 0;
    out->z = sc / sd;
    out->p_up = ws_normal_sf(out->z);
  } else {
    out->z = 0;
    out->p_up = 1;
  }

  /* Sen's interval: the slopes of ranks (N -+ z sd) / 2 among the N pairwise
   * slopes, sd being the corrected standard deviation of S. It inverts the
   * same test that gives p_up, so "p_up < alpha" and "the interval of level
   * 1 - 2 alpha lies above 0" agree, and it keeps its coverage where a
   * residual bootstrap of a few dozen points runs narrow. */
  static const double zq[2] = {1.959963984540054, 2.326347874040841}; /* 97.5 %, 99 % */
  double *ends[2][2] = {{&out->low, &out->high}, {&out->low98, &out->high98}};
  for (int q = 0; q < 2; q++) {
    double c = zq[q] * sd;
    *ends[q][0] = ws__rank_value_f32(pairs, npairs, ((double)npairs - c) / 2 - 1);
    *ends[q][1] = ws__rank_value_f32(pairs, npairs, ((double)npairs + c) / 2);
  }
  free(pairs);
  free(work);
  return 0;
}
