/* readLog(path | bytes): decodes a sample log, from its file or from the
 * same bytes in memory, into typed arrays (JS thread). The per-call arrays
 * are allocated as ArrayBuffers and filled by the C core in one streaming
 * pass that reads the file once (a thinned log's strides included), so a
 * run costs 7 bytes per call in memory. */
#include <string.h>

#include "binding.h"
#include "ws.h"

/* Frees an ArrayBuffer's data that new_buffer allocated (its finalizer). */
static void free_buffer(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  free(data);
}

/* Creates an ArrayBuffer with room for length elements of elem_size bytes
 * (and one byte more, so that an empty one has data too) and returns its
 * data pointer in *data. Its memory is the C heap's, zeroed only when
 * zeroed is set: the decode writes every call's elapsed, op and flags (the
 * typed arrays over them show no more), not every call's allocation
 * counters, and a large buffer's pages are first touched there (on the
 * decode's thread, for readLogAsync) rather than cleared here. */
static napi_status new_buffer(napi_env env, size_t elem_size, size_t length, int zeroed,
                              void **data, napi_value *out) {
  size_t bytes = length * elem_size + 1;
  *data = zeroed ? calloc(1, bytes) : malloc(bytes);
  if (*data == NULL)
    return napi_generic_failure;
  napi_status st =
      napi_create_external_arraybuffer(env, *data, bytes, free_buffer, NULL, out);
  if (st != napi_ok) {
    free(*data);
    *data = NULL;
  }
  return st;
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
    NAPI_CHECK(ws_napi_set_number(env, o, "offset", (double)d->offset));
    NAPI_CHECK(ws_napi_set_number(env, o, "bytes", (double)d->bytes));
    NAPI_CHECK(ws_napi_set_number(env, o, "records", (double)d->records));
    NAPI_CHECK(ws_napi_set_bool(env, o, "recordsEstimated", d->records_estimated != 0));
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
 * are views of length run->calls over the ArrayBuffers the decode filled
 * (buffers: elapsed, op, flags, then the counting pass's five). */
static napi_status build_result(napi_env env, const ws_log *log, const ws_run *run,
                                napi_value buffers[8], napi_value *out) {
  napi_value obj, v, metrics;
  NAPI_CHECK(napi_create_object(env, &obj));
  NAPI_CHECK(ws_napi_set_string(env, obj, "header", ws_log_header(log)));
  NAPI_CHECK(ws_napi_set_number(env, obj, "calls", (double)run->calls));
  static const char *names[3] = {"elapsed", "op", "flags"};
  static const napi_typedarray_type types[3] = {napi_float32_array, napi_uint16_array,
                                                napi_uint8_array};
  for (int i = 0; i < 3; i++) {
    NAPI_CHECK(napi_create_typedarray(env, types[i], run->calls, buffers[i], 0, &v));
    NAPI_CHECK(napi_set_named_property(env, obj, names[i], v));
  }
  NAPI_CHECK(ws_napi_set_typed_copy(env, obj, "memIter", napi_float64_array,
                                    run->mem_iter, run->n_mem));
  NAPI_CHECK(ws_napi_set_typed_copy(env, obj, "memBytes", napi_float64_array,
                                    run->mem_bytes, run->n_mem));
  NAPI_CHECK(napi_create_array_with_length(env, run->n_metrics, &metrics));
  for (size_t i = 0; i < run->n_metrics; i++) {
    const ws_metric_series *m = &run->metrics[i];
    napi_value series;
    NAPI_CHECK(napi_create_object(env, &series));
    NAPI_CHECK(ws_napi_set_number(env, series, "id", m->id));
    NAPI_CHECK(
        ws_napi_set_typed_copy(env, series, "iter", napi_float64_array, m->iter, m->n));
    NAPI_CHECK(
        ws_napi_set_typed_copy(env, series, "tMs", napi_float64_array, m->t_ms, m->n));
    NAPI_CHECK(
        ws_napi_set_typed_copy(env, series, "value", napi_float64_array, m->value, m->n));
    NAPI_CHECK(napi_set_element(env, metrics, (uint32_t)i, series));
  }
  NAPI_CHECK(napi_set_named_property(env, obj, "metrics", metrics));
  if (run->allocs != NULL) {
    static const char *alloc_names[5] = {"allocs", "frees", "allocBytes", "live", "peak"};
    static const napi_typedarray_type alloc_types[5] = {
        napi_uint32_array, napi_uint32_array, napi_float64_array, napi_float64_array,
        napi_float64_array};
    for (int i = 0; i < 5; i++) {
      NAPI_CHECK(
          napi_create_typedarray(env, alloc_types[i], run->calls, buffers[3 + i], 0, &v));
      NAPI_CHECK(napi_set_named_property(env, obj, alloc_names[i], v));
    }
    NAPI_CHECK(ws_napi_set_number(env, obj, "allocRecords", (double)run->alloc_records));
  }
  NAPI_CHECK(
      ws_napi_set_number(env, obj, "backPressureWaits", (double)run->backpressure_waits));
  NAPI_CHECK(
      ws_napi_set_number(env, obj, "backPressureNs", (double)run->backpressure_ns));
  NAPI_CHECK(ws_napi_set_number(env, obj, "durationMs", (double)run->last_t_ns / 1e6));
  NAPI_CHECK(ws_napi_set_number(env, obj, "tornBytes", ws_log_torn_bytes(log)));
  NAPI_CHECK(ws_napi_set_number(env, obj, "version", ws_log_version(log)));
  NAPI_CHECK(ws_napi_set_number(env, obj, "lostCalls", (double)run->lost_calls));
  NAPI_CHECK(ws_napi_set_typed_copy(env, obj, "gapIndex", napi_float64_array,
                                    run->gap_index, run->n_gaps));
  NAPI_CHECK(ws_napi_set_typed_copy(env, obj, "gapIter", napi_float64_array,
                                    run->gap_iter, run->n_gaps));
  NAPI_CHECK(ws_napi_set_number(env, obj, "thinStride",
                                (double)((uint64_t)1 << run->thin_shift)));
  if (run->thinnable) {
    NAPI_CHECK(ws_napi_set_typed_copy(env, obj, "opCalls", napi_float64_array,
                                      run->op_calls, run->n_op_totals));
    NAPI_CHECK(ws_napi_set_typed_copy(env, obj, "opThrew", napi_float64_array,
                                      run->op_threw, run->n_op_totals));
    NAPI_CHECK(ws_napi_set_number(env, obj, "growthEvents", (double)run->growth_events));
  }
  if (run->thin_shift > 0)
    NAPI_CHECK(ws_napi_set_number(env, obj, "thinnedFrom", (double)run->thin_from));
  NAPI_CHECK(ws_binding_grow_failures(env, obj, &run->grow_failures));
  NAPI_CHECK(
      ws_napi_set_number(env, obj, "firstIteration", (double)run->first_iteration));
  NAPI_CHECK(damage_array(env, log, &v));
  NAPI_CHECK(napi_set_named_property(env, obj, "damage", v));
  NAPI_CHECK(ws_napi_set_bool(env, obj, "complete", run->complete != 0));
  *out = obj;
  return napi_ok;
}

/* The data and byte length of a Uint8Array; 0 with an error thrown when v
 * is none. */
static int bytes_of(napi_env env, napi_value v, uint8_t **data, size_t *len) {
  void *p = NULL;
  if (!ws_napi_typed_arg(env, v, napi_uint8_array, &p, len, "expected a Uint8Array"))
    return 0;
  *data = p;
  return 1;
}

/* Where readLog reads: a file's path, or a log's bytes in memory (a
 * Uint8Array, read in place during the call). */
typedef struct {
  char path[4096];
  const void *data; /* NULL: path */
  size_t len;
} log_source;

/* Fills src from v (a string or a Uint8Array). Returns 0, or WS_EINVAL when
 * v is neither (or the path is too long). JS thread. */
static int source_of(napi_env env, napi_value v, log_source *src) {
  napi_valuetype t;
  size_t len = 0;
  if (napi_typeof(env, v, &t) != napi_ok)
    return WS_EINVAL;
  src->data = NULL;
  if (t == napi_string)
    return napi_get_value_string_utf8(env, v, src->path, sizeof src->path, &len) ==
                       napi_ok &&
                   len + 1 < sizeof src->path
               ? 0
               : WS_EINVAL;
  uint8_t *data;
  if (!bytes_of(env, v, &data, &src->len))
    return WS_EINVAL;
  src->data = data;
  return 0;
}

/* Opens the log src names (ws_log_open or ws_log_open_memory). */
static int open_source(const log_source *src, ws_log **log) {
  return src->data == NULL ? ws_log_open(src->path, log)
                           : ws_log_open_memory(src->data, src->len, log);
}

/* One readLog or readLogAsync call: the log, the run it decodes into and
 * the ArrayBuffers of its per-call arrays (elapsed, op, flags, then the
 * counting pass's five; refs keep them alive while an async decode runs). */
typedef struct {
  napi_async_work work;
  napi_deferred deferred;
  ws_log *log;
  ws_run run;
  int with_allocs;
  int rc; /* the decode's: 0 or a WS_E* code */
  napi_value buffers[8];
  napi_ref refs[8];
} read_job;

/* Opens the log args[0] names (readLog's arguments: args, argc) into j and
 * allocates its per-call arrays (j->buffers). Returns 1, or 0 with an
 * error thrown (the log closed). JS thread. */
static int read_setup(napi_env env, napi_value *args, size_t argc, const char *usage,
                      read_job *j) {
  log_source src;
  bool with_allocs = false;
  double thin_seed = -1;
  if (argc < 1 || source_of(env, args[0], &src) != 0) {
    bool pending = false;
    napi_is_exception_pending(env, &pending);
    if (!pending)
      ws_binding_throw_code(env, WS_EINVAL, usage);
    return 0;
  }
  if (argc > 1)
    napi_get_value_bool(env, args[1], &with_allocs);
  if (argc > 2 && napi_get_value_double(env, args[2], &thin_seed) != napi_ok)
    thin_seed = -1;
  j->with_allocs = with_allocs;
  ws_run *run = &j->run;
  if (thin_seed >= 0) {
    /* The decode reads the strides the writer used as it goes. */
    run->thinnable = 1;
    run->thin_seed = (uint64_t)thin_seed;
  }
  int err = open_source(&src, &j->log);
  if (err != 0) {
    ws_binding_throw_code(env, err, NULL);
    return 0;
  }
  size_t cap = (size_t)ws_log_record_count(j->log);
  run->cap_calls = cap;
  napi_value *b = j->buffers;
  napi_status st =
      new_buffer(env, sizeof *run->elapsed, cap, 0, (void **)&run->elapsed, &b[0]);
  if (st == napi_ok)
    st = new_buffer(env, sizeof *run->op, cap, 0, (void **)&run->op, &b[1]);
  if (st == napi_ok)
    st = new_buffer(env, sizeof *run->flags, cap, 0, (void **)&run->flags, &b[2]);
  if (with_allocs) {
    if (st == napi_ok)
      st = new_buffer(env, sizeof *run->allocs, cap, 1, (void **)&run->allocs, &b[3]);
    if (st == napi_ok)
      st = new_buffer(env, sizeof *run->frees, cap, 1, (void **)&run->frees, &b[4]);
    if (st == napi_ok)
      st = new_buffer(env, sizeof *run->alloc_bytes, cap, 1, (void **)&run->alloc_bytes,
                      &b[5]);
    if (st == napi_ok)
      st = new_buffer(env, sizeof *run->live, cap, 1, (void **)&run->live, &b[6]);
    if (st == napi_ok)
      st = new_buffer(env, sizeof *run->peak, cap, 1, (void **)&run->peak, &b[7]);
  }
  if (st != napi_ok) {
    ws_binding_throw_last(env);
    ws_log_close(j->log);
    return 0;
  }
  return 1;
}

/* The result of j's decode (build_result), or NULL with its error thrown;
 * frees the run's arrays and closes the log. JS thread. */
static napi_value read_finish(napi_env env, read_job *j) {
  napi_value result = NULL;
  if (j->rc != 0)
    ws_binding_throw_code(env, j->rc, NULL);
  else if (build_result(env, j->log, &j->run, j->buffers, &result) != napi_ok) {
    ws_binding_throw_last(env);
    result = NULL;
  }
  ws_run_free(&j->run);
  ws_log_close(j->log);
  return result;
}

/* readLog(source, withAllocs, thinSeed) reads the log at source (a path, or
 * a Uint8Array holding the bytes a log file would: the same reader reads
 * both) and returns { header (JSON text), calls, elapsed, op, flags, memIter,
 * memBytes, metrics: [{ id, iter, tMs, value }], backPressureWaits,
 * backPressureNs, durationMs, tornBytes, complete, growFailures
 * (ws_binding_grow_failures), firstIteration (the run's first: 0 unless its
 * counter started past 0) } and, when withAllocs is true, the counting
 * pass's per-call allocs, frees, allocBytes, live, peak and allocRecords. A log read
 * with a thinSeed (a capped log) also has every call counted per op as the decode
 * went: opCalls, opThrew (Float64Array by op) and growthEvents; a thinned one
 * thinnedFrom (thinStride > 1). Throws an Error
 * whose code is WS_EIO (cannot read), WS_EFORMAT (not a log, or corrupt), WS_EINVAL
 * (source is neither) or WS_ENOMEM. JS thread. */
static napi_value read_log(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value args[3];
  read_job j;
  memset(&j, 0, sizeof j);
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, args, NULL, NULL));
  if (!read_setup(env, args, argc, "readLog(path | bytes, withAllocs, thinSeed)", &j))
    return NULL;
  j.rc = ws_run_decode(j.log, &j.run);
  return read_finish(env, &j);
}

