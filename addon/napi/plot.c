/* Node-API layer of the plotting decimation (ws_decimate.h). Each function
 * reads typed arrays in place (no copy), calls the C core and returns a new
 * Float64Array. All run synchronously on the JS thread that calls them. */
#include "binding.h"
#include "ws.h"
#include "ws_decimate.h"

/* Reads argument `v` as a typed array of `type`; stores its data and length.
 * Throws a TypeError naming `what` and returns napi_invalid_arg otherwise. */
static napi_status typed_arg(napi_env env, napi_value v, napi_typedarray_type type,
                             const char *what, void **data, size_t *length) {
  napi_status st = ws_napi_typed_array(env, v, type, data, length);
  if (st == napi_invalid_arg)
    napi_throw_type_error(env, "WS_EINVAL", what);
  return st;
}

/* Reads argument `v` as a non-negative integer no larger than max. */
static napi_status size_arg(napi_env env, napi_value v, size_t max, const char *what,
                            size_t *out) {
  double d = -1;
  if (napi_get_value_double(env, v, &d) != napi_ok || !(d >= 0 && d <= (double)max) ||
      d != (double)(size_t)d) {
    napi_throw_range_error(env, "WS_EINVAL", what);
    return napi_invalid_arg;
  }
  *out = (size_t)d;
  return napi_ok;
}

/* Reads arguments `a` and `b` as a range from <= to <= n. */
static napi_status range_args(napi_env env, napi_value a, napi_value b, size_t n,
                              size_t *from, size_t *to) {
  NAPI_CHECK(size_arg(env, a, n, "from must be an index into y", from));
  NAPI_CHECK(size_arg(env, b, n, "to must be an index into y", to));
  if (*to < *from) {
    napi_throw_range_error(env, "WS_EINVAL", "to must not be less than from");
    return napi_invalid_arg;
  }
  return napi_ok;
}

/* Creates a Float64Array of n doubles; stores its data pointer. */
static napi_status new_doubles(napi_env env, size_t n, double **data,
                               napi_value *result) {
  napi_value buffer;
  NAPI_CHECK(napi_create_arraybuffer(env, n * sizeof(double), (void **)data, &buffer));
  return napi_create_typedarray(env, napi_float64_array, n, buffer, 0, result);
}

/* decimateBands(y: Float32Array, from, to, buckets, window) -> Float64Array of
 * buckets * 8 fields per bucket (WS_BAND_* order) over y[from..to); indices
 * in the output are relative to from. */
static napi_value decimate_bands(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5], result;
  float *y;
  size_t n, from, to, buckets, window;
  double *out;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  NAPI_CALL(env, typed_arg(env, argv[0], napi_float32_array, "y must be a Float32Array",
                           (void **)&y, &n));
  NAPI_CALL(env, range_args(env, argv[1], argv[2], n, &from, &to));
  NAPI_CALL(
      env, size_arg(env, argv[3], to - from, "buckets must be 1..(to - from)", &buckets));
  NAPI_CALL(env, size_arg(env, argv[4], SIZE_MAX / 2, "window must be a count", &window));
  NAPI_CALL(env, new_doubles(env, buckets * WS_BAND_FIELDS, &out, &result));
  int rc = ws_decimate_bands(y + from, to - from, buckets, window, out);
  if (rc < 0) {
    ws_binding_throw_code(env, rc, NULL);
    return NULL;
  }
  return result;
}

/* decimateQuantiles(y: Float32Array, from, to, p: Float64Array) -> Float64Array of the
 * nearest-rank quantiles p[i] of y[from..to). */
static napi_value quantiles(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4], result;
  float *y;
  double *p, *out;
  size_t n, np, from, to;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  NAPI_CALL(env, typed_arg(env, argv[0], napi_float32_array, "y must be a Float32Array",
                           (void **)&y, &n));
  NAPI_CALL(env, range_args(env, argv[1], argv[2], n, &from, &to));
  NAPI_CALL(env, typed_arg(env, argv[3], napi_float64_array, "p must be a Float64Array",
                           (void **)&p, &np));
  NAPI_CALL(env, new_doubles(env, np, &out, &result));
  int rc = ws_quantiles(y + from, to - from, p, np, out);
  if (rc < 0) {
    ws_binding_throw_code(env, rc, NULL);
    return NULL;
  }
  return result;
}

/* decimateOps(y: Float32Array, op: Uint16Array, from, to, nops, windows) ->
 * Float64Array of windows * nops * 3 fields (median, p90, count). */
static napi_value decimate_ops(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6], result;
  float *y;
  uint16_t *op;
  double *out;
  size_t n, nop, from, to, nops, windows;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  NAPI_CALL(env, typed_arg(env, argv[0], napi_float32_array, "y must be a Float32Array",
                           (void **)&y, &n));
  NAPI_CALL(env, typed_arg(env, argv[1], napi_uint16_array, "op must be a Uint16Array",
                           (void **)&op, &nop));
  if (nop < n)
    n = nop;
  NAPI_CALL(env, range_args(env, argv[2], argv[3], n, &from, &to));
  NAPI_CALL(env, size_arg(env, argv[4], 65536, "nops must be 1..65536", &nops));
  NAPI_CALL(
      env, size_arg(env, argv[5], to - from, "windows must be 1..(to - from)", &windows));
  NAPI_CALL(env, new_doubles(env, windows * nops * WS_OPS_FIELDS, &out, &result));
  int rc = ws_decimate_ops(y + from, op + from, to - from, nops, windows, out);
  if (rc < 0) {
    ws_binding_throw_code(env, rc, NULL);
    return NULL;
  }
  return result;
}

napi_status ws_binding_plot_init(napi_env env, napi_value exports) {
  NAPI_CHECK(ws_binding_export(env, exports, "decimateBands", decimate_bands));
  NAPI_CHECK(ws_binding_export(env, exports, "decimateQuantiles", quantiles));
  NAPI_CHECK(ws_binding_export(env, exports, "decimateOps", decimate_ops));
  return napi_ok;
}
