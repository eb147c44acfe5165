/* Node-API layer of the trend verdict engine and the judge: converts typed
 * arrays and names, calls the statistics core (ws_stats.h) and builds plain
 * result objects. Runs on
 * the JS thread of whichever isolate loaded the addon; keeps no state. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "binding.h"
#include "ws_stats.h"

/* Reads obj[name] as a number into *out, leaving *out when it is undefined. */
static napi_status get_num(napi_env env, napi_value obj, const char *name, double *out) {
  napi_value v;
  napi_valuetype t;
  NAPI_CHECK(napi_get_named_property(env, obj, name, &v));
  NAPI_CHECK(napi_typeof(env, v, &t));
  if (t == napi_undefined)
    return napi_ok;
  return napi_get_value_double(env, v, out);
}

/* Builds { slope, low, high, pValue, z, varianceRatio } for a trend, scaling slopes by
 * scale. */
static napi_value trend_object(napi_env env, const ws_trend *t, double scale) {
  const ws_napi_number numbers[] = {{"slope", t->slope * scale},
                                    {"low", t->low * scale},
                                    {"high", t->high * scale},
                                    {"pValue", t->p_up},
                                    {"z", t->z},
                                    {"varianceRatio", t->var_ratio}};
  napi_value o;
  NAPI_CALL(env, napi_create_object(env, &o));
  NAPI_CALL(env, WS_NAPI_SET_NUMBERS(env, o, numbers));
  return o;
}

/* Builds the JS object of one series result. */
static napi_value series_object(napi_env env, const ws_memtrend_result *r) {
  static const char *const patterns[] = {"untested", "flat", "step", "sustained"};
  napi_value o;
  NAPI_CALL(env, napi_create_object(env, &o));
  NAPI_CALL(env, ws_napi_set_string(env, o, "pattern", patterns[r->pattern]));
  NAPI_CALL(env, ws_napi_set_number(env, o, "from", (double)r->from));
  NAPI_CALL(env, ws_napi_set_number(env, o, "to", (double)r->to));
  NAPI_CALL(env, ws_napi_set_number(env, o, "segments", (double)r->segments));
  NAPI_CALL(env, ws_napi_set_number(env, o, "start", r->start));
  NAPI_CALL(env, ws_napi_set_number(env, o, "end", r->end));
  NAPI_CALL(env, ws_napi_set_number(env, o, "last", r->last));
  NAPI_CALL(env, ws_napi_set_number(env, o, "grownBytes", r->grown));
  NAPI_CALL(env, ws_napi_set_number(env, o, "rises", (double)r->rises));
  NAPI_CALL(env, ws_napi_set_number(env, o, "points", (double)r->points));
  if (r->events.base > 0) {
    napi_value e;
    NAPI_CALL(env, napi_create_object(env, &e));
    NAPI_CALL(env, ws_napi_set_number(env, e, "count", (double)r->events.count));
    NAPI_CALL(env, ws_napi_set_number(env, e, "large", (double)r->events.large));
    NAPI_CALL(env, ws_napi_set_number(env, e, "lastLarge", r->events.last_large));
    NAPI_CALL(env, ws_napi_set_number(env, e, "baseBytes", r->events.base));
    NAPI_CALL(env, ws_napi_set_number(env, e, "grownBytes", r->events.grown));
    NAPI_CALL(env, ws_napi_set_bool(env, e, "staircase", r->events.staircase));
    NAPI_CALL(env, ws_napi_set_bool(env, e, "doubling", r->events.doubling));
    NAPI_CALL(env, napi_set_named_property(env, o, "events", e));
  }
  NAPI_CALL(env, ws_napi_set_bool(env, o, "peakGrows", r->peak_grows));
  if (r->segments >= 8 && r->pattern != WS_PATTERN_UNTESTED) {
    NAPI_CALL(env, napi_set_named_property(env, o, "trend",
                                           trend_object(env, &r->trend, 1000)));
    NAPI_CALL(env,
              napi_set_named_property(env, o, "peak", trend_object(env, &r->peak, 1000)));
  }
  return o;
}

