/* Node-API layer of the allocation sites (ws_sites.h): a type-tagged object
 * that wraps a ws_sites and holds the Int32Array the allocator hook fills
 * with events; sitesApply hands the first n of them to the core, and
 * sitesSnapshot copies every site's key and totals out. sitesClose frees
 * the table at once (a finalizer alone runs only if V8 collects the
 * object). Runs on the counting pass worker's JS thread; keeps no mutable
 * globals. */
#include <stdlib.h>

#include "binding.h"
#include "ws.h"

/* Tells a site table's object from any other value. */
static const napi_type_tag sites_tag = {0x51e7a11c0c5173e5ULL, 0x2d4f8b6a9c3e7101ULL};

typedef struct {
  ws_sites *sites;
  napi_ref events_ref; /* keeps the event buffer alive */
  int32_t *events;
  size_t capacity; /* events the buffer holds */
} sites_box;

/* Frees the box's table and its reference to the event buffer. */
static void box_free(napi_env env, sites_box *box) {
  ws_sites_free(box->sites);
  if (box->events_ref != NULL)
    napi_delete_reference(env, box->events_ref);
  free(box);
}

static void finalize_sites(napi_env env, void *data, void *hint) {
  (void)hint;
  box_free(env, data);
}

/* sitesCreate(events: Int32Array) -> an object owning an empty site table
 * fed from events (WS_SITE_EVENT_INTS ints per event; freed by sitesClose,
 * else by its finalizer). The array must not move: give it its own
 * ArrayBuffer. Throws WS_EINVAL (not an Int32Array of at least one event),
 * WS_ENOMEM. */
static napi_value sites_create(napi_env env, napi_callback_info info) {
  static const char usage[] = "sitesCreate(events): an Int32Array of at least one event";
  WS_NAPI_ARGV(1, 1, usage);
  void *data = NULL;
  size_t length = 0;
  if (!ws_napi_typed_arg(env, argv[0], napi_int32_array, &data, &length, usage))
    return NULL;
  if (length < WS_SITE_EVENT_INTS) {
    ws_binding_throw_code(env, WS_EINVAL, usage);
    return NULL;
  }
  sites_box *box = calloc(1, sizeof *box);
  if (box == NULL) {
    ws_binding_throw_code(env, WS_ENOMEM, NULL);
    return NULL;
  }
  if (!ws_napi_rc_ok(env, ws_sites_create(&box->sites))) {
    free(box);
    return NULL;
  }
  box->events = data;
  box->capacity = length / WS_SITE_EVENT_INTS;
  if (napi_create_reference(env, argv[0], 1, &box->events_ref) != napi_ok) {
    box_free(env, box);
    ws_binding_throw_last(env);
    return NULL;
  }
  return ws_napi_new_handle(env, box, finalize_sites, &sites_tag);
}

/* sitesApply(sites, n): applies the buffer's first n events
 * (ws_sites_apply). Throws WS_EINVAL (n beyond the buffer, an unknown
 * event kind), WS_ENOMEM. */
static napi_value sites_apply(napi_env env, napi_callback_info info) {
  static const char usage[] =
      "sitesApply(sites, n): sites from sitesCreate, not closed; n within the buffer";
  napi_value arg;
  double n = -1;
  sites_box *box = ws_napi_handle_args(env, info, &sites_tag, NULL, 1, &arg, usage);
  if (box == NULL)
    return NULL;
  if (napi_get_value_double(env, arg, &n) != napi_ok || !(n >= 0) ||
      n > (double)box->capacity) {
    ws_binding_throw_code(env, WS_EINVAL, usage);
    return NULL;
  }
  ws_napi_rc_ok(env, ws_sites_apply(box->sites, box->events, (size_t)n));
  return NULL;
}

/* sitesSnapshot(sites) -> { count, keys: Int32Array (WS_SITE_KEY_INTS per
 * site), values: Float64Array (WS_SITE_VALUE_FIELDS per site) }: copies. */
static napi_value sites_snapshot(napi_env env, napi_callback_info info) {
  napi_value result, keys, values;
  sites_box *box =
      ws_napi_handle_args(env, info, &sites_tag, NULL, 0, NULL,
                          "sitesSnapshot(sites): sites from sitesCreate, not closed");
  if (box == NULL)
    return NULL;
  size_t n = ws_sites_count(box->sites);
  void *kdata, *vdata;
  NAPI_CALL(env, ws_napi_new_typed_array(env, napi_int32_array, n * WS_SITE_KEY_INTS,
                                         &kdata, &keys));
  NAPI_CALL(env, ws_napi_new_typed_array(env, napi_float64_array,
                                         n * WS_SITE_VALUE_FIELDS, &vdata, &values));
  for (size_t id = 0; id < n; id++)
    ws_sites_get(box->sites, id, (int32_t *)kdata + id * WS_SITE_KEY_INTS,
                 (double *)vdata + id * WS_SITE_VALUE_FIELDS);
  NAPI_CALL(env, napi_create_object(env, &result));
  NAPI_CALL(env, ws_napi_set_number(env, result, "count", (double)n));
  NAPI_CALL(env, napi_set_named_property(env, result, "keys", keys));
  NAPI_CALL(env, napi_set_named_property(env, result, "values", values));
  return result;
}

/* sitesClose(sites): frees the table and the reference to its buffer
 * (napi_remove_wrap, so its finalizer never runs). Throws WS_EINVAL for a
 * value not from sitesCreate, or closed. */
static napi_value sites_close(napi_env env, napi_callback_info info) {
  void *data = ws_napi_take_wrapped(
      env, info, &sites_tag,
      "sitesClose(sites): sites must come from sitesCreate, not closed");
  if (data != NULL)
    box_free(env, data);
  return NULL;
}

napi_status ws_binding_sites_init(napi_env env, napi_value exports) {
  NAPI_CHECK(ws_binding_export(env, exports, "sitesCreate", sites_create));
  NAPI_CHECK(ws_binding_export(env, exports, "sitesApply", sites_apply));
  NAPI_CHECK(ws_binding_export(env, exports, "sitesSnapshot", sites_snapshot));
  return ws_binding_export(env, exports, "sitesClose", sites_close);
}
