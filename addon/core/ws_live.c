/* The run so far, bounded (ws_live.h): per-call times thinned by a stride
 * that doubles whenever the buffer fills, the memory step series and the
 * slow metrics kept up to a cap each, all in kept-call units. */
#include <stdlib.h>

#include "ws.h"
#include "ws_internal.h"

/* One kept series with its own storage. */
typedef struct {
  uint16_t id;
  size_t n;
  double *iter, *t_ms, *value; /* t_ms is NULL for the memory series */
} series;

struct ws_live {
  size_t capacity;
  size_t kept;
  uint64_t calls, stride, last_t_ns;
  ws_grow_failures grow_failures;
  uint64_t first;           /* the run's first iteration (an iteration mark's) */
  ws_iteration_track track; /* the records' full iterations */
  float *elapsed;
  uint8_t *flags; /* each kept call's record flags */
  series memory;
  series metrics[WS_LIVE_MAX_METRICS];
  size_t n_metrics;
  ws_live_series view[WS_LIVE_MAX_METRICS]; /* what ws_live_get hands out */
};

/* Allocates the arrays of s (WS_LIVE_SERIES_CAP points each); returns 0 or
 * WS_ENOMEM (s keeps no allocation then). */
static int series_init(series *s, uint16_t id, int with_time) {
  s->id = id;
  s->n = 0;
  s->iter = malloc(WS_LIVE_SERIES_CAP * sizeof *s->iter);
  s->value = malloc(WS_LIVE_SERIES_CAP * sizeof *s->value);
  s->t_ms = with_time ? malloc(WS_LIVE_SERIES_CAP * sizeof *s->t_ms) : NULL;
  if (s->iter == NULL || s->value == NULL || (with_time && s->t_ms == NULL)) {
    free(s->iter);
    free(s->value);
    free(s->t_ms);
    s->iter = s->value = s->t_ms = NULL;
    return WS_ENOMEM;
  }
  return 0;
}

static void series_free(series *s) {
  free(s->iter);
  free(s->value);
  free(s->t_ms);
}

/* Appends a point, first dropping every other point when s is full. */
static void series_push(series *s, double iter, double t_ms, double value) {
  if (s->n == WS_LIVE_SERIES_CAP) {
    for (size_t i = 0; 2 * i < s->n; i++) {
      s->iter[i] = s->iter[2 * i];
      s->value[i] = s->value[2 * i];
      if (s->t_ms != NULL)
        s->t_ms[i] = s->t_ms[2 * i];
    }
    s->n = (s->n + 1) / 2;
  }
  s->iter[s->n] = iter;
  s->value[s->n] = value;
  if (s->t_ms != NULL)
    s->t_ms[s->n] = t_ms;
  s->n++;
}

/* Halves every kept iteration: the stride has doubled. */
static void series_rescale(series *s) {
  for (size_t i = 0; i < s->n; i++)
    s->iter[i] *= 0.5;
}

/* Drops every other kept time and doubles the stride. */
static void compact(ws_live *l) {
  for (size_t j = 0; 2 * j < l->kept; j++) {
    l->elapsed[j] = l->elapsed[2 * j];
    l->flags[j] = l->flags[2 * j];
  }
  l->kept = (l->kept + 1) / 2;
  l->stride *= 2;
  series_rescale(&l->memory);
  for (size_t i = 0; i < l->n_metrics; i++)
    series_rescale(&l->metrics[i]);
}

int ws_live_create(size_t capacity, ws_live **out) {
  if (capacity < 16 || capacity % 2 != 0)
    return WS_EINVAL;
  ws_live *l = calloc(1, sizeof *l);
  if (l == NULL)
    return WS_ENOMEM;
  l->capacity = capacity;
  l->stride = 1;
  l->elapsed = malloc(capacity * sizeof *l->elapsed);
  l->flags = malloc(capacity);
  if (l->elapsed == NULL || l->flags == NULL || series_init(&l->memory, 0, 0) != 0) {
    ws_live_free(l);
    return WS_ENOMEM;
  }
  *out = l;
  return 0;
}

