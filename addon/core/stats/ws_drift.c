/* Time drift: is time per call after warm-up trending up by a change that
 * matters, with the stated confidence? Reduces the calls to the interquartile mean of
 * ln(time) per batch, which shrugs off spikes, GC pauses and most short-range
 * autocorrelation yet wastes less of the data than a median, then runs ws_trend_fit. Also
 * measures the change between the early and late window (ws_time_windows:
 * first and last fifth of the batches) with a bootstrap interval, for the
 * findings' words; the flag is the trend test's alone (docs/verdicts.md
 * says why), confirmed against the machine's own drift when the run measured
 * a control (ws_control.h): the same test on the calls' time relative to a
 * reference workload timed between batches. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#include "ws_internal.h"
#include "ws_stats.h"

/* Fewest batches the trend test takes. */
#define MIN_BATCHES 8
/* Fewest calls whose batches are reduced on two threads: below it the
 * second thread costs more than it saves. */
#define TWO_THREADS_CALLS 1000000
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
  int rc = ws_bootstrap_change(by, m, by + nb - m, m, WS_BOOT_DRIFT_REPLICATES,
                               WS_BOOT_LEVEL, seed, &c);
  if (rc != 0)
    return rc;
  r->windows_low = c.low;
  r->windows_high = c.high;
  r->windows_block = c.block;
  return 0;
}

/* Returns how many calls beyond window (the tested calls) would narrow the
 * 98 % interval [low, high] of effect, if its half-width falls as
 * 1 / sqrt(calls), until it no longer holds the threshold:
 * window x ((h / d)^2 - 1), d the distance of the effect from the threshold
 * (at least a tenth of h), h the interval's half-width on that side. */
static double more_calls_to_clear(double effect, double low, double high,
                                  double threshold, double window) {
  int below = effect < threshold;
  double h = below ? high - effect : effect - low;
  double d = below ? threshold - effect : effect - threshold;
  if (d < h / 10)
    d = h / 10;
  double ratio = h / d;
  return ratio > 1 ? ceil(window * (ratio * ratio - 1)) : 0;
}

/* Fills c[0..nb) with the median ln(ns) of the control samples whose
 * iteration lies in each batch of w (the last batch ends at calls); a batch
 * without one takes the value interpolated between its nearest neighbours
 * that have one (the nearest one's past either end). Stores in *have how
 * many batches hold a sample and in *ends whether the early and the late
 * window both do. Returns 0 or WS_ENOMEM. */
static int control_per_batch(const ws_time_control *ctl, const ws_windows *w,
                             size_t calls, double *c, size_t *have, int *ends) {
  size_t nb = w->batches, size = w->batch_size, m = w->window_batches;
  double *scratch = malloc((ctl->ctl_n ? ctl->ctl_n : 1) * sizeof *scratch);
  char *got = calloc(nb, 1);
  if (scratch == NULL || got == NULL) {
    free(scratch);
    free(got);
    return WS_ENOMEM;
  }
  size_t at = 0;
  *have = 0;
  for (size_t j = 0; j < nb; j++) {
    double lo = (double)(w->from + j * size);
    double hi = j + 1 == nb ? (double)calls : lo + (double)size;
    while (at < ctl->ctl_n && ctl->ctl_iter[at] < lo)
      at++;
    size_t k = 0;
    for (; at < ctl->ctl_n && ctl->ctl_iter[at] < hi; at++)
      if (ctl->ctl_ns[at] > 0)
        scratch[k++] = log(ctl->ctl_ns[at]);
    if (k == 0)
      continue;
    qsort(scratch, k, sizeof *scratch, ws__compare_doubles);
    c[j] = k % 2 ? scratch[k / 2] : 0.5 * (scratch[k / 2 - 1] + scratch[k / 2]);
    got[j] = 1;
    (*have)++;
  }
  int early = 0, late = 0;
  for (size_t j = 0; j < m; j++) {
    early |= got[j];
    late |= got[nb - m + j];
  }
  *ends = early && late;
  for (size_t j = 0; j<nb && * have> 0; j++) {
    if (got[j])
      continue;
    size_t p = j, q = j;
    while (p > 0 && !got[p])
      p--;
    while (q + 1 < nb && !got[q])
      q++;
    if (!got[p])
      c[j] = c[q];
    else if (!got[q])
      c[j] = c[p];
    else
      c[j] = c[p] + (c[q] - c[p]) * (double)(j - p) / (double)(q - p);
  }
  free(scratch);
  free(got);
  return 0;
}

