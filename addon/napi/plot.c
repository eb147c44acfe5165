/* Node-API layer of the plotting decimation (ws_decimate.h). Each function
 * reads typed arrays in place (no copy), calls the C core and returns a new
 * Float64Array; an argument of the wrong type throws WS_EINVAL, a number out
 * of range a RangeError. All run synchronously on the JS thread that calls
 * them, but decimateBandsAsync and decimateQuantilesAsync, whose work runs
 * on a libuv thread. */
#include <stdlib.h>

#include "binding.h"
#include "ws.h"
#include "ws_decimate.h"

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

/* Reads the call's n arguments into argv (usage names them when some are
 * missing): the first y, a Float32Array (*y), then from and to, a range of
 * it (range_args). Returns 1, or 0 after throwing. */
static int y_range(napi_env env, napi_callback_info info, size_t n, napi_value *argv,
                   const char *usage, float **y, size_t *from, size_t *to) {
  void *data;
  size_t len;
  if (!ws_napi_args(env, info, n, n, argv, usage) ||
      !ws_napi_typed_arg(env, argv[0], napi_float32_array, &data, &len,
                         "y must be a Float32Array") ||
      range_args(env, argv[1], argv[2], len, from, to) != napi_ok)
    return 0;
  *y = data;
  return 1;
}

/* The arguments of decimateBands and decimateBandsAsync (usage names them):
 * y[from..to) in *y and *n, buckets, window, and the call's argv (y first);
 * the result, a new Float64Array of buckets * WS_BAND_FIELDS, in *result and
 * its bytes in *out. Returns 1, or 0 after throwing. */
static int bands_args(napi_env env, napi_callback_info info, const char *usage,
                      napi_value argv[5], const float **y, size_t *n, size_t *buckets,
                      size_t *window, double **out, napi_value *result) {
  float *data;
  size_t from, to;
  void *bytes;
  if (!y_range(env, info, 5, argv, usage, &data, &from, &to) ||
      size_arg(env, argv[3], to - from, "buckets must be 1..(to - from)", buckets) !=
          napi_ok ||
      size_arg(env, argv[4], SIZE_MAX / 2, "window must be a count", window) != napi_ok ||
      ws_napi_new_typed_array(env, napi_float64_array, *buckets * WS_BAND_FIELDS, &bytes,
                              result) != napi_ok)
    return 0;
  *y = data + from;
  *n = to - from;
  *out = bytes;
  return 1;
}

/* decimateBands(y: Float32Array, from, to, buckets, window) -> Float64Array of
 * buckets * 8 fields per bucket (WS_BAND_* order) over y[from..to); indices
 * in the output are relative to from. */
static napi_value decimate_bands(napi_env env, napi_callback_info info) {
  napi_value argv[5], result;
  const float *y;
  size_t n, buckets, window;
  double *out;
  if (!bands_args(env, info, "decimateBands(y, from, to, buckets, window)", argv, &y, &n,
                  &buckets, &window, &out, &result))
    return NULL;
  int rc = ws_decimate_bands(y, n, buckets, window, out);
  return ws_napi_rc_ok(env, rc) ? result : NULL;
}

/* One decimateBandsAsync or decimateQuantilesAsync call: its arguments,
 * its result and the references that keep y, p and the result alive until
 * it completes; run does its work. */
typedef struct plot_job {
  napi_async_work work;
  napi_deferred deferred;
  napi_ref y_ref, p_ref, out_ref;
  const float *y;
  size_t n, buckets, window; /* bands */
  const double *p;           /* quantiles: np probabilities */
  size_t np;
  double *out;
  int rc;
  int (*run)(const struct plot_job *j);
} plot_job;

/* A bands job's work (ws_decimate_bands). */
static int run_bands(const plot_job *j) {
  return ws_decimate_bands(j->y, j->n, j->buckets, j->window, j->out);
}

/* A quantiles job's work (ws_quantiles). */
static int run_quantiles(const plot_job *j) {
  return ws_quantiles(j->y, j->n, j->p, j->np, j->out);
}