/* Builds the JS object of the time drift result. */
static napi_value time_object(napi_env env, const ws_drift_result *d) {
  napi_value o;
  NAPI_CALL(env, napi_create_object(env, &o));
  NAPI_CALL(env, ws_napi_set_bool(env, o, "tested", d->tested));
  NAPI_CALL(env, ws_napi_set_bool(env, o, "flagged", d->flagged));
  const ws_napi_number window[] = {{"from", (double)d->from},
                                   {"to", (double)d->to},
                                   {"batches", (double)d->batches},
                                   {"batchSize", (double)d->batch_size},
                                   {"windowBatches", (double)d->window_batches},
                                   {"earlyTo", (double)d->early_to},
                                   {"lateFrom", (double)d->late_from}};
  NAPI_CALL(env, WS_NAPI_SET_NUMBERS(env, o, window));
  if (!d->tested)
    return o;
  NAPI_CALL(env,
            napi_set_named_property(env, o, "trend", trend_object(env, &d->trend, 1000)));
  const ws_napi_number effects[] = {{"effect", d->effect},
                                    {"effectLow", d->effect_low},
                                    {"effectHigh", d->effect_high},
                                    {"effectLow98", d->effect_low98},
                                    {"effectHigh98", d->effect_high98},
                                    {"earlyNs", d->early_ns},
                                    {"lateNs", d->late_ns},
                                    {"windowsChange", d->windows_change},
                                    {"windowsLow", d->windows_low},
                                    {"windowsHigh", d->windows_high},
                                    {"windowsBlock", (double)d->windows_block},
                                    {"decidedEffect", d->decided_effect},
                                    {"decidedLow98", d->decided_low98},
                                    {"decidedHigh98", d->decided_high98}};
  NAPI_CALL(env, WS_NAPI_SET_NUMBERS(env, o, effects));
  NAPI_CALL(env, ws_napi_set_bool(env, o, "controlled", d->controlled));
  NAPI_CALL(env, ws_napi_set_bool(env, o, "machineNoise", d->machine_noise));
  NAPI_CALL(env, ws_napi_set_bool(env, o, "unsustained", d->unsustained));
  NAPI_CALL(env, ws_napi_set_bool(env, o, "unreplicated", d->unreplicated));
  NAPI_CALL(env, ws_napi_set_number(env, o, "decidedP", d->decided_p));
  if (d->unsustained) {
    const ws_napi_number halves[] = {{"firstHalfEffect", d->first_half_effect},
                                     {"secondHalfEffect", d->second_half_effect}};
    NAPI_CALL(env, WS_NAPI_SET_NUMBERS(env, o, halves));
  }
  const ws_napi_number counts[] = {{"controlBatches", (double)d->control_batches},
                                   {"disturbedBatches", (double)d->disturbed},
                                   {"preemptedCalls", (double)d->preempted}};
  NAPI_CALL(env, WS_NAPI_SET_NUMBERS(env, o, counts));
  if (d->controlled) {
    const ws_napi_number control[] = {{"controlEffect", d->control_effect},
                                      {"controlLow98", d->control_low98},
                                      {"controlHigh98", d->control_high98},
                                      {"controlP", d->control_p}};
    NAPI_CALL(env, WS_NAPI_SET_NUMBERS(env, o, control));
  }
  if (d->adjusted_tested) {
    const ws_napi_number adjusted[] = {{"adjustedEffect", d->adjusted_effect},
                                       {"adjustedLow98", d->adjusted_low98},
                                       {"adjustedHigh98", d->adjusted_high98},
                                       {"adjustedP", d->adjusted_p}};
    NAPI_CALL(env, WS_NAPI_SET_NUMBERS(env, o, adjusted));
  }
  return o;
}

/* The numbers each note kind has, by name and place in ws_note
 * (docs/summary.md, "notes"); a list ends at a NULL name. */
typedef struct {
  const char *name;
  size_t offset;
} note_field;
#define WS_NOTE_FIELD(name, member)                                                      \
  { name, offsetof(ws_note, member) }
static const note_field below_floor_fields[] = {WS_NOTE_FIELD("grownBytes", grown),
                                                WS_NOTE_FIELD("perCall", per_call),
                                                WS_NOTE_FIELD("relative", relative),
                                                WS_NOTE_FIELD("moreCalls", more_calls),
                                                {0}};
static const note_field startup_fields[] = {
    WS_NOTE_FIELD("fromBytes", from),   WS_NOTE_FIELD("toBytes", to),
    WS_NOTE_FIELD("grownBytes", grown), WS_NOTE_FIELD("ratio", relative),
    WS_NOTE_FIELD("iterations", at),    {0}};
static const note_field sawtooth_fields[] = {
    WS_NOTE_FIELD("falls", count),   WS_NOTE_FIELD("largestFallBytes", grown),
    WS_NOTE_FIELD("lowBytes", from), WS_NOTE_FIELD("highBytes", to),
    WS_NOTE_FIELD("everyCalls", at), {0}};