/* Decodes a job's log (ws_run_decode). A libuv thread: no napi_env use. */
static void read_execute(napi_env env, void *data) {
  (void)env;
  read_job *j = data;
  j->rc = ws_run_decode(j->log, &j->run);
}

/* Settles a job's promise with read_finish's result or error, releases its
 * references and frees it. JS thread. */
static void read_complete(napi_env env, napi_status status, void *data) {
  read_job *j = data;
  napi_value value = NULL;
  int kept = 1;
  for (int i = 0; i < 8 && j->refs[i] != NULL; i++)
    kept &= napi_get_reference_value(env, j->refs[i], &j->buffers[i]) == napi_ok;
  if (status != napi_ok || !kept)
    j->rc = j->rc != 0 ? j->rc : WS_EINVAL;
  value = read_finish(env, j);
  if (value != NULL)
    napi_resolve_deferred(env, j->deferred, value);
  else {
    napi_get_and_clear_last_exception(env, &value);
    napi_reject_deferred(env, j->deferred, value);
  }
  for (int i = 0; i < 8 && j->refs[i] != NULL; i++)
    napi_delete_reference(env, j->refs[i]);
  napi_delete_async_work(env, j->work);
  free(j);
}

/* readLogAsync(path, withAllocs, thinSeed) -> a Promise of what readLog
 * returns for the log file at path (a string only), decoded on a libuv
 * thread: `report` imports its modules meanwhile. Errors before the
 * decode (not a log, bad arguments) throw as readLog's; the decode's
 * reject the promise. JS thread. */