/* Fits the trend of (x, y)[0..n) and stores the change it implies across span
 * calls with its 98 % interval and upward p-value. Returns 0, WS_EINVAL (n
 * out of ws_trend_fit's range) or WS_ENOMEM. */
static int fit_change(const double *x, const double *y, size_t n, double span,
                      double *effect, double *low98, double *high98, double *p) {
  ws_trend t;
  int rc = ws_trend_fit(x, y, n, &t);
  if (rc != 0)
    return rc;
  *effect = expm1(t.slope * span);
  *low98 = expm1(t.low98 * span);
  *high98 = expm1(t.high98 * span);
  *p = t.p_up;
  return 0;
}

/* Judges the batches bx, by[0..nb) of w against the machine measured by ctl
 * (the calls' own test already in r): the control's median per batch, its
 * own trend, and the trend of by minus it, which it leaves in z[0..nb) when
 * it sets r->controlled. Sets r's control fields and its decision: flagged
 * when the trend against the machine shows the threshold and the calls' own
 * trend at least spans it; machine_noise when one test shows it and the
 * other does not even span it; the decided interval, the one against the
 * machine. Returns 0 or WS_ENOMEM. */
static int against_machine(const ws_time_control *ctl, const ws_windows *w, size_t calls,
                           const double *bx, const double *by, const ws_drift_opts *o,
                           double *z, ws_drift_result *r) {
  size_t nb = w->batches;
  double *c = malloc(nb * sizeof *c);
  if (c == NULL)
    return WS_ENOMEM;
  int ends = 0;
  int rc = control_per_batch(ctl, w, calls, c, &r->control_batches, &ends);
  if (rc != 0 || r->control_batches < MIN_BATCHES || !ends) {
    free(c);
    return rc;
  }
  double span = (double)calls;
  for (size_t j = 0; j < nb; j++)
    z[j] = by[j] - c[j];
  rc = fit_change(bx, c, nb, span, &r->control_effect, &r->control_low98,
                  &r->control_high98, &r->control_p);
  if (rc == 0)
    rc = fit_change(bx, z, nb, span, &r->adjusted_effect, &r->adjusted_low98,
                    &r->adjusted_high98, &r->adjusted_p);
  free(c);
  if (rc != 0)
    return rc;
  r->controlled = r->adjusted_tested = 1;
  int rising = r->adjusted_p < o->alpha;
  int flag = rising && r->adjusted_low98 >= o->threshold;
  int spans = rising && !flag && r->adjusted_high98 >= o->threshold;
  int own_flag = r->flagged, own_spans = r->spans;
  /* The trend against the machine decides; the calls' own trend must agree
   * (a significant rise that reaches the threshold, cleared or spanned): its
   * interval is wider by the machine's own noise, which the control takes
   * out. When one test shows the threshold and the other shows no rise of
   * it at all, they disagree: the machine slowed the calls (their own trend
   * alone), or it got faster while they did not, or the reference workload
   * answers the machine differently from the module (the trend against the
   * machine alone): nothing to find, nothing to call stable. */
  int own_agrees = own_flag || own_spans;
  r->flagged = flag && own_agrees;
  r->machine_noise = (own_flag && !flag && !spans) || (flag && !own_agrees);
  r->spans = own_agrees && spans;
  r->decided_effect = r->adjusted_effect;
  r->decided_low98 = r->adjusted_low98;
  r->decided_high98 = r->adjusted_high98;
  r->decided_p = r->adjusted_p;
  return 0;
}