static const note_field not_repeated_fields[] = {
    WS_NOTE_FIELD("fromBytes", from), WS_NOTE_FIELD("toBytes", to), {0}};
#undef WS_NOTE_FIELD

/* Builds { kind, series, ... } of a note: its WS_NOTE_* kind, the index of
 * its series and the numbers that kind has; one that is not finite (JSON has
 * no infinity: a floor never reached) is left out. */
static napi_value note_object(napi_env env, const ws_note *n) {
  napi_value o;
  NAPI_CALL(env, napi_create_object(env, &o));
  NAPI_CALL(env, ws_napi_set_number(env, o, "kind", n->kind));
  NAPI_CALL(env, ws_napi_set_number(env, o, "series", n->series));
  const note_field *f = n->kind == WS_NOTE_BELOW_FLOOR      ? below_floor_fields
                        : n->kind == WS_NOTE_STARTUP_GROWTH ? startup_fields
                        : n->kind == WS_NOTE_SAWTOOTH       ? sawtooth_fields
                        : n->kind == WS_NOTE_NOT_REPEATED   ? not_repeated_fields
                                                            : NULL;
  for (; f != NULL && f->name != NULL; f++) {
    double v;
    memcpy(&v, (const char *)n + f->offset, sizeof v);
    if (isfinite(v))
      NAPI_CALL(env, ws_napi_set_number(env, o, f->name, v));
  }
  return o;
}

/* The elements of analyzeRun's arrays, each a ws_napi_item. */

/* Series result i of the ws_memtrend_result items (series_object). */
static napi_status series_item(napi_env env, const void *items, size_t i,
                               napi_value *out) {
  *out = series_object(env, (const ws_memtrend_result *)items + i);
  return *out != NULL ? napi_ok : napi_pending_exception;
}
/* The replica's result i of the ws_verdict items, with the index of its
 * series and whether the rise recurred there. */
static napi_status replica_item(napi_env env, const void *items, size_t i,
                                napi_value *out) {
  const ws_verdict *v = items;
  NAPI_CHECK(series_item(env, v->replica_results, i, out));
  NAPI_CHECK(ws_napi_set_bool(env, *out, "recurred", v->replica_recurred[i]));
  return ws_napi_set_number(env, *out, "series", v->replica_series[i]);
}
/* Finding i of the ws_finding items: { kind, series, cause?, iteration?,
 * bytes? }. */
static napi_status finding_item(napi_env env, const void *items, size_t i,
                                napi_value *out) {
  const ws_finding *f = (const ws_finding *)items + i;
  NAPI_CHECK(napi_create_object(env, out));
  NAPI_CHECK(ws_napi_set_string(env, *out, "kind", ws_kind_name(f->kind)));
  NAPI_CHECK(ws_napi_set_number(env, *out, "series", f->series));
  if (f->cause != 0)
    NAPI_CHECK(ws_napi_set_number(env, *out, "cause", f->cause));
  if (f->kind == WS_KIND_MEMORY_EXHAUSTED) {
    NAPI_CHECK(ws_napi_set_number(env, *out, "iteration", f->iteration));
    NAPI_CHECK(ws_napi_set_number(env, *out, "bytes", f->bytes));
  }
  return napi_ok;
}
/* Undecided test i of the ws_undecided items: { reason, series,
 * moreCalls }. */
static napi_status undecided_item(napi_env env, const void *items, size_t i,
                                  napi_value *out) {
  const ws_undecided *u = (const ws_undecided *)items + i;
  NAPI_CHECK(napi_create_object(env, out));
  NAPI_CHECK(ws_napi_set_number(env, *out, "reason", u->reason));
  NAPI_CHECK(ws_napi_set_number(env, *out, "series", u->series));
  return ws_napi_set_number(env, *out, "moreCalls", u->more_calls);
}
/* Note i of the ws_note items (note_object). */
static napi_status note_item(napi_env env, const void *items, size_t i, napi_value *out) {
  *out = note_object(env, (const ws_note *)items + i);
  return *out != NULL ? napi_ok : napi_pending_exception;
}

/* Reads the k series of the array arr, each { role, step, limit, iter, value
 * } (iter and value Float64Arrays of one length), into in[0..k). Returns 0,
 * or -1 with a JS error thrown. */