static napi_value read_log_async(napi_env env, napi_callback_info info) {
  static const char usage[] = "readLogAsync(path, withAllocs, thinSeed)";
  size_t argc = 3;
  napi_value args[3], promise, name;
  napi_valuetype t;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, args, NULL, NULL));
  if (argc < 1 || napi_typeof(env, args[0], &t) != napi_ok || t != napi_string) {
    ws_binding_throw_code(env, WS_EINVAL, usage);
    return NULL;
  }
  read_job *j = calloc(1, sizeof *j);
  if (j == NULL) {
    ws_binding_throw_code(env, WS_ENOMEM, NULL);
    return NULL;
  }
  if (!read_setup(env, args, argc, usage, j)) {
    free(j);
    return NULL;
  }
  int n = j->with_allocs ? 8 : 3;
  napi_status st = napi_ok;
  for (int i = 0; i < n && st == napi_ok; i++)
    st = napi_create_reference(env, j->buffers[i], 1, &j->refs[i]);
  if (st != napi_ok ||
      napi_create_string_utf8(env, "readLogAsync", NAPI_AUTO_LENGTH, &name) != napi_ok ||
      napi_create_promise(env, &j->deferred, &promise) != napi_ok ||
      napi_create_async_work(env, NULL, name, read_execute, read_complete, j, &j->work) !=
          napi_ok ||
      napi_queue_async_work(env, j->work) != napi_ok) {
    /* Node-API failing here: the job (and what it references) is leaked, not freed twice.
     */
    ws_binding_throw_last(env);
    return NULL;
  }
  return promise;
}

