/* Whole-run analysis: chooses the warm-up points, runs the time drift from
 * the time warm-up and every memory series' trend from the later of the two,
 * finds what reached its limit and what the data leaves open, and classifies
 * the results. */
#include <math.h>
#include <stdlib.h>

#include "ws_internal.h"
#include "ws_stats.h"

void ws_verdict_opts_default(ws_verdict_opts *o) {
  o->warmup = -1;
#define WS_SET_DEFAULT(field, value, js) o->field = (value);
  WS_VERDICT_DEFAULTS(WS_SET_DEFAULT)
#undef WS_SET_DEFAULT
  o->seed = 1;
  o->flags = NULL;
  o->replica = NULL;
}

/* Returns the value of a step series at iteration t. */
static double value_at(const ws_series_in *s, double t) {
  double v = s->value[0];
  for (size_t i = 1; i < s->n && s->iter[i] <= t; i++)
    v = s->value[i];
  return v;
}

/* Returns 1 when a sustained series of role is judged against the memory
 * floor: live bytes, the heap and linear memory. The stack has none (it is
 * small, and any drift that lasts overflows it: its depth starts near 0, so
 * a relative floor would never apply), the JS heap has its own threshold,
 * and the holes only qualify another series' growth. */
static int has_floor(int role) {
  return role == WS_ROLE_LIVE || role == WS_ROLE_HEAP || role == WS_ROLE_LINEAR ||
         role == WS_ROLE_LINEAR_ONE;
}

/* Returns 1 when result r rose after warm-up by a test that would make it a
 * finding or a question: sustained, a late large step, or a step that has
 * not levelled off. */
static int rose(const ws_memtrend_result *r) {
  return r->pattern == WS_PATTERN_SUSTAINED || r->events.late || r->still_rising;
}

/* Returns the signal of series s and its result r in a run of calls: its
 * pattern, whether a rise (sustained, or a step left open) stays below the
 * memory floor (o: then it is a note, neither a finding nor a question),
 * where it grew to its limit (within the last growth step, or a page, of
 * it), and what it leaves open with the calls that would decide it, by the
 * series' own sampling rate. */
static ws_signal signal_of(const ws_series_in *s, const ws_memtrend_result *r,
                           size_t calls, const ws_verdict_opts *o) {
  ws_signal g = {s->role, r->pattern, r->peak_grows, r->grown, 0, 0, -1, 0, 0};
  if (rose(r) && has_floor(s->role))
    g.below_floor =
        ws_mem_floor(r, s->step, o->mem_floor_per_call, o->mem_floor_relative).below;
  /* Only growth reaches the limit: a memory declared at its maximum (a
   * build without memory growth) is not exhausted by starting there. */
  for (size_t j = 1; s->limit > 0 && j < s->n; j++) {
    if (s->value[j] > s->value[j - 1] &&
        ws__at_limit(s->value[j - 1], s->value[j], s->limit)) {
      g.exhausted_at = s->iter[j];
      g.bytes = s->value[j];
      break;
    }
  }
  double window = (double)(r->to - r->from);
  if (r->pattern == WS_PATTERN_UNTESTED) {
    if (s->step || window <= WS_MEM_SEGMENTS) {
      g.undecided = WS_UNDECIDED_FEW_CALLS;
      g.more_calls = WS_MEM_SEGMENTS + 1 - window;
    } else {
      /* Calls per sample over the whole series; samples clustered in too
       * few segments need the window again. */
      double per = s->n >= 2 ? (s->iter[s->n - 1] - s->iter[0]) / (double)(s->n - 1)
                             : (double)calls;
      g.undecided = WS_UNDECIDED_FEW_SAMPLES;
      g.more_calls = r->points < WS_MEM_MIN_POINTS
                         ? ceil(per * (double)(WS_MEM_MIN_POINTS - r->points))
                         : window;
    }
  } else if (g.below_floor) {
    /* Too small to matter at this rate: a note says after how many calls it
     * would (docs/verdicts.md, "Practical significance of memory growth"). */
  } else if (r->pattern != WS_PATTERN_SUSTAINED && r->events.late) {
    /* A plateau as long as the run up to the last large step rules out the
     * next step of a leak under a doubling (or coarser) policy. */
    g.undecided = WS_UNDECIDED_LATE_STEP;
    double more = 2 * r->events.last_large - (double)calls;
    g.more_calls = more > 1 ? ceil(more) : 1;
  } else if (r->still_rising) {
    g.undecided = WS_UNDECIDED_STILL_RISING;
    g.more_calls = window;
  }
  return g;
}

