/* Moving-block bootstrap of the relative change between two windows of a
 * log-scale series (the early and late post-warm-up windows of ws_drift.c).
 * Blocks of consecutive values keep the short-range dependence a resample of
 * single values would break; each window is resampled on its own, so the
 * change between them is never mixed into the noise. Deterministic for a
 * seed (xoshiro256**, ws.h). */
#include <math.h>
#include <stdlib.h>

#include "ws_internal.h"
#include "ws_stats.h"

/* Returns the block length for a window of m >= 1 values: the smallest b
 * with b^3 >= m, i.e. ceil(m^(1/3)) computed without rounding error. */
static size_t block_length(size_t m) {
  size_t b = 1;
  while (b * b * b < m)
    b++;
  return b;
}

/* Returns the mean of y[0..m) (m >= 1). */
static double mean_of(const double *y, size_t m) {
  double sum = 0;
  for (size_t i = 0; i < m; i++)
    sum += y[i];
  return sum / (double)m;
}

/* Returns the mean of one moving-block resample of y[0..m) (1 <= b <= m):
 * ceil(m / b) blocks of b consecutive values, each starting at a uniform
 * position in [0, m - b], concatenated and cut to m values. */
static double resampled_mean(ws_rng *rng, const double *y, size_t m, size_t b) {
  double sum = 0;
  size_t taken = 0;
  while (taken < m) {
    size_t start = (size_t)ws_rng_range(rng, 0, (uint64_t)(m - b));
    for (size_t i = 0; i < b && taken < m; i++, taken++)
      sum += y[start + i];
  }
  return sum / (double)m;
}

/* Returns the p-quantile (0 <= p <= 1) of sorted a[0..n), n >= 1, by linear
 * interpolation between order statistics (type 7). */
static double sorted_quantile(const double *a, size_t n, double p) {
  double h = p * (double)(n - 1);
  size_t lo = (size_t)floor(h);
  if (lo + 1 >= n)
    return a[n - 1];
  return a[lo] + (h - (double)lo) * (a[lo + 1] - a[lo]);
}

/* Returns sum_i (c_i / n)^2 over the values of a window of m, where c_i
 * counts the n = m - b + 1 block starts whose first len values (len <= b)
 * include value i: how unevenly a draw of len values from one random block
 * weighs the window. */
static double block_weight_square(size_t m, size_t b, size_t len) {
  size_t n = m - b + 1;
  double sum = 0;
  for (size_t i = 0; i < m; i++) {
    size_t lo = i + 1 >= len ? i + 1 - len : 0, hi = i < n - 1 ? i : n - 1;
    double c = hi >= lo ? (double)(hi - lo + 1) : 0;
    sum += (c / (double)n) * (c / (double)n);
  }
  return sum;
}

/* Returns the expected bootstrap variance of the resampled mean of a window
 * of m independent values (blocks of b <= m) over their true variance: the
 * resampled sum is ceil(m / b) independent block draws, the last cut to the
 * remaining values, and each draw of len values has expected variance
 * (len - m w2) sigma^2, w2 from block_weight_square. 1 - 1/m for b = 1, about
 * 0.73 for 12 values in blocks of 3. */
static double iid_variance_ratio(size_t m, size_t b) {
  double v = 0;
  for (size_t taken = 0; taken < m; taken += b) {
    size_t len = m - taken < b ? m - taken : b;
    v += (double)len - block_weight_square(m, b, len);
  }
  return v / (double)m;
}

/* Returns the tail probability at which to read the bootstrap distribution
 * for a two-sided interval of level (0, 1) from windows of m >= 4 values in
 * blocks of b: Hesterberg's expanded percentile interval,
 * Phi(-t / sqrt(f)), t the (1 + level) / 2 quantile of Student's t with m - 1
 * degrees of freedom and f the bootstrap's variance ratio for independent
 * values (Hesterberg's (m - 1) / m, generalised to blocks). A plain percentile
 * interval of a mean runs narrow on a dozen values: the bootstrap variance
 * misses the factor 1 / f, and the normal tail is thinner than the t tail of
 * an estimated spread. */
static double expanded_tail(double level, size_t m, size_t b) {
  double t = ws__t_upper_quantile((1 - level) / 2, m - 1);
  return ws_normal_sf(t / sqrt(iid_variance_ratio(m, b)));
}

int ws_bootstrap_change(const double *early, size_t ne, const double *late, size_t nl,
                        size_t replicates, double level, uint64_t seed,
                        ws_window_change *out) {
  if (ne < WS_BOOT_MIN_WINDOW || nl < WS_BOOT_MIN_WINDOW || replicates < 2 ||
      !(level > 0 && level < 1))
    return WS_EINVAL;
  double *diff = malloc(replicates * sizeof *diff);
  if (diff == NULL)
    return WS_ENOMEM;
  size_t be = block_length(ne), bl = block_length(nl);
  ws_rng rng;
  ws_rng_seed(&rng, seed);
  for (size_t r = 0; r < replicates; r++)
    diff[r] = resampled_mean(&rng, late, nl, bl) - resampled_mean(&rng, early, ne, be);
  qsort(diff, replicates, sizeof *diff, ws__compare_doubles);
  double estimate = mean_of(late, nl) - mean_of(early, ne);
  /* Moving blocks draw a window's end values less often than its middle
   * ones, so the replicates centre on a reweighted mean, not on the
   * estimate: shift them back (the centred moving-block bootstrap). */
  double shift = estimate - mean_of(diff, replicates);
  double tail = ne <= nl ? expanded_tail(level, ne, be) : expanded_tail(level, nl, bl);
  out->change = expm1(estimate);
  out->low = expm1(sorted_quantile(diff, replicates, tail) + shift);
  out->high = expm1(sorted_quantile(diff, replicates, 1 - tail) + shift);
  out->block = be > bl ? be : bl;
  out->replicates = replicates;
  free(diff);
  return 0;
}

int ws_bootstrap_paired(const double *d, size_t n, size_t replicates, double level,
                        uint64_t seed, ws_window_change *out) {
  if (n < WS_BOOT_MIN_WINDOW || replicates < 2 || !(level > 0 && level < 1))
    return WS_EINVAL;
  for (size_t i = 0; i < n; i++)
    if (!isfinite(d[i]))
      return WS_EINVAL;
  double *means = malloc(replicates * sizeof *means);
  if (means == NULL)
    return WS_ENOMEM;
  size_t b = block_length(n);
  ws_rng rng;
  ws_rng_seed(&rng, seed);
  for (size_t r = 0; r < replicates; r++)
    means[r] = resampled_mean(&rng, d, n, b);
  qsort(means, replicates, sizeof *means, ws__compare_doubles);
  double estimate = mean_of(d, n);
  double shift = estimate - mean_of(means, replicates);
  double tail = expanded_tail(level, n, b);
  out->change = expm1(estimate);
  out->low = expm1(sorted_quantile(means, replicates, tail) + shift);
  out->high = expm1(sorted_quantile(means, replicates, 1 - tail) + shift);
  out->block = b;
  out->replicates = replicates;
  free(means);
  return 0;
}
