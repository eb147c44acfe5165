/* Shared helpers of the Node-API layer: the NAPI_CALL/NAPI_CHECK macros,
 * throwing, exporting, and (through napi_helpers.h) setting and reading
 * values. Each <area>.c registers its functions through one init function
 * declared here; binding.c calls them all from NAPI_MODULE_INIT. These run
 * on the JS thread of whichever isolate (main thread or worker) loaded the
 * addon. */
#ifndef WS_BINDING_H
#define WS_BINDING_H

#include <node_api.h>

#include "napi_helpers.h"
#include "ws_log.h"
#include "ws_native.h"

/* Evaluates a napi call; on failure throws (unless an exception is already
 * pending) and returns NULL from the enclosing function. */
#define NAPI_CALL(env, call)                                                             \
  do {                                                                                   \
    if ((call) != napi_ok) {                                                             \
      ws_binding_throw_last((env));                                                      \
      return NULL;                                                                       \
    }                                                                                    \
  } while (0)

/* Like NAPI_CALL for functions returning napi_status. */
#define NAPI_CHECK(call)                                                                 \
  do {                                                                                   \
    napi_status status_ = (call);                                                        \
    if (status_ != napi_ok)                                                              \
      return status_;                                                                    \
  } while (0)

/* Throws a JS Error describing the last failed napi call, unless an
 * exception is already pending. */
void ws_binding_throw_last(napi_env env);

/* Throws a JS Error with code set to ws_errname(code) and message msg (or
 * ws_strerror(code) when msg is NULL). */
void ws_binding_throw_code(napi_env env, int code, const char *msg);

/* Adds fn to exports under name. */
napi_status ws_binding_export(napi_env env, napi_value exports, const char *name,
                              napi_callback fn);

/* Sets obj.growFailures to what g says of a run's failed memory.grow calls:
 * null when there were none, else { total, records, iteration, op (null
 * outside a call), reason (a WS_GROW_*), bytes (asked for), memoryBytes }
 * of the first (ws_log.h ws_grow_failures). */
napi_status ws_binding_grow_failures(napi_env env, napi_value obj,
                                     const ws_grow_failures *g);

/* Opens the native engine of createRunner's native option desc ({ path,
 * names, results, outputs }; native_engine.c) over specs[0..n_ops)
 * (borrowed for the call) and stores it in *out; an outputs ArrayBuffer is
 * kept alive in *outputs_ref. Returns napi_ok, or napi_pending_exception with
 * a JS Error thrown: code WS_ELIBRARY, WS_ESYMBOL (the message the missing
 * name) or WS_EINVAL. */
napi_status ws_binding_native_open(napi_env env, napi_value desc, const ws_op_spec *specs,
                                   uint32_t n_ops, ws_native **out,
                                   napi_ref *outputs_ref);

/* Each adds its area's functions (or, for constants, the `constants`
 * object) to exports. */
napi_status ws_binding_constants_init(napi_env env, napi_value exports);
napi_status ws_binding_runner_init(napi_env env, napi_value exports);
napi_status ws_binding_log_init(napi_env env, napi_value exports);
napi_status ws_binding_live_init(napi_env env, napi_value exports);
napi_status ws_binding_summary_init(napi_env env, napi_value exports);
napi_status ws_binding_verdict_init(napi_env env, napi_value exports);
napi_status ws_binding_plot_init(napi_env env, napi_value exports);
napi_status ws_binding_sites_init(napi_env env, napi_value exports);

#endif
