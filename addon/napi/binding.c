/* Module entry: registers every area's functions. Context-aware, so the
 * addon loads in several worker threads at once; no mutable globals. */
#include <stdio.h>

#include "binding.h"
#include "ws.h"

void ws_binding_throw_last(napi_env env) {
  bool pending = false;
  napi_is_exception_pending(env, &pending);
  if (pending)
    return;
  const napi_extended_error_info *info = NULL;
  napi_get_last_error_info(env, &info);
  const char *msg = info != NULL && info->error_message != NULL ? info->error_message
                                                                : "Node-API call failed";
  napi_throw_error(env, "WS_ENAPI", msg);
}

void ws_binding_throw_code(napi_env env, int code, const char *msg) {
  napi_throw_error(env, ws_errname(code), msg != NULL ? msg : ws_strerror(code));
}

napi_status ws_binding_export(napi_env env, napi_value exports, const char *name,
                              napi_callback fn) {
  napi_value value;
  NAPI_CHECK(napi_create_function(env, name, NAPI_AUTO_LENGTH, fn, NULL, &value));
  return napi_set_named_property(env, exports, name, value);
}

napi_status ws_binding_grow_failures(napi_env env, napi_value obj,
                                     const ws_grow_failures *g) {
  napi_value v, op;
  if (g->records == 0) {
    NAPI_CHECK(napi_get_null(env, &v));
    return napi_set_named_property(env, obj, "growFailures", v);
  }
  NAPI_CHECK(napi_create_object(env, &v));
  NAPI_CHECK(ws_napi_set_number(env, v, "total", (double)g->total));
  NAPI_CHECK(ws_napi_set_number(env, v, "records", (double)g->records));
  NAPI_CHECK(ws_napi_set_number(env, v, "iteration", g->first_iteration));
  if (g->first_op == WS_NO_OP)
    NAPI_CHECK(napi_get_null(env, &op));
  else
    NAPI_CHECK(napi_create_double(env, g->first_op, &op));
  NAPI_CHECK(napi_set_named_property(env, v, "op", op));
  NAPI_CHECK(ws_napi_set_number(env, v, "reason", g->first_reason));
  NAPI_CHECK(ws_napi_set_number(env, v, "bytes", g->first_asked));
  NAPI_CHECK(ws_napi_set_number(env, v, "memoryBytes", g->first_bytes));
  return napi_set_named_property(env, obj, "growFailures", v);
}

NAPI_MODULE_INIT() {
  if (ws_binding_constants_init(env, exports) != napi_ok ||
      ws_binding_runner_init(env, exports) != napi_ok ||
      ws_binding_log_init(env, exports) != napi_ok ||
      ws_binding_live_init(env, exports) != napi_ok ||
      ws_binding_summary_init(env, exports) != napi_ok ||
      ws_binding_plot_init(env, exports) != napi_ok ||
      ws_binding_sites_init(env, exports) != napi_ok ||
      ws_binding_verdict_init(env, exports) != napi_ok) {
    ws_binding_throw_last(env);
    return NULL;
  }
  return exports;
}