static int series_in(napi_env env, napi_value arr, uint32_t k, ws_series_in *in) {
  for (uint32_t i = 0; i < k; i++) {
    napi_value s, v;
    double role = 0, step = 0, limit = 0;
    size_t ni = 0, nv = 0;
    void *iter = NULL, *value = NULL;
    napi_status st = napi_get_element(env, arr, i, &s);
    if (st == napi_ok)
      st = get_num(env, s, "role", &role);
    if (st == napi_ok)
      st = get_num(env, s, "step", &step);
    if (st == napi_ok)
      st = get_num(env, s, "limit", &limit);
    if (st == napi_ok)
      st = napi_get_named_property(env, s, "iter", &v);
    if (st == napi_ok)
      st = ws_napi_typed_array(env, v, napi_float64_array, &iter, &ni);
    if (st == napi_ok)
      st = napi_get_named_property(env, s, "value", &v);
    if (st == napi_ok)
      st = ws_napi_typed_array(env, v, napi_float64_array, &value, &nv);
    if (st != napi_ok || ni != nv) {
      ws_binding_throw_code(env, WS_EINVAL,
                            "series need Float64Array iter and value of one length");
      return -1;
    }
    in[i] = (ws_series_in){(int)role, step != 0, iter, value, ni, limit > 0 ? limit : 0};
  }
  return 0;
}

/* Reads the second timed pass { elapsed: Float32Array, flags: Uint8Array (one
 * per call) or undefined, controlIter and controlValue: Float64Arrays of one
 * length or undefined, series: [<= WS_MAX_SERIES] as series_in reads them,
 * index for index the first pass's } into *rp, its series into in. Returns
 * 0, or -1 with a JS error thrown. */
static int replica_of(napi_env env, napi_value arg, ws_replica *rp, ws_series_in *in) {
  napi_value v;
  void *elapsed = NULL, *flags = NULL, *iter = NULL, *value = NULL;
  size_t calls = 0, nflags = 0, ni = 0, nv = 0;
  *rp = (ws_replica){0};
  if (napi_get_named_property(env, arg, "elapsed", &v) != napi_ok ||
      ws_napi_typed_array(env, v, napi_float32_array, &elapsed, &calls) != napi_ok) {
    ws_binding_throw_code(env, WS_EINVAL, "the replica needs a Float32Array elapsed");
    return -1;
  }
  if (napi_get_named_property(env, arg, "flags", &v) == napi_ok &&
      ws_napi_typed_array(env, v, napi_uint8_array, &flags, &nflags) == napi_ok &&
      nflags != calls) {
    ws_binding_throw_code(env, WS_EINVAL, "the replica's flags need one byte per call");
    return -1;
  }
  if (napi_get_named_property(env, arg, "controlIter", &v) == napi_ok &&
      ws_napi_typed_array(env, v, napi_float64_array, &iter, &ni) == napi_ok &&
      (napi_get_named_property(env, arg, "controlValue", &v) != napi_ok ||
       ws_napi_typed_array(env, v, napi_float64_array, &value, &nv) != napi_ok ||
       nv != ni)) {
    ws_binding_throw_code(env, WS_EINVAL,
                          "the replica's control needs Float64Arrays of one length");
    return -1;
  }
  uint32_t k = 0;
  if (napi_get_named_property(env, arg, "series", &v) != napi_ok ||
      napi_get_array_length(env, v, &k) != napi_ok || k > WS_MAX_SERIES) {
    ws_binding_throw_code(env, WS_EINVAL, "the replica needs series[<=16]");
    return -1;
  }
  if (series_in(env, v, k, in) != 0)
    return -1;
  rp->elapsed = elapsed;
  rp->calls = calls;
  rp->control = (ws_time_control){iter, value, value != NULL ? ni : 0, flags};
  rp->series = in;
  rp->k = k;
  return 0;
}

/* analyzeRun(Float32Array elapsed, [{ role, step, iter, value }], { warmup,
 * timeThreshold, jsHeapThreshold, memFloorPerCall, memFloorRelative, alpha,
 * seed }[, Uint8Array flags, one per call][, replica: a second timed pass,
 * replica_of]) -> { warmup, time (its replica: the second pass's test when
 * one ran), series, replicaSeries (the memory series the replica tested
 * again, each with its series index and whether the rise recurred),
 * mustRecur (a memory finding or question must recur before it stands),
 * findings, undecided, notes, belowThreshold, jsHeapThreshold,
 * memFloorPerCall, memFloorRelative } (no verdict: the judge, js_judge,
 * decides it from every finding of the run); the options are read by the
 * list WS_VERDICT_DEFAULTS, one left undefined takes its C default there.
 * src/analysis/verdict.js validates them; a seed that is not a safe
 * non-negative integer is refused here too (WS_EINVAL, its message). */
