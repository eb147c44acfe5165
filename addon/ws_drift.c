/* Time drift: is time per call after warm-up trending up by a change that
 * matters? Reduces the calls to the interquartile mean of ln(time) per batch,
 * which shrugs off spikes, GC pauses and most short-range autocorrelation yet
 * wastes less of the data than a median, then runs ws_trend_fit. */
#include <math.h>
#include <stdlib.h>

#include "ws_stats.h"

#define MAX_BATCHES 60
#define MIN_BATCH 10
#define MIN_BATCHES 8

/* Returns the median of the exp of y[lo..hi) (ns), using scratch. */
static double window_median_ns(const double *y, size_t lo, size_t hi, float *scratch) {
  for (size_t i = lo; i < hi; i++) scratch[i - lo] = (float)y[i];
  return exp(ws__median_f32(scratch, hi - lo));
}

/* Reduces batch b[0..n) (n >= 4, reordered) to the mean of ln of its middle
 * half (ranks n/4 .. n - n/4 - 1) and stores the batch median in *median. A
 * 25 % trimmed mean ignores up to a quarter of outliers on each side, like
 * the median, but keeps about 84 % of the efficiency of the mean on a normal
 * body where the median keeps 64 %. */
static double interquartile_log_mean(float *b, size_t n, double *median) {
  size_t k1 = n / 4, k2 = n - n / 4 - 1, mid = (n - 1) / 2;
  ws__select_f32(b, n, k1);
  ws__select_f32(b + k1, n - k1, k2 - k1);
  /* b[k1..k2] is the middle half, unordered; the median is inside it. */
  double sum = 0;
  for (size_t i = k1; i <= k2; i++) sum += log(b[i] > 1.0f ? (double)b[i] : 1.0);
  float *middle = b + k1;
  size_t len = k2 - k1 + 1;
  ws__select_f32(middle, len, mid - k1);
  double med = middle[mid - k1];
  if (n % 2 == 0) {
    float next = middle[mid - k1 + 1];
    for (size_t i = mid - k1 + 2; i < len; i++)
      if (middle[i] < next) next = middle[i];
    med = 0.5 * (med + (double)next);
  }
  *median = med;
  return sum / (double)len;
}

int ws_drift_analyze(const float *x, size_t calls, size_t from, const ws_drift_opts *o,
                     ws_drift_result *r) {
  if (!(o->threshold >= 0) || !(o->alpha > 0 && o->alpha < 1)) return WS_EINVAL;
  *r = (ws_drift_result){0};
  r->from = from < calls ? from : calls;
  r->to = calls;
  size_t n = r->to - r->from;
  size_t nb = n / MIN_BATCH;
  if (nb > MAX_BATCHES) nb = MAX_BATCHES;
  if (nb < MIN_BATCHES) return 0;
  size_t size = n / nb;
  size_t largest = n - (nb - 1) * size;
  if (largest < nb) largest = nb;
  float *scratch = malloc(largest * sizeof *scratch);
  double *bx = malloc(3 * nb * sizeof *bx);
  if (scratch == NULL || bx == NULL) {
    free(scratch);
    free(bx);
    return WS_ENOMEM;
  }
  double *by = bx + nb, *bmed = bx + 2 * nb;
  for (size_t j = 0; j < nb; j++) {
    size_t lo = r->from + j * size, hi = j + 1 == nb ? calls : lo + size;
    for (size_t i = lo; i < hi; i++) scratch[i - lo] = x[i];
    double med;
    by[j] = interquartile_log_mean(scratch, hi - lo, &med);
    bmed[j] = log(med > 1 ? med : 1);
    bx[j] = 0.5 * ((double)lo + (double)hi);
  }
  int rc = ws_trend_fit(bx, by, nb, &r->trend);
  if (rc == 0) {
    size_t fifth = nb / 5 > 0 ? nb / 5 : 1;
    r->early_ns = window_median_ns(bmed, 0, fifth, scratch);
    r->late_ns = window_median_ns(bmed, nb - fifth, nb, scratch);
    r->windows_change = r->late_ns / r->early_ns - 1;
    double span = (double)calls;
    r->effect = expm1(r->trend.slope * span);
    r->effect_low = expm1(r->trend.low * span);
    r->effect_high = expm1(r->trend.high * span);
    r->tested = 1;
    r->batches = nb;
    r->batch_size = size;
    /* A significant rise is dismissed as noise only when even the upper end
     * of its 98 % interval stays below the threshold: at a true change equal
     * to the threshold, that dismisses 1 % of runs. */
    r->flagged = r->trend.p_up < o->alpha && r->effect_low > 0 &&
                 expm1(r->trend.high98 * span) >= o->threshold;
  }
  free(scratch);
  free(bx);
  return rc;
}
