/* Time drift: is time per call after warm-up trending up by a change that
 * matters? Reduces the calls to ln(batch median), which shrugs off spikes, GC
 * pauses and most short-range autocorrelation, then runs ws_trend_fit. */
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
  double *bx = malloc(2 * nb * sizeof *bx);
  if (scratch == NULL || bx == NULL) {
    free(scratch);
    free(bx);
    return WS_ENOMEM;
  }
  double *by = bx + nb;
  for (size_t j = 0; j < nb; j++) {
    size_t lo = r->from + j * size, hi = j + 1 == nb ? calls : lo + size;
    for (size_t i = lo; i < hi; i++) scratch[i - lo] = x[i];
    double med = ws__median_f32(scratch, hi - lo);
    bx[j] = 0.5 * ((double)lo + (double)hi);
    by[j] = log(med > 1 ? med : 1);
  }
  int rc = ws_trend_fit(bx, by, nb, o->seed, &r->trend);
  if (rc == 0) {
    size_t fifth = nb / 5 > 0 ? nb / 5 : 1;
    r->early_ns = window_median_ns(by, 0, fifth, scratch);
    r->late_ns = window_median_ns(by, nb - fifth, nb, scratch);
    r->windows_change = r->late_ns / r->early_ns - 1;
    double span = (double)calls;
    r->effect = expm1(r->trend.slope * span);
    r->effect_low = expm1(r->trend.low * span);
    r->effect_high = expm1(r->trend.high * span);
    r->tested = 1;
    r->batches = nb;
    r->batch_size = size;
    /* A significant rise is dismissed as noise only when even the upper end
     * of its 98 % interval stays below the threshold. */
    r->flagged = r->trend.p_up < o->alpha && r->effect_low > 0 &&
                 expm1(r->trend.high98 * span) >= o->threshold;
  }
  free(scratch);
  free(bx);
  return rc;
}