static napi_value js_analyze_run(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  void *elapsed = NULL;
  size_t calls = 0;
  uint32_t k = 0;
  if (argc < 3 ||
      ws_napi_typed_array(env, argv[0], napi_float32_array, &elapsed, &calls) !=
          napi_ok ||
      napi_get_array_length(env, argv[1], &k) != napi_ok || k > WS_MAX_SERIES) {
    ws_binding_throw_code(env, WS_EINVAL,
                          "analyzeRun(Float32Array, series[<=16], options)");
    return NULL;
  }
  ws_series_in in[WS_MAX_SERIES];
  if (series_in(env, argv[1], k, in) != 0)
    return NULL;
  ws_verdict_opts o;
  ws_verdict_opts_default(&o);
  double warmup = -1, seed = 1;
  NAPI_CALL(env, get_num(env, argv[2], "warmup", &warmup));
#define WS_READ_OPTION(field, value, js)                                                 \
  NAPI_CALL(env, get_num(env, argv[2], js, &o.field));
  WS_VERDICT_DEFAULTS(WS_READ_OPTION)
#undef WS_READ_OPTION
  NAPI_CALL(env, get_num(env, argv[2], "seed", &seed));
  o.warmup = warmup < 0 ? -1 : (long)warmup;
  /* The seed is a safe non-negative integer, as src/analysis/verdict.js
   * checks: refused the same way, never folded onto another seed (an
   * out-of-range conversion would be undefined behaviour). */
  if (!(seed >= 0 && seed <= 9007199254740991.0 && seed == (double)(uint64_t)seed)) {
    ws_binding_throw_code(env, WS_EINVAL, "seed must be a non-negative integer");
    return NULL;
  }
  o.seed = (uint64_t)seed;
  void *flags = NULL;
  size_t nflags = 0;
  if (argc >= 4 &&
      ws_napi_typed_array(env, argv[3], napi_uint8_array, &flags, &nflags) != napi_ok)
    flags = NULL;
  if (flags != NULL && nflags != calls) {
    ws_binding_throw_code(env, WS_EINVAL, "flags need one byte per call");
    return NULL;
  }
  o.flags = flags;
  ws_replica replica;
  ws_series_in replica_in[WS_MAX_SERIES];
  napi_valuetype type = napi_undefined;
  if (argc >= 5)
    NAPI_CALL(env, napi_typeof(env, argv[4], &type));
  if (type == napi_object) {
    if (replica_of(env, argv[4], &replica, replica_in) != 0)
      return NULL;
    o.replica = &replica;
  }

  ws_memtrend_result res[WS_MAX_SERIES];
  ws_verdict v = {.series = res};
  if (!ws_napi_rc_ok(env, ws_analyze_run(elapsed, calls, in, k, &o, &v)))
    return NULL;
  napi_value out, w;
  NAPI_CALL(env, napi_create_object(env, &out));
  NAPI_CALL(env, napi_create_object(env, &w));
  NAPI_CALL(env, ws_napi_set_bool(env, w, "auto", v.warmup_auto));
  NAPI_CALL(env, ws_napi_set_number(env, w, "iterations", (double)v.warmup));
  NAPI_CALL(env, ws_napi_set_number(env, w, "time", (double)v.warmup_time));
  NAPI_CALL(env, ws_napi_set_number(env, w, "memory", (double)v.warmup_memory));
  NAPI_CALL(env, ws_napi_set_number(env, w, "startupGrowthBytes", v.startup_growth));
  NAPI_CALL(env, napi_set_named_property(env, out, "warmup", w));
  napi_value time = time_object(env, &v.time);
  if (v.replica_tested)
    NAPI_CALL(
        env, napi_set_named_property(env, time, "replica", time_object(env, &v.replica)));
  NAPI_CALL(env, napi_set_named_property(env, out, "time", time));
  NAPI_CALL(env, ws_napi_set_array(env, out, "series", k, series_item, res));
  NAPI_CALL(env, ws_napi_set_array(env, out, "replicaSeries", v.nreplica_series,
                                   replica_item, &v));
  NAPI_CALL(env, ws_napi_set_bool(env, out, "mustRecur", v.must_recur));
  NAPI_CALL(env, ws_napi_set_array(env, out, "findings", v.nfindings, finding_item,
                                   v.findings));
  NAPI_CALL(env, ws_napi_set_array(env, out, "undecided", v.nundecided, undecided_item,
                                   v.undecided));
  NAPI_CALL(env, ws_napi_set_array(env, out, "notes", v.nnotes, note_item, v.notes));
  NAPI_CALL(env, ws_napi_set_number(env, out, "memFloorPerCall", o.mem_floor_per_call));
  NAPI_CALL(env, ws_napi_set_number(env, out, "memFloorRelative", o.mem_floor_relative));
  NAPI_CALL(env, ws_napi_set_number(env, out, "belowThreshold", v.below_threshold));
  NAPI_CALL(env, ws_napi_set_number(env, out, "jsHeapThreshold", o.js_heap_threshold));
  return out;
}