/* Batches [j0, j1) of windows w over the times x (flags: each call's, or
 * NULL), reduced on one thread: their values go to by and their middle
 * iterations to bx; preempted and disturbed count as r's fields do. */
typedef struct {
  const float *x;
  const uint8_t *flags;
  const ws_windows *w;
  size_t calls, j0, j1;
  double *bx, *by;
  size_t preempted, disturbed;
  int rc; /* 0 or WS_ENOMEM */
} batch_range;

/* Returns batch [lo, hi)'s times and stores their count in *n: x's own
 * when flags (each call's, or NULL) marks none of them preempted, else
 * those not marked, copied to scratch, while enough remain
 * (WS_UNPREEMPTED_SHARE, at least 4). Counts the preempted calls left out
 * in r, and the batch in r->disturbed when too few remained (then every
 * call is in). */
static const float *batch_times(const float *x, const uint8_t *flags, size_t lo,
                                size_t hi, float *scratch, size_t *n, batch_range *r) {
  size_t all = hi - lo, marked = 0;
  if (flags != NULL)
    for (size_t i = lo; i < hi; i++)
      marked += (flags[i] & WS_FLAG_PREEMPTED) != 0;
  *n = all;
  if (marked == 0)
    return x + lo;
  if (all - marked >= 4 && (double)(all - marked) >= WS_UNPREEMPTED_SHARE * (double)all) {
    size_t k = 0;
    for (size_t i = lo; i < hi; i++)
      if (!(flags[i] & WS_FLAG_PREEMPTED))
        scratch[k++] = x[i];
    r->preempted += marked;
    *n = k;
    return scratch;
  }
  r->disturbed++;
  return x + lo;
}

/* Reduces the batches of g on the calling thread (batch_range) to their
 * interquartile log means (ws__iq_log_mean). Returns g (a thread's result). */
static void *reduce_range(void *arg) {
  batch_range *g = arg;
  const ws_windows *w = g->w;
  size_t size = w->batch_size, nb = w->batches;
  size_t largest = (w->to - w->from) - (nb - 1) * size;
  float *scratch = malloc(largest * sizeof *scratch);
  ws_iq_work work;
  g->rc = scratch == NULL || ws__iq_work_init(&work) != 0 ? WS_ENOMEM : 0;
  for (size_t j = g->j0; g->rc == 0 && j < g->j1; j++) {
    size_t lo = w->from + j * size, hi = j + 1 == nb ? g->calls : lo + size, n;
    const float *batch = batch_times(g->x, g->flags, lo, hi, scratch, &n, g);
    g->by[j] = ws__iq_log_mean(batch, n, &work);
    g->bx[j] = 0.5 * ((double)lo + (double)hi);
  }
  if (g->rc == 0)
    ws__iq_work_free(&work);
  free(scratch);
  return g;
}

/* Reduces the batches all names, the first half on a second thread when
 * the run is long (TWO_THREADS_CALLS) and one can be started: each batch's
 * value is the same either way. Sums the halves' counts into all. Returns 0
 * or WS_ENOMEM. */
static int reduce_batches(batch_range *all) {
  batch_range first = *all, second = *all;
  first.j1 = second.j0 = all->j1 / 2;
  pthread_t thread;
  if (all->calls < TWO_THREADS_CALLS ||
      pthread_create(&thread, NULL, reduce_range, &first) != 0) {
    reduce_range(all);
    return all->rc;
  }
  reduce_range(&second);
  pthread_join(thread, NULL);
  all->preempted = first.preempted + second.preempted;
  all->disturbed = first.disturbed + second.disturbed;
  return first.rc != 0 ? first.rc : second.rc;
}

