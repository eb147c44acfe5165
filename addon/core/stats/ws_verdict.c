/* Whole-run analysis: chooses the warm-up points, runs the time drift from
 * the time warm-up and every memory series' trend from the later of the two,
 * and classifies the results. */
#include <stdlib.h>

#include "ws_stats.h"

void ws_verdict_opts_default(ws_verdict_opts *o) {
  o->warmup = -1;
#define WS_SET_DEFAULT(field, value, js) o->field = (value);
  WS_VERDICT_DEFAULTS(WS_SET_DEFAULT)
#undef WS_SET_DEFAULT
  o->seed = 1;
}

/* Returns the value of a step series at iteration t. */
static double value_at(const ws_series_in *s, double t) {
  double v = s->value[0];
  for (size_t i = 1; i < s->n && s->iter[i] <= t; i++)
    v = s->value[i];
  return v;
}

int ws_analyze_run(const float *elapsed, size_t calls, const ws_series_in *series,
                   size_t k, const ws_verdict_opts *o, ws_verdict *v) {
  if (!(o->alpha > 0 && o->alpha < 1) || !(o->time_threshold >= 0) ||
      !(o->js_heap_threshold >= 0) || k > WS_MAX_SERIES)
    return WS_EINVAL;
  ws_memtrend_result *results = v->series;
  *v = (ws_verdict){0};
  v->series = results;
  const ws_series_in *linear = NULL;
  for (size_t i = 0; i < k; i++)
    if (series[i].role == WS_ROLE_LINEAR && series[i].n > 0) {
      linear = &series[i];
      break;
    }
  int rc;
  if (o->warmup < 0) {
    v->warmup_auto = 1;
    if ((rc = ws_warmup_time(elapsed, calls, &v->warmup_time)) != 0)
      return rc;
    if (linear != NULL)
      ws_warmup_memory(linear->iter, linear->value, linear->n, calls, &v->warmup_memory);
    size_t w = v->warmup_time > v->warmup_memory ? v->warmup_time : v->warmup_memory;
    v->warmup = w < calls / 2 ? w : calls / 2;
  } else {
    size_t w = (size_t)o->warmup;
    v->warmup = w < calls ? w : calls;
    v->warmup_time = v->warmup;
    v->warmup_memory = v->warmup;
  }
  if (linear != NULL && v->warmup > 0)
    v->startup_growth = value_at(linear, (double)v->warmup - 1) - linear->value[0];

  /* Time needs only its own warm-up: MSER sees everything that slows the
   * early calls, memory start-up included, and every call cut after it would
   * only widen the interval. Memory series start at the later point. */
  size_t time_from = v->warmup;
  if (v->warmup_auto)
    time_from = v->warmup_time < calls / 2 ? v->warmup_time : calls / 2;
  ws_drift_opts d = {o->time_threshold, o->alpha, o->seed};
  if ((rc = ws_drift_analyze(elapsed, calls, time_from, &d, &v->time)) != 0)
    return rc;

  ws_signal sig[WS_MAX_SERIES];
  size_t nsig = 0;
  for (size_t i = 0; i < k; i++) {
    const ws_series_in *s = &series[i];
    rc = ws_memtrend_analyze(s->iter, s->value, s->n, s->step, v->warmup, calls, o->alpha,
                             &results[i]);
    if (rc != 0)
      return rc;
    sig[nsig++] =
        (ws_signal){s->role, results[i].pattern, results[i].peak_grows, results[i].grown};
  }
  v->verdict = ws_classify(sig, nsig, v->time.flagged, o->js_heap_threshold, v->findings,
                           &v->nfindings, &v->below_threshold);
  return 0;
}