/* Marks the objects logThinCreate returns: no other wrapped object is taken for a filter.
 */
static const napi_type_tag thin_tag = {0x9b2e4f61c7a3d058ULL, 0x3f6d1a8e5c2b7094ULL};

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
  double index = 0, seq = 0;
  if (argc < 4 ||
      ws_napi_typed_array(env, args[0], napi_uint8_array, &out, &out_len) != napi_ok ||
      ws_napi_typed_array(env, args[1], napi_uint8_array, &records, &rec_len) !=
          napi_ok ||
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

WS_NAPI_FINALIZER(finalize_thin, ws_thin_free)

/* logThinCreate(seed, nOps) returns a thinning filter (ws_thin) owned by
 * the returned object, freed when it is collected. JS thread (the log
 * writer). */
static napi_value log_thin_create(napi_env env, napi_callback_info info) {
  static const char usage[] = "logThinCreate(seed, nOps)";
  WS_NAPI_ARGV(2, 2, usage);
  double seed = 0, n_ops = 0;
  if (napi_get_value_double(env, argv[0], &seed) != napi_ok ||
      napi_get_value_double(env, argv[1], &n_ops) != napi_ok || !(seed >= 0) ||
      !(n_ops >= 0 && n_ops <= 65536)) {
    ws_binding_throw_code(env, WS_EINVAL, usage);
    return NULL;
  }
  ws_thin *t = NULL;
  if (!ws_napi_rc_ok(env, ws_thin_create((uint64_t)seed, (uint32_t)n_ops, &t)))
    return NULL;
  return ws_napi_new_handle(env, t, finalize_thin, &thin_tag);
}

/* The first lines of a binding on a thinning filter: the filter t of the
 * call's first argument and the n after it in argv (WS_NAPI_HANDLE_ARGS). */
#define THIN_ARGS(n)                                                                     \
  WS_NAPI_HANDLE_ARGS(ws_thin, t, &thin_tag, n, "not a log thinning filter")

/* logThin(filter, records, out) filters whole raw records (a Uint8Array,
 * possibly over the ring's SharedArrayBuffer) into out (a Uint8Array of at
 * least logThinRoom(filter, n) bytes for its n records) and returns the records
 * written (ws_thin_filter). */
static napi_value log_thin(napi_env env, napi_callback_info info) {
  THIN_ARGS(2);
  napi_value result;
  uint8_t *in, *out;
  size_t in_len, out_len;
  if (!bytes_of(env, argv[0], &in, &in_len) || !bytes_of(env, argv[1], &out, &out_len))
    return NULL;
  size_t n = in_len / WS_RECORD_SIZE;
  if (out_len / WS_RECORD_SIZE < ws_thin_out_records(t, n)) {
    ws_binding_throw_code(env, WS_EINVAL, "logThin: out is too small");
    return NULL;
  }
  NAPI_CALL(env, napi_create_double(env, (double)ws_thin_filter(t, in, n, out), &result));
  return result;
}

/* logThinRoom(filter, n) returns the bytes logThin needs in out for n
 * records. */
static napi_value log_thin_room(napi_env env, napi_callback_info info) {
  THIN_ARGS(1);
  napi_value result;
  double n = 0;
  if (napi_get_value_double(env, argv[0], &n) != napi_ok || !(n >= 0 && n <= 1e12)) {
    ws_binding_throw_code(env, WS_EINVAL, "logThinRoom(filter, n)");
    return NULL;
  }
  size_t room = ws_thin_out_records(t, (size_t)n) * WS_RECORD_SIZE;
  NAPI_CALL(env, napi_create_double(env, (double)room, &result));
  return result;
}

/* logThinShift(filter, shift, from) raises the stride to 2^shift from
 * iteration from (ws_thin_set_shift); returns the shift now in effect. */
static napi_value log_thin_shift(napi_env env, napi_callback_info info) {
  THIN_ARGS(2);
  napi_value result;
  double shift = 0, from = 0;
  if (napi_get_value_double(env, argv[0], &shift) != napi_ok ||
      napi_get_value_double(env, argv[1], &from) != napi_ok || !(shift >= 0) ||
      !(from >= 0)) {
    ws_binding_throw_code(env, WS_EINVAL, "logThinShift(filter, shift, from)");
    return NULL;
  }
  ws_thin_set_shift(t, shift > 31 ? 31 : (unsigned)shift,
                    from >= 1.8e19 ? UINT64_MAX : (uint64_t)from);
  NAPI_CALL(env, napi_create_double(env, ws_thin_shift(t), &result));
  return result;
}

/* logThinFinish(filter, out) writes the summaries still open into out (a
 * Uint8Array of at least logThinRoom(filter, 0) bytes) and returns the
 * records written. */
static napi_value log_thin_finish(napi_env env, napi_callback_info info) {
  THIN_ARGS(1);
  napi_value result;
  uint8_t *out;
  size_t len;
  if (!bytes_of(env, argv[0], &out, &len))
    return NULL;
  if (len / WS_RECORD_SIZE < ws_thin_out_records(t, 0)) {
    ws_binding_throw_code(env, WS_EINVAL, "logThinFinish: out is too small");
    return NULL;
  }
  NAPI_CALL(env, napi_create_double(env, (double)ws_thin_finish(t, out), &result));
  return result;
}

/* recordIterations(records, near) tracks the full iterations of whole raw
 * records (a Uint8Array, possibly over the ring's SharedArrayBuffer) read
 * after a record of full iteration near (0 before the first;
 * ws_iteration_scan) and returns { firstCall, lastCall, last }: the full
 * iterations of the first and last call record (-1: none) and of the last
 * record, the next call's near. */
static napi_value record_iterations(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value args[2], result;
  double near = 0;
  uint8_t *bytes;
  size_t len;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, args, NULL, NULL));
  if (argc < 2 || !bytes_of(env, args[0], &bytes, &len))
    return NULL;
  if (napi_get_value_double(env, args[1], &near) != napi_ok || !(near >= 0)) {
    ws_binding_throw_code(env, WS_EINVAL, "recordIterations(records, near)");
    return NULL;
  }
  ws_iteration_track tr = {near >= 1.8e19 ? UINT64_MAX : (uint64_t)near};
  int64_t first_call, last_call;
  ws_iteration_scan(&tr, bytes, len / WS_RECORD_SIZE, &first_call, &last_call);
  NAPI_CALL(env, napi_create_object(env, &result));
  napi_status st = ws_napi_set_number(env, result, "firstCall", (double)first_call);
  if (st == napi_ok)
    st = ws_napi_set_number(env, result, "lastCall", (double)last_call);
  if (st == napi_ok)
    st = ws_napi_set_number(env, result, "last", (double)tr.last);
  if (st != napi_ok) {
    ws_binding_throw_last(env);
    return NULL;
  }
  return result;
}

napi_status ws_binding_log_init(napi_env env, napi_value exports) {
  NAPI_CHECK(ws_binding_export(env, exports, "recordIterations", record_iterations));
  NAPI_CHECK(ws_binding_export(env, exports, "readLog", read_log));
  NAPI_CHECK(ws_binding_export(env, exports, "readLogAsync", read_log_async));
  NAPI_CHECK(ws_binding_export(env, exports, "logBlockHeader", log_block_header));
  NAPI_CHECK(ws_binding_export(env, exports, "logThinCreate", log_thin_create));
  NAPI_CHECK(ws_binding_export(env, exports, "logThin", log_thin));
  NAPI_CHECK(ws_binding_export(env, exports, "logThinRoom", log_thin_room));
  NAPI_CHECK(ws_binding_export(env, exports, "logThinShift", log_thin_shift));
  return ws_binding_export(env, exports, "logThinFinish", log_thin_finish);
}