/* Level at which each half of the batches must rise on its own for a
 * flagged drift to be sustained: lenient, since it can only turn a
 * finding into a question. */
#define HALF_ALPHA 0.1

/* Whether the batch values by[0..nb) at bx rise in each half on its own
 * (upward trend p < HALF_ALPHA in the first and in the second half): a drift
 * that goes on through the run, not a step or a stretch of wander. Stores
 * the halves' changes across the run in r. Returns 1, 0, or WS_ENOMEM. */
static int sustained(const double *bx, const double *by, size_t nb, double span,
                     ws_drift_result *r) {
  size_t h = nb / 2;
  double low, high, p1, p2;
  int rc = fit_change(bx, by, h, span, &r->first_half_effect, &low, &high, &p1);
  if (rc == 0)
    rc = fit_change(bx + h, by + h, nb - h, span, &r->second_half_effect, &low, &high,
                    &p2);
  if (rc != 0)
    return rc == WS_ENOMEM ? WS_ENOMEM : 0;
  return p1 < HALF_ALPHA && p2 < HALF_ALPHA;
}

int ws_drift_analyze(const float *x, size_t calls, size_t from, const ws_drift_opts *o,
                     const ws_time_control *ctl, ws_drift_result *r) {
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
  double *bx = malloc(3 * nb * sizeof *bx);
  if (bx == NULL)
    return WS_ENOMEM;
  double *by = bx + nb, *adjusted = by + nb;
  batch_range all = {x, ctl != NULL ? ctl->flags : NULL, &w, calls, 0, nb, bx, by, 0, 0,
                     0};
  int rc = reduce_batches(&all);
  r->preempted = all.preempted;
  r->disturbed = all.disturbed;
  if (rc == 0)
    rc = ws_trend_fit(bx, by, nb, &r->trend);
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
    r->decided_effect = r->effect;
    r->decided_low98 = r->effect_low98;
    r->decided_high98 = r->effect_high98;
    r->decided_p = r->trend.p_up;
    /* A slowdown is a drift of at least the threshold shown with the stated
     * confidence: the 98 % interval's low end (a one-sided 99 % bound, the
     * test's alpha) must reach it. A significant rise whose interval only
     * reaches the threshold is left undecided. */
    int rising = r->trend.p_up < o->alpha;
    r->flagged = rising && r->effect_low98 >= o->threshold;
    r->spans = rising && !r->flagged && r->effect_high98 >= o->threshold;
    if (ctl != NULL && ctl->ctl_n > 0)
      rc = against_machine(ctl, &w, calls, bx, by, o, adjusted, r);
    /* Each half must rise on its own, against the machine when controlled:
     * the machine's wander is not the module's. */
    if (rc == 0 && r->flagged) {
      int on = sustained(bx, r->controlled ? adjusted : by, nb, (double)calls, r);
      if (on < 0)
        rc = on;
      else if (on == 0) {
        r->flagged = 0;
        r->unsustained = 1;
      }
    }
    double window = (double)(w.to - w.from);
    if (rc == 0 && r->spans)
      r->more_calls = more_calls_to_clear(r->decided_effect, r->decided_low98,
                                          r->decided_high98, o->threshold, window);
    else if (rc == 0 && (r->machine_noise || r->unsustained))
      r->more_calls = window;
  }
  free(bx);
  return rc;
}

int ws_drift_replicate(const float *x, size_t calls, size_t from, const ws_drift_opts *o,
                       const ws_time_control *ctl, ws_drift_result *first,
                       ws_drift_result *second) {
  int rc = ws_drift_analyze(x, calls, from, o, ctl, second);
  if (rc != 0 || !first->flagged)
    return rc;
  int shown = second->tested && second->decided_p < o->alpha &&
              second->decided_high98 >= o->threshold;
  if (!shown) {
    first->flagged = 0;
    first->unreplicated = 1;
    first->more_calls = (double)(first->to - first->from);
  }
  return 0;
}
