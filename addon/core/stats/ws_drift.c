/* Time drift: is time per call after warm-up trending up by a change that
 * matters, with the stated confidence? Reduces the calls to the interquartile mean of
 * ln(time) per batch, which shrugs off spikes, GC pauses and most short-range
 * autocorrelation yet wastes less of the data than a median, then runs ws_trend_fit. Also
 * measures the change between the early and late window (ws_time_windows:
 * first and last fifth of the batches) with a bootstrap interval, for the
 * findings' words; the flag is the trend test's alone (docs/verdicts.md
 * says why). */
#include <math.h>
#include <stdlib.h>

#include "ws_internal.h"
#include "ws_stats.h"

/* Fewest batches the trend test takes. */
#define MIN_BATCHES 8

/* Reduces batch b[0..n) (n >= 4, reordered) to the mean of ln of its middle
 * half (ranks n/4 .. n - n/4 - 1). A 25 % trimmed mean ignores up to a
 * quarter of outliers on each side, like the median, but keeps about 84 % of
 * the efficiency of the mean on a normal body where the median keeps 64 %. */
static double interquartile_log_mean(float *b, size_t n) {
  size_t k1 = n / 4, k2 = n - n / 4 - 1;
  ws__select_f32(b, n, k1);
  ws__select_f32(b + k1, n - k1, k2 - k1);
  /* b[k1..k2] is the middle half, unordered. */
  double sum = 0;
  for (size_t i = k1; i <= k2; i++)
    sum += log(b[i] > 1.0f ? (double)b[i] : 1.0);
  return sum / (double)(k2 - k1 + 1);
}

/* Fills r's window measures from the batch values by[0..nb) (nb >= 8) and
 * the windows w: the typical call of each window is exp of its mean batch
 * value, and the change between them gets a 95 % moving-block bootstrap
 * interval when each window has at least WS_BOOT_MIN_WINDOW batches (else
 * NaN bounds). Returns 0 or WS_ENOMEM. */
static int measure_windows(const double *by, size_t nb, const ws_windows *w,
                           uint64_t seed, ws_drift_result *r) {
  size_t m = w->window_batches;
  double early = 0, late = 0;
  for (size_t j = 0; j < m; j++) {
    early += by[j];
    late += by[nb - m + j];
  }
  early /= (double)m;
  late /= (double)m;
  r->early_ns = exp(early);
  r->late_ns = exp(late);
  r->windows_change = expm1(late - early);
  r->windows_low = r->windows_high = NAN;
  if (m < WS_BOOT_MIN_WINDOW)
    return 0;
  ws_window_change c;
  int rc = ws_bootstrap_change(by, m, by + nb - m, m, WS_BOOT_REPLICATES, 0.95, seed, &c);
  if (rc != 0)
    return rc;
  r->windows_low = c.low;
  r->windows_high = c.high;
  r->windows_block = c.block;
  return 0;
}

/* Returns how many calls beyond window (the tested calls) would narrow the
 * 98 % effect interval of r, if its half-width falls as 1 / sqrt(calls),
 * until it no longer holds the threshold: window x ((h / d)^2 - 1), d the
 * distance of the effect from the threshold (at least a tenth of h), h the
 * interval's half-width on that side. */
static double more_calls_to_clear(const ws_drift_result *r, double threshold,
                                  double window) {
  int below = r->effect < threshold;
  double h = below ? r->effect_high98 - r->effect : r->effect - r->effect_low98;
  double d = below ? threshold - r->effect : r->effect - threshold;
  if (d < h / 10)
    d = h / 10;
  double ratio = h / d;
  return ratio > 1 ? ceil(window * (ratio * ratio - 1)) : 0;
}

int ws_drift_analyze(const float *x, size_t calls, size_t from, const ws_drift_opts *o,
                     ws_drift_result *r) {
  if (!(o->threshold >= 0) || !(o->alpha > 0 && o->alpha < 1))
    return WS_EINVAL;
  *r = (ws_drift_result){0};
  ws_windows w;
  ws_time_windows(from, calls, &w);
  r->from = w.from;
  r->to = w.to;
  r->batches = w.batches;
  r->batch_size = w.batch_size;
  r->window_batches = w.window_batches;
  r->early_to = w.early_to;
  r->late_from = w.late_from;
  size_t nb = w.batches, size = w.batch_size;
  if (nb < MIN_BATCHES || size < WS_BATCH_MIN_CALLS)
    return 0;
  size_t largest = (w.to - w.from) - (nb - 1) * size;
  float *scratch = malloc(largest * sizeof *scratch);
  double *bx = malloc(2 * nb * sizeof *bx);
  if (scratch == NULL || bx == NULL) {
    free(scratch);
    free(bx);
    return WS_ENOMEM;
  }
  double *by = bx + nb;
  for (size_t j = 0; j < nb; j++) {
    size_t lo = w.from + j * size, hi = j + 1 == nb ? calls : lo + size;
    for (size_t i = lo; i < hi; i++)
      scratch[i - lo] = x[i];
    by[j] = interquartile_log_mean(scratch, hi - lo);
    bx[j] = 0.5 * ((double)lo + (double)hi);
  }
  int rc = ws_trend_fit(bx, by, nb, &r->trend);
  if (rc == 0)
    rc = measure_windows(by, nb, &w, o->seed, r);
  if (rc == 0) {
    double span = (double)calls;
    r->effect = expm1(r->trend.slope * span);
    r->effect_low = expm1(r->trend.low * span);
    r->effect_high = expm1(r->trend.high * span);
    r->tested = 1;
    r->effect_low98 = expm1(r->trend.low98 * span);
    r->effect_high98 = expm1(r->trend.high98 * span);
    /* A slowdown is a drift of at least the threshold shown with the stated
     * confidence: the 98 % interval's low end (a one-sided 99 % bound, the
     * test's alpha) must reach it. A significant rise whose interval only
     * reaches the threshold is left undecided. */
    int rising = r->trend.p_up < o->alpha;
    r->flagged = rising && r->effect_low98 >= o->threshold;
    r->spans = rising && !r->flagged && r->effect_high98 >= o->threshold;
    if (r->spans)
      r->more_calls = more_calls_to_clear(r, o->threshold, (double)(w.to - w.from));
  }
  free(scratch);
  free(bx);
  return rc;
}