/* Stores the notes of analysed run v (series[0..k), their signals sig, the
 * first linear series or NULL) in v->notes: every series below the floor,
 * start-up growth of linear memory (WS_STARTUP_RATIO, WS_STARTUP_MIN_BYTES),
 * a sawtooth of the first tested live-byte series. Returns 0 or WS_ENOMEM. */
static int add_notes(const ws_series_in *series, size_t k, const ws_signal *sig,
                     const ws_series_in *linear, const ws_verdict_opts *o,
                     ws_verdict *v) {
  for (size_t i = 0; i < k; i++) {
    if (!sig[i].below_floor)
      continue;
    ws_floor f = ws_mem_floor(&v->series[i], series[i].step, o->mem_floor_per_call,
                              o->mem_floor_relative);
    v->notes[v->nnotes++] = (ws_note){.kind = WS_NOTE_BELOW_FLOOR,
                                      .series = (int)i,
                                      .grown = f.grown,
                                      .per_call = f.per_call,
                                      .relative = f.relative,
                                      .more_calls = f.more_calls};
  }
  if (linear != NULL && v->warmup > 0) {
    double first = linear->value[0], end = first + v->startup_growth;
    if (first > 0 && end >= WS_STARTUP_RATIO * first &&
        v->startup_growth >= WS_STARTUP_MIN_BYTES)
      v->notes[v->nnotes++] = (ws_note){.kind = WS_NOTE_STARTUP_GROWTH,
                                        .series = (int)(linear - series),
                                        .grown = v->startup_growth,
                                        .relative = end / first,
                                        .from = first,
                                        .to = end,
                                        .at = (double)v->warmup};
  }
  for (size_t i = 0; i < k; i++) {
    if (series[i].role != WS_ROLE_LIVE || sig[i].pattern == WS_PATTERN_UNTESTED)
      continue;
    ws_sawtooth_result st;
    int rc = ws_sawtooth(series[i].iter, series[i].value, series[i].n, v->warmup,
                         v->series[i].to, &st);
    if (rc != 0)
      return rc;
    if (st.sawtooth)
      v->notes[v->nnotes++] =
          (ws_note){.kind = WS_NOTE_SAWTOOTH,
                    .series = (int)i,
                    .grown = st.largest,
                    .from = st.low,
                    .to = st.high,
                    .at = (st.last - st.first) / (double)(st.falls - 1),
                    .count = (double)st.falls};
    break;
  }
  return 0;
}

/* Replicates v's flagged time test on o->replica (ws_drift_replicate), its
 * own time warm-up found as the first pass's was (auto: MSER, capped like
 * the chosen point; fixed: the same iteration). Returns 0 or an error. */
static int replicate(const ws_verdict_opts *o, const ws_drift_opts *d, ws_verdict *v) {
  const ws_replica *rp = o->replica;
  size_t from;
  if (o->warmup < 0) {
    int rc = ws_warmup_time(rp->elapsed, rp->calls, &from);
    if (rc != 0)
      return rc;
    size_t cap = rp->calls / WS_WARMUP_CAP_DIVISOR;
    from = from < cap ? from : cap;
  } else
    from = (size_t)o->warmup < rp->calls ? (size_t)o->warmup : rp->calls;
  v->replica_tested = 1;
  return ws_drift_replicate(rp->elapsed, rp->calls, from, d, &rp->control, &v->time,
                            &v->replica);
}

/* Returns whether growth finding f rests on peaks of live bytes freed late
 * (WS_GROWTH_HEAP_END, LIVE_PEAKS, LIVE_RISING), which a GC's timing moves. */
static int rests_on_peaks(const ws_finding *f) {
  return f->kind == WS_KIND_GROWTH &&
         (f->cause == WS_GROWTH_HEAP_END || f->cause == WS_GROWTH_LIVE_PEAKS ||
          f->cause == WS_GROWTH_LIVE_RISING);
}

/* Returns whether a level trend r of a series that can fall decided
 * something short of beyond doubt (p above WS_BEYOND_DOUBT_P): a working
 * set's own wander sets such a trend at alpha in about 1 % of stationary
 * runs, and the same calls again wander the same way. */
static int wander_can_explain(const ws_memtrend_result *r) {
  return !r->never_falls && !(r->trend.p_up <= WS_BEYOND_DOUBT_P);
}

