/* readLog(path): decodes a sample log into typed arrays (JS thread). The
 * per-call arrays are allocated as ArrayBuffers and filled by the C core in
 * one streaming pass, so a run costs 7 bytes per call in memory. */
#include <string.h>

#include "binding.h"
#include "ws.h"

/* Creates a typed array of length elements over a new ArrayBuffer and
 * returns its data pointer in *data. */
static napi_status new_typed(napi_env env, napi_typedarray_type type, size_t elem_size,
                             size_t length, void **data, napi_value *out) {
  napi_value buffer;
  NAPI_CHECK(napi_create_arraybuffer(env, length * elem_size + 1, data, &buffer));
  return napi_create_typedarray(env, type, length, buffer, 0, out);
}

/* Copies n doubles into a new Float64Array. */
static napi_status f64_array(napi_env env, const double *src, size_t n, napi_value *out) {
  void *data;
  NAPI_CHECK(new_typed(env, napi_float64_array, 8, n, &data, out));
  if (n > 0)
    memcpy(data, src, n * sizeof *src);
  return napi_ok;
}

static napi_status set_number(napi_env env, napi_value obj, const char *key, double x) {
  napi_value v;
  NAPI_CHECK(napi_create_double(env, x, &v));
  return napi_set_named_property(env, obj, key, v);
}

/* Returns the log's damaged stretches as [{ offset, bytes, records,
 * recordsEstimated, afterIteration, beforeIteration }] (iterations null when
 * none). */
static napi_status damage_array(napi_env env, const ws_log *log, napi_value *out) {
  size_t n = ws_log_damage_count(log);
  NAPI_CHECK(napi_create_array_with_length(env, n, out));
  for (size_t i = 0; i < n; i++) {
    const ws_log_damage *d = ws_log_damage_at(log, i);
    napi_value o, v;
    NAPI_CHECK(napi_create_object(env, &o));
    NAPI_CHECK(set_number(env, o, "offset", (double)d->offset));
    NAPI_CHECK(set_number(env, o, "bytes", (double)d->bytes));
    NAPI_CHECK(set_number(env, o, "records", (double)d->records));
    NAPI_CHECK(napi_get_boolean(env, d->records_estimated != 0, &v));
    NAPI_CHECK(napi_set_named_property(env, o, "recordsEstimated", v));
    const int64_t iters[2] = {d->after_iteration, d->before_iteration};
    static const char *names[2] = {"afterIteration", "beforeIteration"};
    for (int k = 0; k < 2; k++) {
      if (iters[k] < 0)
        NAPI_CHECK(napi_get_null(env, &v));
      else
        NAPI_CHECK(napi_create_double(env, (double)iters[k], &v));
      NAPI_CHECK(napi_set_named_property(env, o, names[k], v));
    }
    NAPI_CHECK(napi_set_element(env, *out, (uint32_t)i, o));
  }
  return napi_ok;
}

/* Builds the result object from a decoded run; the per-call typed arrays
 * are views of length run->calls over the buffers the decode filled. */
