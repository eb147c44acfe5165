/* windowStats(elapsed, op, from, to, nOps): per-window time quantiles for the
 * run summary; bootstrapPaired(d, replicates, level, seed): the ratio of two
 * arms from paired block log differences, with its interval (compare);
 * bootstrapChange(early, late, replicates, level, seed): a run against its
 * baseline. JS thread. */
#include <stdlib.h>

#include "binding.h"
#include "ws.h"
#include "ws_stats.h"

/* Returns a Float64Array((nOps + 1) * 4) of [n, median, p90, p99] rows: all
 * calls, then each op. Throws WS_EINVAL for mismatched arrays or a bad
 * window. */
static napi_value window_stats(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5], buffer, result;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  size_t n1 = 0, n2 = 0;
  void *elapsed = NULL, *op = NULL, *out;
  uint32_t from, to, n_ops;
  NAPI_CALL(env, napi_get_value_uint32(env, argv[2], &from));
  NAPI_CALL(env, napi_get_value_uint32(env, argv[3], &to));
  NAPI_CALL(env, napi_get_value_uint32(env, argv[4], &n_ops));
  if (ws_napi_typed_array(env, argv[0], napi_float32_array, &elapsed, &n1) != napi_ok ||
      ws_napi_typed_array(env, argv[1], napi_uint16_array, &op, &n2) != napi_ok ||
      n1 != n2 || to > n1) {
    ws_binding_throw_code(env, WS_EINVAL,
                          "windowStats(Float32Array, Uint16Array, from, to, nOps)");
    return NULL;
  }
  size_t len = ((size_t)n_ops + 1) * 4;
  NAPI_CALL(env, napi_create_arraybuffer(env, len * sizeof(double), &out, &buffer));
  int err = ws_window_stats(elapsed, op, from, to, n_ops, out);
  if (err != 0) {
    ws_binding_throw_code(env, err, NULL);
    return NULL;
  }
  NAPI_CALL(env,
            napi_create_typedarray(env, napi_float64_array, len, buffer, 0, &result));
  return result;
}

/* Returns { change, low, high, block, replicates } of w, or NULL with an
 * exception pending. */
static napi_value change_object(napi_env env, const ws_window_change *w) {
  napi_value result;
  NAPI_CALL(env, napi_create_object(env, &result));
  NAPI_CALL(env, ws_napi_set_number(env, result, "change", w->change));
  NAPI_CALL(env, ws_napi_set_number(env, result, "low", w->low));
  NAPI_CALL(env, ws_napi_set_number(env, result, "high", w->high));
  NAPI_CALL(env, ws_napi_set_number(env, result, "block", (double)w->block));
  NAPI_CALL(env, ws_napi_set_number(env, result, "replicates", (double)w->replicates));
  return result;
}

/* bootstrapPaired(Float64Array d, replicates, level, seed) returns
 * { change, low, high, block, replicates } from ws_bootstrap_paired; throws
 * WS_EINVAL for fewer than WS_BOOT_MIN_WINDOW pairs or a value that is not
 * finite. */
static napi_value bootstrap_paired(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  size_t n = 0;
  void *d = NULL;
  uint32_t replicates;
  double level;
  int64_t seed;
  NAPI_CALL(env, napi_get_value_uint32(env, argv[1], &replicates));
  NAPI_CALL(env, napi_get_value_double(env, argv[2], &level));
  NAPI_CALL(env, napi_get_value_int64(env, argv[3], &seed));
  if (ws_napi_typed_array(env, argv[0], napi_float64_array, &d, &n) != napi_ok) {
    ws_binding_throw_code(env, WS_EINVAL,
                          "bootstrapPaired(Float64Array, replicates, level, seed)");
    return NULL;
  }
  ws_window_change w;
  int err = ws_bootstrap_paired(d, n, replicates, level, (uint64_t)seed, &w);
  if (err != 0) {
    ws_binding_throw_code(env, err, NULL);
    return NULL;
  }
  return change_object(env, &w);
}

/* bootstrapChange(Float64Array early, Float64Array late, replicates, level,
 * seed) returns { change, low, high, block, replicates } from
 * ws_bootstrap_change on two windows of log values (a run against its
 * baseline); throws WS_EINVAL for a window of fewer than WS_BOOT_MIN_WINDOW
 * values. */
static napi_value bootstrap_change(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  size_t ne = 0, nl = 0;
  void *early = NULL, *late = NULL;
  uint32_t replicates;
  double level;
  int64_t seed;
  NAPI_CALL(env, napi_get_value_uint32(env, argv[2], &replicates));
  NAPI_CALL(env, napi_get_value_double(env, argv[3], &level));
  NAPI_CALL(env, napi_get_value_int64(env, argv[4], &seed));
  if (ws_napi_typed_array(env, argv[0], napi_float64_array, &early, &ne) != napi_ok ||
      ws_napi_typed_array(env, argv[1], napi_float64_array, &late, &nl) != napi_ok) {
    ws_binding_throw_code(
        env, WS_EINVAL,
        "bootstrapChange(Float64Array, Float64Array, replicates, level, seed)");
    return NULL;
  }
  ws_window_change w;
  int err =
      ws_bootstrap_change(early, ne, late, nl, replicates, level, (uint64_t)seed, &w);
  if (err != 0) {
    ws_binding_throw_code(env, err, NULL);
    return NULL;
  }
  return change_object(env, &w);
}

napi_status ws_binding_summary_init(napi_env env, napi_value exports) {
  NAPI_CHECK(ws_binding_export(env, exports, "bootstrapChange", bootstrap_change));
  NAPI_CHECK(ws_binding_export(env, exports, "windowStats", window_stats));
  return ws_binding_export(env, exports, "bootstrapPaired", bootstrap_paired);
}
