/* Node-API layer of the run so far (ws_live.h): a type-tagged object that
 * wraps a ws_live (napi_wrap), fed the ring's drained chunks, and a snapshot
 * in the shape readLog returns, so that src/analysis/live.js runs the final
 * analysis on it. liveClose frees the copy and Node's reference to it at
 * once: a finalizer alone runs only if V8 collects the object, and the main
 * thread's objects are never collected at exit (LeakSanitizer saw the
 * reference lost). Runs on the main thread's JS thread; keeps no mutable
 * globals. */
#include <string.h>

#include "binding.h"
#include "ws.h"

/* Tells a live copy's external from any other value. */
static const napi_type_tag live_tag = {0x8c1f4e5a2b7d4d13ULL, 0xa9e3c6f0b2d85e71ULL};

static void finalize_live(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  ws_live_free(data);
}

/* Returns the ws_live behind v, or NULL after throwing WS_EINVAL (v is not
 * from liveCreate, or was closed). */
static ws_live *unwrap_live(napi_env env, napi_value v) {
  ws_live *data = ws_napi_unwrap_tagged(env, v, &live_tag);
  if (data == NULL) {
    ws_binding_throw_code(env, WS_EINVAL,
                          "the first argument must come from liveCreate, not closed");
    return NULL;
  }
  return data;
}

/* Copies n values of elem_size bytes into a new typed array. */
static napi_status copy_typed(napi_env env, napi_typedarray_type type, size_t elem_size,
                              const void *src, size_t n, napi_value *out) {
  napi_value buffer;
  void *data;
  NAPI_CHECK(napi_create_arraybuffer(env, n * elem_size, &data, &buffer));
  if (n > 0)
    memcpy(data, src, n * elem_size);
  return napi_create_typedarray(env, type, n, buffer, 0, out);
}

/* liveCreate(capacity) -> an object owning an empty copy that keeps at
 * most capacity per-call times (freed by liveClose, else by its finalizer).
 * Throws WS_EINVAL (capacity odd or < 16), WS_ENOMEM. */
static napi_value live_create(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value arg, result;
  double capacity = 0;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, &arg, NULL, NULL));
  if (argc < 1 || napi_get_value_double(env, arg, &capacity) != napi_ok ||
      !(capacity >= 16 && capacity <= 1 << 30)) {
    ws_binding_throw_code(env, WS_EINVAL, "liveCreate(capacity): capacity in 16 .. 2^30");
    return NULL;
  }
  ws_live *l = NULL;
  int rc = ws_live_create((size_t)capacity, &l);
  if (rc != 0) {
    ws_binding_throw_code(env, rc, NULL);
    return NULL;
  }
  if (napi_create_object(env, &result) != napi_ok ||
      napi_wrap(env, result, l, finalize_live, NULL, NULL) != napi_ok) {
    ws_live_free(l);
    ws_binding_throw_last(env);
    return NULL;
  }
  NAPI_CALL(env, napi_type_tag_object(env, result, &live_tag));
  return result;
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
  size_t argc = 2;
  napi_value argv[2];
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  ws_live *l = argc == 2 ? unwrap_live(env, argv[0]) : NULL;
  if (l == NULL) {
    if (argc != 2)
      ws_binding_throw_code(env, WS_EINVAL, "liveAdd(live, Uint8Array)");
    return NULL;
  }
  size_t length = 0;
  void *data = NULL;
  if (ws_napi_typed_array(env, argv[1], napi_uint8_array, &data, &length) != napi_ok) {
    ws_binding_throw_code(env, WS_EINVAL, "liveAdd(live, Uint8Array)");
    return NULL;
  }
  int rc = ws_live_add(l, data, length / WS_RECORD_SIZE);
  if (rc != 0) {
    ws_binding_throw_code(env, rc, NULL);
    return NULL;
  }
  return NULL;
}

/* Builds { id, iter, tMs, value } of one kept series (tMs empty for memory). */
static napi_status series_object(napi_env env, const ws_live_series *s, napi_value *out) {
  napi_value v;
  NAPI_CHECK(napi_create_object(env, out));
  NAPI_CHECK(ws_napi_set_number(env, *out, "id", s->id));
  NAPI_CHECK(copy_typed(env, napi_float64_array, 8, s->iter, s->n, &v));
  NAPI_CHECK(napi_set_named_property(env, *out, "iter", v));
  NAPI_CHECK(copy_typed(env, napi_float64_array, 8, s->t_ms, s->t_ms ? s->n : 0, &v));
  NAPI_CHECK(napi_set_named_property(env, *out, "tMs", v));
  NAPI_CHECK(copy_typed(env, napi_float64_array, 8, s->value, s->n, &v));
  return napi_set_named_property(env, *out, "value", v);
}

/* Builds the snapshot object of view v. */
static napi_status snapshot(napi_env env, const ws_live_view *v, napi_value *out) {
  napi_value obj, x, memory, metrics;
  NAPI_CHECK(napi_create_object(env, &obj));
  NAPI_CHECK(ws_napi_set_number(env, obj, "calls", (double)v->kept));
  NAPI_CHECK(ws_napi_set_number(env, obj, "callsSeen", (double)v->calls));
  NAPI_CHECK(ws_napi_set_number(env, obj, "stride", (double)v->stride));
  NAPI_CHECK(ws_napi_set_number(env, obj, "durationMs", (double)v->last_t_ns / 1e6));
  NAPI_CHECK(copy_typed(env, napi_float32_array, 4, v->elapsed, v->kept, &x));
  NAPI_CHECK(napi_set_named_property(env, obj, "elapsed", x));
  NAPI_CHECK(copy_typed(env, napi_uint8_array, 1, v->flags, v->kept, &x));
  NAPI_CHECK(napi_set_named_property(env, obj, "flags", x));
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
  size_t argc = 1;
  napi_value arg, result;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, &arg, NULL, NULL));
  ws_live *l = argc == 1 ? unwrap_live(env, arg) : NULL;
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