static napi_status build_result(napi_env env, const ws_log *log, const ws_run *run,
                                napi_value arrays[8], napi_value *out) {
  napi_value obj, v, buf, metrics;
  NAPI_CHECK(napi_create_object(env, &obj));
  NAPI_CHECK(napi_create_string_utf8(env, ws_log_header(log), NAPI_AUTO_LENGTH, &v));
  NAPI_CHECK(napi_set_named_property(env, obj, "header", v));
  NAPI_CHECK(set_number(env, obj, "calls", (double)run->calls));
  static const char *names[3] = {"elapsed", "op", "flags"};
  static const napi_typedarray_type types[3] = {napi_float32_array, napi_uint16_array,
                                                napi_uint8_array};
  for (int i = 0; i < 3; i++) {
    napi_typedarray_type type;
    size_t len, offset;
    NAPI_CHECK(
        napi_get_typedarray_info(env, arrays[i], &type, &len, NULL, &buf, &offset));
    NAPI_CHECK(napi_create_typedarray(env, types[i], run->calls, buf, 0, &v));
    NAPI_CHECK(napi_set_named_property(env, obj, names[i], v));
  }
  NAPI_CHECK(f64_array(env, run->mem_iter, run->n_mem, &v));
  NAPI_CHECK(napi_set_named_property(env, obj, "memIter", v));
  NAPI_CHECK(f64_array(env, run->mem_bytes, run->n_mem, &v));
  NAPI_CHECK(napi_set_named_property(env, obj, "memBytes", v));
  NAPI_CHECK(napi_create_array_with_length(env, run->n_metrics, &metrics));
  for (size_t i = 0; i < run->n_metrics; i++) {
    const ws_metric_series *m = &run->metrics[i];
    napi_value series;
    NAPI_CHECK(napi_create_object(env, &series));
    NAPI_CHECK(set_number(env, series, "id", m->id));
    NAPI_CHECK(f64_array(env, m->iter, m->n, &v));
    NAPI_CHECK(napi_set_named_property(env, series, "iter", v));
    NAPI_CHECK(f64_array(env, m->t_ms, m->n, &v));
    NAPI_CHECK(napi_set_named_property(env, series, "tMs", v));
    NAPI_CHECK(f64_array(env, m->value, m->n, &v));
    NAPI_CHECK(napi_set_named_property(env, series, "value", v));
    NAPI_CHECK(napi_set_element(env, metrics, (uint32_t)i, series));
  }
  NAPI_CHECK(napi_set_named_property(env, obj, "metrics", metrics));
  if (run->allocs != NULL) {
    static const char *alloc_names[5] = {"allocs", "frees", "allocBytes", "live", "peak"};
    static const napi_typedarray_type alloc_types[5] = {
        napi_uint32_array, napi_uint32_array, napi_float64_array, napi_float64_array,
        napi_float64_array};
    for (int i = 0; i < 5; i++) {
      napi_typedarray_type type;
      size_t len, offset;
      NAPI_CHECK(
          napi_get_typedarray_info(env, arrays[3 + i], &type, &len, NULL, &buf, &offset));
      NAPI_CHECK(napi_create_typedarray(env, alloc_types[i], run->calls, buf, 0, &v));
      NAPI_CHECK(napi_set_named_property(env, obj, alloc_names[i], v));
    }
    NAPI_CHECK(set_number(env, obj, "allocRecords", (double)run->alloc_records));
  }
  NAPI_CHECK(set_number(env, obj, "backPressureWaits", (double)run->backpressure_waits));
  NAPI_CHECK(set_number(env, obj, "backPressureNs", (double)run->backpressure_ns));
  NAPI_CHECK(set_number(env, obj, "durationMs", (double)run->last_t_ns / 1e6));
  NAPI_CHECK(set_number(env, obj, "tornBytes", ws_log_torn_bytes(log)));
  NAPI_CHECK(set_number(env, obj, "version", ws_log_version(log)));
  NAPI_CHECK(set_number(env, obj, "lostCalls", (double)run->lost_calls));
  NAPI_CHECK(f64_array(env, run->gap_index, run->n_gaps, &v));
  NAPI_CHECK(napi_set_named_property(env, obj, "gapIndex", v));
  NAPI_CHECK(f64_array(env, run->gap_iter, run->n_gaps, &v));
  NAPI_CHECK(napi_set_named_property(env, obj, "gapIter", v));
  NAPI_CHECK(damage_array(env, log, &v));
  NAPI_CHECK(napi_set_named_property(env, obj, "damage", v));
  NAPI_CHECK(napi_get_boolean(env, run->complete != 0, &v));
  NAPI_CHECK(napi_set_named_property(env, obj, "complete", v));
  *out = obj;
  return napi_ok;
}

/* readLog(path, withAllocs) returns { header (JSON text), calls, elapsed, op,
 * flags, memIter, memBytes, metrics: [{ id, iter, tMs, value }],
 * backPressureWaits, backPressureNs, durationMs, tornBytes, complete } and,
 * when withAllocs is true, the counting pass's per-call allocs, frees,
 * allocBytes, live, peak and allocRecords. Throws an Error whose code is
 * WS_EIO (cannot read), WS_EFORMAT (not a log, or corrupt) or WS_ENOMEM. */