/* Runs a job. A libuv thread: no napi_env use. */
static void job_execute(napi_env env, void *data) {
  (void)env;
  plot_job *j = data;
  j->rc = j->run(j);
}

/* Settles a job's promise (its Float64Array, or the WS_E* error of its
 * failure), releases its references and frees it. JS thread. */
static void job_complete(napi_env env, napi_status status, void *data) {
  plot_job *j = data;
  napi_value value = NULL;
  if (status == napi_ok && j->rc >= 0 &&
      napi_get_reference_value(env, j->out_ref, &value) == napi_ok)
    napi_resolve_deferred(env, j->deferred, value);
  else {
    ws_binding_throw_code(env, j->rc < 0 ? j->rc : WS_EINVAL, NULL);
    napi_get_and_clear_last_exception(env, &value);
    napi_reject_deferred(env, j->deferred, value);
  }
  napi_delete_reference(env, j->y_ref);
  if (j->p_ref != NULL)
    napi_delete_reference(env, j->p_ref);
  napi_delete_reference(env, j->out_ref);
  napi_delete_async_work(env, j->work);
  free(j);
}

/* Returns a new zeroed job, or NULL with WS_ENOMEM thrown. JS thread. */
static plot_job *new_job(napi_env env) {
  plot_job *j = calloc(1, sizeof *j);
  if (j == NULL)
    ws_binding_throw_code(env, WS_ENOMEM, NULL);
  return j;
}

/* Queues job j, whose arguments are read (y: the Float32Array argv0, p: a
 * Float64Array or NULL, result: its Float64Array), on a libuv thread and
 * returns its promise; NULL with the error thrown when Node-API fails. */
static napi_value queue_job(napi_env env, plot_job *j, const char *name, napi_value y,
                            napi_value p, napi_value result) {
  napi_value promise, resource;
  if (napi_create_reference(env, y, 1, &j->y_ref) != napi_ok ||
      (p != NULL && napi_create_reference(env, p, 1, &j->p_ref) != napi_ok) ||
      napi_create_reference(env, result, 1, &j->out_ref) != napi_ok ||
      napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &resource) != napi_ok ||
      napi_create_promise(env, &j->deferred, &promise) != napi_ok ||
      napi_create_async_work(env, NULL, resource, job_execute, job_complete, j,
                             &j->work) != napi_ok ||
      napi_queue_async_work(env, j->work) != napi_ok) {
    /* Node-API failing here: the job (and what it references) is leaked, not freed twice.
     */
    ws_binding_throw_last(env);
    return NULL;
  }
  return promise;
}

/* decimateBandsAsync(y: Float32Array, from, to, buckets, window) -> a Promise
 * of what decimateBands returns, computed on a libuv thread (y must not be
 * written until it settles): the report decimates the time figure's bands
 * while the verdicts are analysed. Bad arguments throw as decimateBands's. */
static napi_value decimate_bands_async(napi_env env, napi_callback_info info) {
  napi_value argv[5], result;
  plot_job *j = new_job(env);
  if (j == NULL)
    return NULL;
  if (!bands_args(env, info, "decimateBandsAsync(y, from, to, buckets, window)", argv,
                  &j->y, &j->n, &j->buckets, &j->window, &j->out, &result)) {
    free(j);
    return NULL;
  }
  j->run = run_bands;
  return queue_job(env, j, "decimateBandsAsync", argv[0], NULL, result);
}

/* The arguments of decimateQuantiles and decimateQuantilesAsync (usage
 * names them): y[from..to) in *y and *n, p in *p and *np, and the call's
 * argv; the result, a new Float64Array of np, in *result and its bytes in
 * *out. Returns 1, or 0 after throwing. */