int ws_finding_must_recur(const ws_finding *f, const ws_memtrend_result *results) {
  if (f->series < 0 || (f->kind != WS_KIND_LEAK && f->kind != WS_KIND_FRAGMENTATION &&
                        f->kind != WS_KIND_GROWTH))
    return 0;
  return rests_on_peaks(f) || wander_can_explain(&results[f->series]);
}

int ws_question_must_recur(const ws_undecided *u, const ws_memtrend_result *results) {
  return u->reason == WS_UNDECIDED_STILL_RISING && u->series >= 0 &&
         wander_can_explain(&results[u->series]);
}

/* Analyses o->replica's series i from v's warm-up into the next replica
 * result (rp->calls: its window's end) and returns it, or NULL with *rc set
 * (WS_ENOMEM), or NULL with *rc 0 when the replica did not see the series or
 * v has no room left. */
static const ws_memtrend_result *replica_series(const ws_verdict_opts *o, int i,
                                                ws_verdict *v, int *rc) {
  const ws_replica *rp = o->replica;
  *rc = 0;
  if ((size_t)i >= rp->k || rp->series[i].n == 0 || v->nreplica_series >= WS_MAX_REPLICA)
    return NULL;
  const ws_series_in *s = &rp->series[i];
  ws_memtrend_result *r = &v->replica_results[v->nreplica_series];
  *rc = ws_memtrend_analyze(s->iter, s->value, s->n, s->step, v->warmup, rp->calls,
                            o->alpha, r);
  if (*rc != 0)
    return NULL;
  v->replica_series[v->nreplica_series++] = i;
  return r;
}

/* Tests v's memory findings and questions that must recur
 * (ws_finding_must_recur, ws_question_must_recur) on o->replica's series of
 * the same index, from v's warm-up: growth held by peaks recurs when its
 * series is sustained there; a finding a wander could explain, when its
 * series rises significantly there too (sustained, or a step: its level
 * trend up at alpha, interval above 0). A finding that does not recur becomes the
 * question WS_UNDECIDED_NOT_REPLICATED (the window's calls would decide it); a
 * still-rising question closes when its series is flat there, or a step
 * that levelled off, and leaves a WS_NOTE_NOT_REPEATED note. One the
 * replica did not see stays as it is. calls: the first pass's. Returns 0 or
 * WS_ENOMEM. */
static int replicate_memory(const ws_verdict_opts *o, size_t calls, ws_verdict *v) {
  size_t kept = 0;
  int rc = 0;
  for (size_t i = 0; i < v->nfindings; i++) {
    ws_finding f = v->findings[i];
    const ws_memtrend_result *r =
        ws_finding_must_recur(&f, v->series) ? replica_series(o, f.series, v, &rc) : NULL;
    if (r == NULL && rc != 0)
      return rc;
    int recurs = r == NULL || r->pattern == WS_PATTERN_SUSTAINED ||
                 (!rests_on_peaks(&f) && r->pattern == WS_PATTERN_STEP);
    if (r != NULL)
      v->replica_recurred[v->nreplica_series - 1] = recurs;
    if (recurs)
      v->findings[kept++] = f;
    else if (v->nundecided < WS_MAX_SERIES + 1)
      v->undecided[v->nundecided++] = (ws_undecided){
          WS_UNDECIDED_NOT_REPLICATED, f.series, (double)(calls - v->warmup)};
  }
  v->nfindings = kept;
  kept = 0;
  for (size_t i = 0; i < v->nundecided; i++) {
    ws_undecided u = v->undecided[i];
    const ws_memtrend_result *r = ws_question_must_recur(&u, v->series)
                                      ? replica_series(o, u.series, v, &rc)
                                      : NULL;
    if (r == NULL && rc != 0)
      return rc;
    int settled = r != NULL && (r->pattern == WS_PATTERN_FLAT ||
                                (r->pattern == WS_PATTERN_STEP && !r->still_rising));
    if (r != NULL)
      v->replica_recurred[v->nreplica_series - 1] =
          !settled && r->pattern != WS_PATTERN_UNTESTED;
    if (!settled)
      v->undecided[kept++] = u;
    else if (v->nnotes < WS_MAX_NOTES)
      v->notes[v->nnotes++] = (ws_note){.kind = WS_NOTE_NOT_REPEATED,
                                        .series = u.series,
                                        .from = v->series[u.series].start,
                                        .to = v->series[u.series].end};
  }
  v->nundecided = kept;
  return 0;
}