static napi_value read_log(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value args[2], result = NULL;
  char path[4096];
  size_t path_len;
  bool with_allocs = false;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, args, NULL, NULL));
  NAPI_CALL(env, napi_get_value_string_utf8(env, args[0], path, sizeof path, &path_len));
  if (argc > 1)
    napi_get_value_bool(env, args[1], &with_allocs);
  ws_log *log = NULL;
  int err = ws_log_open(path, &log);
  if (err != 0) {
    ws_binding_throw_code(env, err, NULL);
    return NULL;
  }
  size_t cap = (size_t)ws_log_record_count(log);
  ws_run run;
  memset(&run, 0, sizeof run);
  run.cap_calls = cap;
  napi_value arrays[8];
  napi_status st =
      new_typed(env, napi_float32_array, 4, cap, (void **)&run.elapsed, &arrays[0]);
  if (st == napi_ok)
    st = new_typed(env, napi_uint16_array, 2, cap, (void **)&run.op, &arrays[1]);
  if (st == napi_ok)
    st = new_typed(env, napi_uint8_array, 1, cap, (void **)&run.flags, &arrays[2]);
  if (with_allocs) {
    if (st == napi_ok)
      st = new_typed(env, napi_uint32_array, 4, cap, (void **)&run.allocs, &arrays[3]);
    if (st == napi_ok)
      st = new_typed(env, napi_uint32_array, 4, cap, (void **)&run.frees, &arrays[4]);
    if (st == napi_ok)
      st = new_typed(env, napi_float64_array, 8, cap, (void **)&run.alloc_bytes,
                     &arrays[5]);
    if (st == napi_ok)
      st = new_typed(env, napi_float64_array, 8, cap, (void **)&run.live, &arrays[6]);
    if (st == napi_ok)
      st = new_typed(env, napi_float64_array, 8, cap, (void **)&run.peak, &arrays[7]);
  }
  if (st == napi_ok) {
    err = ws_run_decode(log, &run);
    if (err != 0)
      ws_binding_throw_code(env, err, NULL);
    else
      st = build_result(env, log, &run, arrays, &result);
  }
  if (st != napi_ok)
    ws_binding_throw_last(env);
  ws_run_free(&run);
  ws_log_close(log);
  return err == 0 && st == napi_ok ? result : NULL;
}

/* logBlockHeader(out, records, index, seq) fills out (a Uint8Array of at
 * least 32 bytes) with the header of the block holding records (a
 * Uint8Array of 1 to WS_LOG_BLOCK_RECORDS whole records, possibly over a
 * SharedArrayBuffer): docs/log-format.md, "Blocks". JS thread (the log
 * writer). Throws WS_EINVAL on a bad argument. */
static napi_value log_block_header(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value args[4];
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, args, NULL, NULL));
  void *out = NULL, *records = NULL;
  size_t out_len = 0, rec_len = 0;
  napi_typedarray_type type;
  double index = 0, seq = 0;
  if (argc < 4 ||
      napi_get_typedarray_info(env, args[0], &type, &out_len, &out, NULL, NULL) !=
          napi_ok ||
      type != napi_uint8_array ||
      napi_get_typedarray_info(env, args[1], &type, &rec_len, &records, NULL, NULL) !=
          napi_ok ||
      type != napi_uint8_array ||
      napi_get_value_double(env, args[2], &index) != napi_ok ||
      napi_get_value_double(env, args[3], &seq) != napi_ok || out_len < WS_RECORD_SIZE ||
      rec_len == 0 || rec_len % WS_RECORD_SIZE != 0 ||
      rec_len / WS_RECORD_SIZE > WS_LOG_BLOCK_RECORDS || !(index >= 0) || !(seq >= 0)) {
    ws_binding_throw_code(env, WS_EINVAL, "logBlockHeader(out, records, index, seq)");
    return NULL;
  }
  ws_log_block_header(out, records, (uint32_t)(rec_len / WS_RECORD_SIZE), (uint64_t)index,
                      (uint32_t)seq);
  return NULL;
}

napi_status ws_binding_log_init(napi_env env, napi_value exports) {
  NAPI_CHECK(ws_binding_export(env, exports, "readLog", read_log));
  return ws_binding_export(env, exports, "logBlockHeader", log_block_header);
}