/* Stores in *out the kept series of metric id, created on first sight, or
 * NULL when WS_LIVE_MAX_METRICS ids are kept already. Returns 0 or
 * WS_ENOMEM. */
static int metric_for(ws_live *l, uint16_t id, series **out) {
  *out = NULL;
  for (size_t i = 0; i < l->n_metrics; i++)
    if (l->metrics[i].id == id) {
      *out = &l->metrics[i];
      return 0;
    }
  if (l->n_metrics == WS_LIVE_MAX_METRICS)
    return 0;
  series *s = &l->metrics[l->n_metrics];
  if (series_init(s, id, 1) != 0)
    return WS_ENOMEM;
  l->n_metrics++;
  *out = s;
  return 0;
}

/* Keeps what a call record of full iteration it says: its time when it
 * falls on the stride, its memory when it changed. */
static int add_call(ws_live *l, const ws_record *rec, uint64_t it) {
  if (it != l->first + l->calls)
    return WS_EFORMAT;
  /* kept is the number of multiples of stride below calls, so a call on
   * the stride goes to position i / stride; when that is past the end, the
   * compacted buffer has room (capacity is even). */
  uint64_t i = l->calls;
  if (i % l->stride == 0 && l->kept == l->capacity)
    compact(l);
  if (i % l->stride == 0) {
    l->flags[l->kept] = rec->flags;
    l->elapsed[l->kept++] = (float)rec->a;
  }
  double scaled = (double)i / (double)l->stride;
  double bytes = (double)rec->b;
  if (l->memory.n == 0 || l->memory.value[l->memory.n - 1] != bytes)
    series_push(&l->memory, scaled, 0, bytes);
  l->calls++;
  return 0;
}

int ws_live_add(ws_live *l, const uint8_t *bytes, size_t n) {
  for (size_t k = 0; k < n; k++) {
    ws_record rec;
    ws__record_decode(bytes + k * WS_RECORD_SIZE, &rec);
    uint64_t it = ws_iteration_next(&l->track, &rec);
    if (rec.type == WS_REC_GROW_FAILED) {
      ws_grow_failures_add(&l->grow_failures, &rec, it);
      continue;
    }
    if (rec.t > l->last_t_ns)
      l->last_t_ns = rec.t;
    if (rec.type == WS_REC_MARK && rec.op == WS_MARK_ITERATION && l->calls == 0) {
      l->first = it;
    } else if (rec.type == WS_REC_CALL) {
      int rc = add_call(l, &rec, it);
      if (rc != 0)
        return rc;
    } else if (rec.type == WS_REC_METRIC) {
      series *s;
      if (metric_for(l, rec.op, &s) != 0)
        return WS_ENOMEM;
      if (s != NULL)
        series_push(s, (double)(it > l->first ? it - l->first : 0) / (double)l->stride,
                    (double)rec.t / 1e6, (double)rec.a);
    }
  }
  return 0;
}

/* Returns the public view of s. */
static ws_live_series view_of(const series *s) {
  return (ws_live_series){s->id, s->n, s->iter, s->t_ms, s->value};
}

void ws_live_get(ws_live *l, ws_live_view *v) {
  for (size_t i = 0; i < l->n_metrics; i++)
    l->view[i] = view_of(&l->metrics[i]);
  *v = (ws_live_view){.calls = l->calls,
                      .stride = l->stride,
                      .kept = l->kept,
                      .elapsed = l->elapsed,
                      .flags = l->flags,
                      .memory = view_of(&l->memory),
                      .n_metrics = l->n_metrics,
                      .metrics = l->view,
                      .last_t_ns = l->last_t_ns,
                      .grow_failures = l->grow_failures};
}

void ws_live_free(ws_live *l) {
  if (l == NULL)
    return;
  free(l->elapsed);
  free(l->flags);
  series_free(&l->memory);
  for (size_t i = 0; i < l->n_metrics; i++)
    series_free(&l->metrics[i]);
  free(l);
}
