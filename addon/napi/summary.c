/* windowStats(elapsed, op, from, to, nOps): per-window time quantiles for the
 * run summary; compareFamily(x, arms, family, replicates, level, seed): several arms'
 * ratios to the first, judged as one family (compare); bootstrapChange(early,
 * late, replicates, level, seed): a run against its baseline. JS thread. */
#include <stdlib.h>

#include "binding.h"
#include "ws.h"
#include "ws_stats.h"

/* Returns a Float64Array((nOps + 1) * WS_WINDOW_STAT_FIELDS) of rows laid
 * out as WS_WINDOW_STATS (n, median, p90, p99): all calls, then each op. Throws WS_EINVAL
 * for mismatched arrays or a bad window. */
static napi_value window_stats(napi_env env, napi_callback_info info) {
  static const char usage[] = "windowStats(Float32Array, Uint16Array, from, to, nOps)";
  WS_NAPI_ARGV(5, 5, usage);
  napi_value result;
  size_t n1 = 0, n2 = 0;
  void *elapsed = NULL, *op = NULL, *out;
  uint32_t from, to, n_ops;
  NAPI_CALL(env, napi_get_value_uint32(env, argv[2], &from));
  NAPI_CALL(env, napi_get_value_uint32(env, argv[3], &to));
  NAPI_CALL(env, napi_get_value_uint32(env, argv[4], &n_ops));
  if (!ws_napi_typed_arg(env, argv[0], napi_float32_array, &elapsed, &n1, usage) ||
      !ws_napi_typed_arg(env, argv[1], napi_uint16_array, &op, &n2, usage))
    return NULL;
  if (n1 != n2 || to > n1) {
    ws_binding_throw_code(env, WS_EINVAL, usage);
    return NULL;
  }
  size_t len = ((size_t)n_ops + 1) * WS_WINDOW_STAT_FIELDS;
  NAPI_CALL(env, ws_napi_new_typed_array(env, napi_float64_array, len, &out, &result));
  return ws_napi_rc_ok(env, ws_window_stats(elapsed, op, from, to, n_ops, out)) ? result
                                                                                : NULL;
}

/* Returns { change, low, high, block, replicates } of w, or NULL with an
 * exception pending. */
static napi_value change_object(napi_env env, const ws_window_change *w) {
  const ws_napi_number numbers[] = {{"change", w->change},
                                    {"low", w->low},
                                    {"high", w->high},
                                    {"block", (double)w->block},
                                    {"replicates", (double)w->replicates}};
  napi_value result;
  NAPI_CALL(env, napi_create_object(env, &result));
  NAPI_CALL(env, WS_NAPI_SET_NUMBERS(env, result, numbers));
  return result;
}

/* Returns { family, armLevel, widen, spread, floor, floorSpreads (the
 * spreads the floor is, WS_COMPARE_SPREAD_FLOOR), changes } of fam and
 * changes[0..n), or NULL with an exception pending. */
static napi_value family_object(napi_env env, const ws_arm_family *fam,
                                const ws_window_change *changes, uint32_t n) {
  napi_value result, list;
  NAPI_CALL(env, napi_create_object(env, &result));
  NAPI_CALL(env, ws_napi_set_number(env, result, "family", (double)fam->family));
  NAPI_CALL(env, ws_napi_set_number(env, result, "armLevel", fam->arm_level));
  NAPI_CALL(env, ws_napi_set_number(env, result, "widen", fam->widen));
  NAPI_CALL(env, ws_napi_set_number(env, result, "spread", fam->spread));
  NAPI_CALL(env, ws_napi_set_number(env, result, "floor", fam->floor));
  NAPI_CALL(env,
            ws_napi_set_number(env, result, "floorSpreads", WS_COMPARE_SPREAD_FLOOR));
  NAPI_CALL(env,
            ws_napi_set_number(env, result, "instanceFloor", WS_COMPARE_INSTANCE_FLOOR));
  NAPI_CALL(env, napi_create_array_with_length(env, n, &list));
  for (uint32_t j = 0; j < n; j++) {
    napi_value item = change_object(env, &changes[j]);
    if (item == NULL)
      return NULL;
    NAPI_CALL(env, napi_set_element(env, list, j, item));
  }
  NAPI_CALL(env, napi_set_named_property(env, result, "changes", list));
  return result;
}