/* Reads a short string (a kind or status name) into buf; returns 0 when v
 * is none or too long. */
static int short_string(napi_env env, napi_value v, char *buf, size_t size) {
  size_t len;
  return napi_get_value_string_utf8(env, v, buf, size, &len) == napi_ok && len + 1 < size;
}

/* Returns the WS_KIND_* of a finding kind's name, or 0. */
static int kind_of(const char *name) {
#define WS_KIND_BY_NAME(n, value, js, gate)                                              \
  if (strcmp(name, js) == 0)                                                             \
    return WS_KIND_##n;
  WS_FINDING_KINDS(WS_KIND_BY_NAME)
#undef WS_KIND_BY_NAME
  return 0;
}

/* Returns the WS_RUN_* of a run status's name, or 0. */
static int status_of(const char *name) {
#define WS_RUN_BY_NAME(n, value, js)                                                     \
  if (strcmp(name, js) == 0)                                                             \
    return WS_RUN_##n;
  WS_RUN_STATUSES(WS_RUN_BY_NAME)
#undef WS_RUN_BY_NAME
  return 0;
}

/* Adds the bits of an array of kind names to *set ("inconclusive" sets
 * *inconclusive when it is not NULL); returns 0 on a name that is neither. */
static int kind_set(napi_env env, napi_value arr, uint32_t *set, int *inconclusive) {
  uint32_t n;
  if (napi_get_array_length(env, arr, &n) != napi_ok)
    return 0;
  for (uint32_t i = 0; i < n; i++) {
    napi_value v;
    char name[32];
    if (napi_get_element(env, arr, i, &v) != napi_ok ||
        !short_string(env, v, name, sizeof name))
      return 0;
    int kind = kind_of(name);
    if (kind != 0)
      *set |= WS_KIND_BIT(kind);
    else if (inconclusive != NULL && strcmp(name, "inconclusive") == 0)
      *inconclusive = 1;
    else
      return 0;
  }
  return 1;
}

/* judge(status, kinds, failOn, inconclusive) -> { verdict, exitCode }: the
 * one decision (ws_judge). status: a WS_RUN_STATUSES name; kinds: the
 * finding kinds present (names, repeats allowed); failOn: the kinds
 * --fail-on lists, "inconclusive" among them; inconclusive: a boolean.
 * src/analysis/judge.js is the only caller. */
static napi_value js_judge(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  ws_judge_in in = {0};
  char status[32];
  bool open = false;
  if (argc < 4 || !short_string(env, argv[0], status, sizeof status) ||
      (in.status = status_of(status)) == 0 || !kind_set(env, argv[1], &in.kinds, NULL) ||
      !kind_set(env, argv[2], &in.fail_on, &in.fail_on_inconclusive) ||
      napi_get_value_bool(env, argv[3], &open) != napi_ok) {
    ws_binding_throw_code(env, WS_EINVAL,
                          "judge(status, kinds[], failOn[], inconclusive): a run status, "
                          "finding kinds, finding kinds or inconclusive, a boolean");
    return NULL;
  }
  in.inconclusive = open;
  ws_judgement j;
  if (!ws_napi_rc_ok(env, ws_judge(&in, &j)))
    return NULL;
  napi_value out;
  NAPI_CALL(env, napi_create_object(env, &out));
  NAPI_CALL(env, ws_napi_set_string(env, out, "verdict", ws_kind_name(j.verdict)));
  NAPI_CALL(env, ws_napi_set_number(env, out, "exitCode", j.exit_code));
  return out;
}

napi_status ws_binding_verdict_init(napi_env env, napi_value exports) {
  NAPI_CHECK(ws_binding_export(env, exports, "verdictAnalyzeRun", js_analyze_run));
  NAPI_CHECK(ws_binding_export(env, exports, "judge", js_judge));
  return napi_ok;
}