static int quantiles_args(napi_env env, napi_callback_info info, const char *usage,
                          napi_value argv[4], const float **y, size_t *n,
                          const double **p, size_t *np, double **out,
                          napi_value *result) {
  float *data;
  void *probs, *bytes;
  size_t from, to;
  if (!y_range(env, info, 4, argv, usage, &data, &from, &to) ||
      !ws_napi_typed_arg(env, argv[3], napi_float64_array, &probs, np,
                         "p must be a Float64Array") ||
      ws_napi_new_typed_array(env, napi_float64_array, *np, &bytes, result) != napi_ok)
    return 0;
  *y = data + from;
  *n = to - from;
  *p = probs;
  *out = bytes;
  return 1;
}

/* decimateQuantiles(y: Float32Array, from, to, p: Float64Array) -> Float64Array of the
 * nearest-rank quantiles p[i] of y[from..to). */
static napi_value quantiles(napi_env env, napi_callback_info info) {
  napi_value argv[4], result;
  const float *y;
  const double *p;
  double *out;
  size_t n, np;
  if (!quantiles_args(env, info, "decimateQuantiles(y, from, to, p)", argv, &y, &n, &p,
                      &np, &out, &result))
    return NULL;
  int rc = ws_quantiles(y, n, p, np, out);
  return ws_napi_rc_ok(env, rc) ? result : NULL;
}

/* decimateQuantilesAsync(y, from, to, p) -> a Promise of what
 * decimateQuantiles returns, computed on a libuv thread (y and p must not
 * be written until it settles): the report's figures take their quantiles
 * on the other core. Bad arguments throw as decimateQuantiles's. */
static napi_value quantiles_async(napi_env env, napi_callback_info info) {
  napi_value argv[4], result;
  plot_job *j = new_job(env);
  if (j == NULL)
    return NULL;
  if (!quantiles_args(env, info, "decimateQuantilesAsync(y, from, to, p)", argv, &j->y,
                      &j->n, &j->p, &j->np, &j->out, &result)) {
    free(j);
    return NULL;
  }
  j->run = run_quantiles;
  return queue_job(env, j, "decimateQuantilesAsync", argv[0], argv[3], result);
}

/* decimateOps(y: Float32Array, op: Uint16Array, from, to, nops, windows) ->
 * Float64Array of windows * nops * 3 fields (median, p90, count). */
static napi_value decimate_ops(napi_env env, napi_callback_info info) {
  WS_NAPI_ARGV(6, 6, "decimateOps(y, op, from, to, nops, windows)");
  napi_value result;
  void *y, *op, *out;
  size_t n, nop, from, to, nops, windows;
  if (!ws_napi_typed_arg(env, argv[0], napi_float32_array, &y, &n,
                         "y must be a Float32Array") ||
      !ws_napi_typed_arg(env, argv[1], napi_uint16_array, &op, &nop,
                         "op must be a Uint16Array"))
    return NULL;
  if (nop < n)
    n = nop;
  NAPI_CALL(env, range_args(env, argv[2], argv[3], n, &from, &to));
  NAPI_CALL(env, size_arg(env, argv[4], 65536, "nops must be 1..65536", &nops));
  NAPI_CALL(
      env, size_arg(env, argv[5], to - from, "windows must be 1..(to - from)", &windows));
  NAPI_CALL(env, ws_napi_new_typed_array(env, napi_float64_array,
                                         windows * nops * WS_OPS_FIELDS, &out, &result));
  int rc = ws_decimate_ops((const float *)y + from, (const uint16_t *)op + from,
                           to - from, nops, windows, out);
  return ws_napi_rc_ok(env, rc) ? result : NULL;
}

napi_status ws_binding_plot_init(napi_env env, napi_value exports) {
  NAPI_CHECK(ws_binding_export(env, exports, "decimateBands", decimate_bands));
  NAPI_CHECK(ws_binding_export(env, exports, "decimateBandsAsync", decimate_bands_async));
  NAPI_CHECK(ws_binding_export(env, exports, "decimateQuantilesAsync", quantiles_async));
  NAPI_CHECK(ws_binding_export(env, exports, "decimateQuantiles", quantiles));
  NAPI_CHECK(ws_binding_export(env, exports, "decimateOps", decimate_ops));
  return napi_ok;
}