/* A bootstrap's settings, the three arguments at argv[0..3): replicates,
 * level and seed. */
typedef struct {
  uint32_t replicates;
  double level;
  int64_t seed;
} boot_args;

/* Reads *b from argv[0..3). Returns the status of the first Node-API call
 * that failed, else napi_ok. */
static napi_status read_boot_args(napi_env env, const napi_value *argv, boot_args *b) {
  NAPI_CHECK(napi_get_value_uint32(env, argv[0], &b->replicates));
  NAPI_CHECK(napi_get_value_double(env, argv[1], &b->level));
  return napi_get_value_int64(env, argv[2], &b->seed);
}

/* compareFamily(Float64Array x, arms, family, replicates, level, seed), x
 * the arms' log block medians arm by arm, returns { family, armLevel, widen,
 * spread, floor, floorSpreads, changes: [{ change, low, high, block, replicates } per arm
 * after the first] } from ws_compare_family; throws WS_EINVAL for a layout
 * that does not fit it. */
static napi_value compare_family(napi_env env, napi_callback_info info) {
  static const char usage[] =
      "compareFamily(Float64Array, arms, family, replicates, level, seed)";
  WS_NAPI_ARGV(6, 6, usage);
  size_t n = 0;
  void *x = NULL;
  uint32_t arms, family;
  boot_args b;
  NAPI_CALL(env, napi_get_value_uint32(env, argv[1], &arms));
  NAPI_CALL(env, napi_get_value_uint32(env, argv[2], &family));
  NAPI_CALL(env, read_boot_args(env, argv + 3, &b));
  if (!ws_napi_typed_arg(env, argv[0], napi_float64_array, &x, &n, usage))
    return NULL;
  if (arms < 2 || n % arms != 0) {
    ws_binding_throw_code(env, WS_EINVAL, usage);
    return NULL;
  }
  ws_window_change *changes = malloc((arms - 1) * sizeof *changes);
  if (changes == NULL) {
    ws_binding_throw_code(env, WS_ENOMEM, NULL);
    return NULL;
  }
  ws_arm_family fam;
  int err = ws_compare_family(x, arms, n / arms, family, b.replicates, b.level,
                              (uint64_t)b.seed, changes, &fam);
  napi_value result =
      ws_napi_rc_ok(env, err) ? family_object(env, &fam, changes, arms - 1) : NULL;
  free(changes);
  return result;
}

/* bootstrapChange(Float64Array early, Float64Array late, replicates, level,
 * seed) returns { change, low, high, block, replicates } from
 * ws_bootstrap_change on two windows of log values (a run against its
 * baseline); throws WS_EINVAL for a window of fewer than WS_BOOT_MIN_WINDOW
 * values. */
static napi_value bootstrap_change(napi_env env, napi_callback_info info) {
  static const char usage[] =
      "bootstrapChange(Float64Array, Float64Array, replicates, level, seed)";
  WS_NAPI_ARGV(5, 5, usage);
  size_t ne = 0, nl = 0;
  void *early = NULL, *late = NULL;
  boot_args b;
  NAPI_CALL(env, read_boot_args(env, argv + 2, &b));
  if (!ws_napi_typed_arg(env, argv[0], napi_float64_array, &early, &ne, usage) ||
      !ws_napi_typed_arg(env, argv[1], napi_float64_array, &late, &nl, usage))
    return NULL;
  ws_window_change w;
  int err = ws_bootstrap_change(early, ne, late, nl, b.replicates, b.level,
                                (uint64_t)b.seed, &w);
  return ws_napi_rc_ok(env, err) ? change_object(env, &w) : NULL;
}

napi_status ws_binding_summary_init(napi_env env, napi_value exports) {
  NAPI_CHECK(ws_binding_export(env, exports, "bootstrapChange", bootstrap_change));
  NAPI_CHECK(ws_binding_export(env, exports, "windowStats", window_stats));
  return ws_binding_export(env, exports, "compareFamily", compare_family);
}
