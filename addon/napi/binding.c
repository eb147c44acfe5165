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

NAPI_MODULE_INIT() {
  if (ws_binding_constants_init(env, exports) != napi_ok ||
      ws_binding_runner_init(env, exports) != napi_ok ||
      ws_binding_log_init(env, exports) != napi_ok ||
      ws_binding_live_init(env, exports) != napi_ok ||
      ws_binding_summary_init(env, exports) != napi_ok ||
      ws_binding_plot_init(env, exports) != napi_ok ||
      ws_binding_verdict_init(env, exports) != napi_ok) {
    ws_binding_throw_last(env);
    return NULL;
  }
  return exports;
}
