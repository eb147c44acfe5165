/* The time ratios of several arms to the first, judged as one family: each
 * arm's interval at the Bonferroni level for the number of arms compared
 * (the wider of its paired bootstrap interval, ws_bootstrap.c, widened, and
 * Student's t interval of the same pairs), and the spread of the blocks of
 * one arm against itself, a floor a real difference must clear
 * (docs/compare.md). */
#include <math.h>
#include <stdlib.h>

#include "ws_internal.h"
#include "ws_stats.h"

/* Returns the residual standard deviation of x[arm * rounds + round] (arms,
 * rounds >= 2) after removing each arm's mean and each round's mean. */
static double block_spread(const double *x, size_t arms, size_t rounds) {
  double grand = 0;
  for (size_t i = 0; i < arms * rounds; i++)
    grand += x[i];
  grand /= (double)(arms * rounds);
  double ss = 0;
  for (size_t j = 0; j < arms; j++) {
    double arm = 0;
    for (size_t r = 0; r < rounds; r++)
      arm += x[j * rounds + r];
    arm /= (double)rounds;
    for (size_t r = 0; r < rounds; r++) {
      double round = 0;
      for (size_t k = 0; k < arms; k++)
        round += x[k * rounds + r];
      double e = x[j * rounds + r] - arm - round / (double)arms + grand;
      ss += e * e;
    }
  }
  return sqrt(ss / (double)((arms - 1) * (rounds - 1)));
}

/* Returns the interval bound at log distance `factor` times bound's from the
 * estimate change (both relative changes > -1). */
static double widened(double change, double bound, double factor) {
  double mid = log1p(change);
  return expm1(mid + factor * (log1p(bound) - mid));
}

/* Returns the half-width of Student's t interval for the mean of d[0..n)
 * (n >= 2) with tail probability tail on each side: t_{n-1} sd / sqrt(n). */
static double t_half_width(const double *d, size_t n, double tail) {
  double mean = 0, ss = 0;
  for (size_t i = 0; i < n; i++)
    mean += d[i] / (double)n;
  for (size_t i = 0; i < n; i++)
    ss += (d[i] - mean) * (d[i] - mean);
  return ws__t_upper_quantile(tail, n - 1) * sqrt(ss / (double)(n - 1) / (double)n);
}

int ws_compare_family(const double *x, size_t arms, size_t rounds, size_t family,
                      size_t replicates, double level, uint64_t seed,
                      ws_window_change *out, ws_arm_family *fam) {
  if (arms < 2 || rounds < WS_BOOT_MIN_WINDOW || family < 1 || family > arms - 1 ||
      replicates < 2 || !(level > 0 && level < 1))
    return WS_EINVAL;
  for (size_t i = 0; i < arms * rounds; i++)
    if (!isfinite(x[i]))
      return WS_EINVAL;
  double *d = malloc(rounds * sizeof *d);
  if (d == NULL)
    return WS_ENOMEM;
  double alpha = 1 - level;
  fam->family = family;
  fam->arm_level = 1 - alpha / (double)family;
  double tail = alpha / (2 * (double)family);
  fam->widen = ws__t_upper_quantile(tail, rounds - 1) /
               ws__t_upper_quantile(alpha / 2, rounds - 1);
  fam->spread = block_spread(x, arms, rounds);
  fam->floor =
      fmax(expm1(WS_COMPARE_SPREAD_FLOOR * fam->spread), WS_COMPARE_INSTANCE_FLOOR);
  int err = 0;
  for (size_t j = 1; j < arms && err == 0; j++) {
    for (size_t r = 0; r < rounds; r++)
      d[r] = x[j * rounds + r] - x[r];
    ws_window_change *w = &out[j - 1];
    err = ws_bootstrap_paired(d, rounds, replicates, level, seed, w);
    if (err == 0) {
      double mid = log1p(w->change), half = t_half_width(d, rounds, tail);
      w->low = fmin(widened(w->change, w->low, fam->widen), expm1(mid - half));
      w->high = fmax(widened(w->change, w->high, fam->widen), expm1(mid + half));
    }
  }
  free(d);
  return err;
}