/* Returns what the time test leaves to classification. */
static ws_time_signal time_signal(const ws_drift_result *d) {
  ws_time_signal t = {d->flagged, 0, 0};
  double window = (double)(d->to - d->from);
  if (!d->tested) {
    t.undecided = WS_UNDECIDED_FEW_CALLS;
    t.more_calls =
        window < WS_TIME_MIN_CALLS ? WS_TIME_MIN_CALLS - window : WS_TIME_MIN_CALLS;
  } else if (d->spans) {
    t.undecided = WS_UNDECIDED_SPANS_THRESHOLD;
    t.more_calls = d->more_calls;
  } else if (d->machine_noise) {
    t.undecided = WS_UNDECIDED_MACHINE_NOISE;
    t.more_calls = d->more_calls;
  } else if (d->unsustained) {
    t.undecided = WS_UNDECIDED_UNSUSTAINED;
    t.more_calls = d->more_calls;
  } else if (d->unreplicated) {
    t.undecided = WS_UNDECIDED_NOT_REPLICATED;
    t.more_calls = d->more_calls;
  }
  return t;
}

int ws_analyze_run(const float *elapsed, size_t calls, const ws_series_in *series,
                   size_t k, const ws_verdict_opts *o, ws_verdict *v) {
  if (!(o->alpha > 0 && o->alpha < 1) || !(o->time_threshold >= 0) ||
      !(o->js_heap_threshold >= 0) || !(o->mem_floor_per_call >= 0) ||
      !(o->mem_floor_relative >= 0) || k > WS_MAX_SERIES)
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
      ws_warmup_memory(linear->iter, linear->value, linear->n, calls, linear->limit,
                       &v->warmup_memory);
    size_t w = v->warmup_time > v->warmup_memory ? v->warmup_time : v->warmup_memory;
    size_t cap = calls / WS_WARMUP_CAP_DIVISOR;
    v->warmup = w < cap ? w : cap;
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
    time_from = v->warmup_time < v->warmup ? v->warmup_time : v->warmup;
  ws_drift_opts d = {o->time_threshold, o->alpha, o->seed};
  ws_time_control ctl = {NULL, NULL, 0, o->flags};
  for (size_t i = 0; i < k; i++) {
    if (series[i].role == WS_ROLE_CONTROL) {
      ctl.ctl_iter = series[i].iter;
      ctl.ctl_ns = series[i].value;
      ctl.ctl_n = series[i].n;
    }
  }
  if ((rc = ws_drift_analyze(elapsed, calls, time_from, &d, &ctl, &v->time)) != 0)
    return rc;
  if (v->time.flagged && o->replica != NULL) {
    if ((rc = replicate(o, &d, v)) != 0)
      return rc;
  }

  ws_signal sig[WS_MAX_SERIES];
  size_t nsig = 0;
  for (size_t i = 0; i < k; i++) {
    const ws_series_in *s = &series[i];
    if (s->role == WS_ROLE_CONTROL) {
      /* The machine, not memory: judged with time above; its signal keeps
       * the series' index (findings name series by it) and asks nothing. */
      results[i] = (ws_memtrend_result){0};
      results[i].pattern = WS_PATTERN_UNTESTED;
      sig[nsig++] = (ws_signal){s->role, WS_PATTERN_UNTESTED, 0, 0, 0, 0, -1, 0, 0};
      continue;
    }
    rc = ws_memtrend_analyze(s->iter, s->value, s->n, s->step, v->warmup, calls, o->alpha,
                             &results[i]);
    if (rc != 0)
      return rc;
    sig[nsig++] = signal_of(s, &results[i], calls, o);
  }
  ws_time_signal ts = time_signal(&v->time);
  ws_classify(sig, nsig, &ts, o->js_heap_threshold, v->findings, &v->nfindings,
              &v->below_threshold, v->undecided, &v->nundecided);
  for (size_t i = 0; i < v->nfindings; i++)
    v->must_recur |= ws_finding_must_recur(&v->findings[i], results);
  for (size_t i = 0; i < v->nundecided; i++)
    v->must_recur |= ws_question_must_recur(&v->undecided[i], results);
  if (o->replica != NULL && (rc = replicate_memory(o, calls, v)) != 0)
    return rc;
  return add_notes(series, k, sig, linear, o, v);
}
