/* Node-API layer of the run so far (ws_live.h): a type-tagged object that
 * wraps a ws_live (napi_wrap), fed the ring's drained chunks, and a snapshot
 * in the shape readLog returns, so that src/analysis/live.js runs the final
 * analysis on it. liveClose frees the copy and Node's reference to it at
 * once: a finalizer alone runs only if V8 collects the object, and the main
 * thread's objects are never collected at exit (LeakSanitizer saw the
 * reference lost). Runs on the main thread's JS thread; keeps no mutable
 * globals. */
#include "binding.h"
#include "ws.h"

/* Tells a live copy's external from any other value. */
static const napi_type_tag live_tag = {0x8c1f4e5a2b7d4d13ULL, 0xa9e3c6f0b2d85e71ULL};

WS_NAPI_FINALIZER(finalize_live, ws_live_free)

/* liveCreate(capacity) -> an object owning an empty copy that keeps at
 * most capacity per-call times (freed by liveClose, else by its finalizer).
 * Throws WS_EINVAL (capacity odd or < 16), WS_ENOMEM. */
static napi_value live_create(napi_env env, napi_callback_info info) {
  static const char usage[] = "liveCreate(capacity): capacity in 16 .. 2^30";
  WS_NAPI_ARGV(1, 1, usage);
  double capacity = 0;
  if (napi_get_value_double(env, argv[0], &capacity) != napi_ok ||
      !(capacity >= 16 && capacity <= 1 << 30)) {
    ws_binding_throw_code(env, WS_EINVAL, usage);
    return NULL;
  }
  ws_live *l = NULL;
  if (!ws_napi_rc_ok(env, ws_live_create((size_t)capacity, &l)))
    return NULL;
  return ws_napi_new_handle(env, l, finalize_live, &live_tag);
}

/* liveClose(live): frees the copy and Node's reference to it (napi_remove_wrap,
 * so its finalizer never runs); live is unusable after. Throws WS_EINVAL for
 * a value not from liveCreate, or closed. */
static napi_value live_close(napi_env env, napi_callback_info info) {
  void *data =
      ws_napi_take_wrapped(env, info, &live_tag,
                           "liveClose(live): live must come from liveCreate, not closed");
  if (data != NULL)
    ws_live_free(data);
  return NULL;
}

/* liveAdd(live, Uint8Array records): adds the whole records of a drained
 * chunk. Throws WS_EINVAL for a non-Uint8Array, WS_EFORMAT for a call
 * record out of order, WS_ENOMEM. */
static napi_value live_add(napi_env env, napi_callback_info info) {
  static const char usage[] =
      "liveAdd(live, Uint8Array): live from liveCreate, not closed";
  napi_value records;
  size_t length = 0;
  void *data = NULL;
  ws_live *l = ws_napi_handle_args(env, info, &live_tag, NULL, 1, &records, usage);
  if (l != NULL &&
      ws_napi_typed_arg(env, records, napi_uint8_array, &data, &length, usage))
    ws_napi_rc_ok(env, ws_live_add(l, data, length / WS_RECORD_SIZE));
  return NULL;
}

/* Builds { id, iter, tMs, value } of one kept series (tMs empty for memory). */
static napi_status series_object(napi_env env, const ws_live_series *s, napi_value *out) {
  NAPI_CHECK(napi_create_object(env, out));
  NAPI_CHECK(ws_napi_set_number(env, *out, "id", s->id));
  NAPI_CHECK(
      ws_napi_set_typed_copy(env, *out, "iter", napi_float64_array, s->iter, s->n));
  NAPI_CHECK(ws_napi_set_typed_copy(env, *out, "tMs", napi_float64_array, s->t_ms,
                                    s->t_ms ? s->n : 0));
  return ws_napi_set_typed_copy(env, *out, "value", napi_float64_array, s->value, s->n);
}

/* Builds the snapshot object of view v. */
static napi_status snapshot(napi_env env, const ws_live_view *v, napi_value *out) {
  napi_value obj, x, memory, metrics;
  NAPI_CHECK(napi_create_object(env, &obj));
  NAPI_CHECK(ws_napi_set_number(env, obj, "calls", (double)v->kept));
  NAPI_CHECK(ws_napi_set_number(env, obj, "callsSeen", (double)v->calls));
  NAPI_CHECK(ws_napi_set_number(env, obj, "stride", (double)v->stride));
  NAPI_CHECK(ws_napi_set_number(env, obj, "durationMs", (double)v->last_t_ns / 1e6));
  NAPI_CHECK(ws_napi_set_typed_copy(env, obj, "elapsed", napi_float32_array, v->elapsed,
                                    v->kept));
  NAPI_CHECK(
      ws_napi_set_typed_copy(env, obj, "flags", napi_uint8_array, v->flags, v->kept));
  NAPI_CHECK(series_object(env, &v->memory, &memory));
  NAPI_CHECK(napi_get_named_property(env, memory, "iter", &x));
  NAPI_CHECK(napi_set_named_property(env, obj, "memIter", x));
  NAPI_CHECK(napi_get_named_property(env, memory, "value", &x));
  NAPI_CHECK(napi_set_named_property(env, obj, "memBytes", x));
  NAPI_CHECK(napi_create_array_with_length(env, v->n_metrics, &metrics));
  for (size_t i = 0; i < v->n_metrics; i++) {
    NAPI_CHECK(series_object(env, &v->metrics[i], &x));
    NAPI_CHECK(napi_set_element(env, metrics, (uint32_t)i, x));
  }
  NAPI_CHECK(napi_set_named_property(env, obj, "metrics", metrics));
  NAPI_CHECK(ws_binding_grow_failures(env, obj, &v->grow_failures));
  *out = obj;
  return napi_ok;
}

/* liveSnapshot(live) -> { calls (kept), callsSeen, stride, durationMs,
 * elapsed, flags, memIter, memBytes, metrics: [{ id, iter, tMs, value }],
 * growFailures (ws_binding_grow_failures) }: copies,
 * with every iteration in kept-call units (ws_live_view). */
static napi_value live_snapshot(napi_env env, napi_callback_info info) {
  napi_value result;
  ws_live *l =
      ws_napi_handle_args(env, info, &live_tag, NULL, 0, NULL,
                          "liveSnapshot(live): live from liveCreate, not closed");
  if (l == NULL)
    return NULL;
  ws_live_view v;
  ws_live_get(l, &v);
  NAPI_CALL(env, snapshot(env, &v, &result));
  return result;
}

napi_status ws_binding_live_init(napi_env env, napi_value exports) {
  NAPI_CHECK(ws_binding_export(env, exports, "liveCreate", live_create));
  NAPI_CHECK(ws_binding_export(env, exports, "liveAdd", live_add));
  NAPI_CHECK(ws_binding_export(env, exports, "liveClose", live_close));
  return ws_binding_export(env, exports, "liveSnapshot", live_snapshot);
}
