/* The runner's JS API, on the worker's JS thread: converts createRunner's
 * options into a loop (addon/core/ws_loop.c) over the V8 engine
 * (v8_engine.c), or over the native engine (ws_native.h) for a shared
 * library, and forwards each call; keeps the heap census of each
 * memory it was asked about. The runner handle is a type-tagged
 * object; the loop, the engine and the references are freed when it is
 * collected. */
#include <stdlib.h>
#include <string.h>

#include "binding.h"
#include "v8_engine.h"
#include "ws.h"

typedef struct {
  napi_ref ring_ref;     /* keeps the SharedArrayBuffer alive */
  napi_ref counters_ref; /* counting pass: keeps the counters alive */
  napi_ref outputs_ref;  /* native: keeps the checked outputs alive */
  v8_engine *engine;     /* NULL for a native library */
  ws_native *native;     /* NULL for a wasm module or a scenario */
  ws_loop *loop;
  ws_census *censuses;      /* per memory index, created by the first census */
  ws_blocks_mark *marks;    /* per memory index, beside censuses (blocksMark) */
  uint64_t census_spent_ns; /* the time every memory's recorded censuses took */
  uint32_t n_censuses;
} runner;

static const napi_type_tag runner_tag = {0x7773736f616b7275ULL, 0x6e6e657230303031ULL};

static napi_status get_number(napi_env env, napi_value obj, const char *key,
                              double *out) {
  napi_value v;
  NAPI_CHECK(napi_get_named_property(env, obj, key, &v));
  return napi_get_value_double(env, v, out);
}

/* Converts a JS number to an int64 without undefined behaviour. */
static int64_t to_int64(double x) {
  if (!(x > -9.2e18))
    return x != x ? 0 : INT64_MIN;
  if (x > 9.2e18)
    return INT64_MAX;
  return (int64_t)x;
}

static void finalize_runner(napi_env env, void *data, void *hint) {
  (void)hint;
  runner *r = data;
  ws_loop_destroy(r->loop);
  v8_engine_destroy(r->engine);
  ws_native_close(r->native);
  free(r->censuses);
  for (uint32_t k = 0; k < r->n_censuses; k++)
    ws_blocks_mark_free(&r->marks[k]);
  free(r->marks);
  if (r->ring_ref != NULL)
    napi_delete_reference(env, r->ring_ref);
  if (r->counters_ref != NULL)
    napi_delete_reference(env, r->counters_ref);
  if (r->outputs_ref != NULL)
    napi_delete_reference(env, r->outputs_ref);
  free(r);
}

/* Reads { weight, args?: [{ kind, type, lo, hi }] } into spec. */
static napi_status read_spec(napi_env env, napi_value desc, ws_op_spec *spec) {
  napi_value args;
  double weight;
  bool is_array = false;
  NAPI_CHECK(get_number(env, desc, "weight", &weight));
  spec->weight = weight >= 1 ? (uint64_t)weight : 1;
  NAPI_CHECK(napi_get_named_property(env, desc, "args", &args));
  NAPI_CHECK(napi_is_array(env, args, &is_array));
  if (!is_array)
    return napi_ok;
  NAPI_CHECK(napi_get_array_length(env, args, &spec->n_args));
  if (spec->n_args > WS_MAX_PARAMS)
    return napi_invalid_arg;
  for (uint32_t i = 0; i < spec->n_args; i++) {
    napi_value a;
    double kind, type, lo, hi;
    NAPI_CHECK(napi_get_element(env, args, i, &a));
    NAPI_CHECK(get_number(env, a, "kind", &kind));
    NAPI_CHECK(get_number(env, a, "type", &type));
    NAPI_CHECK(get_number(env, a, "lo", &lo));
    NAPI_CHECK(get_number(env, a, "hi", &hi));
    spec->args[i] = (ws_arg_spec){kind >= 0 && kind < 256 ? (uint8_t)kind : 255,
                                  type >= 0 && type < 256 ? (uint8_t)type : 255,
                                  to_int64(lo), to_int64(hi)};
  }
  return napi_ok;
}

/* Reads the ring, seed, iterations, duration, buffer memory, counters and
 * the optional firstIteration (a test hook: where the counter starts) into
 * config and ring. An iterations of Infinity (a --duration run without -n)
 * sets no limit. */
static napi_status read_config(napi_env env, napi_value opts, runner *r,
                               ws_loop_config *config, ws_ring *ring) {
  napi_value ring_view;
  size_t length = 0;
  void *data = NULL;
  NAPI_CHECK(napi_get_named_property(env, opts, "ring", &ring_view));
  napi_status st = ws_napi_typed_array(env, ring_view, napi_int32_array, &data, &length);
  NAPI_CHECK(napi_create_reference(env, ring_view, 1, &r->ring_ref));
  if (st != napi_ok || ws_ring_attach(ring, data, length * 4) != 0) {
    ws_binding_throw_code(env, WS_EINVAL,
                          "ring must be an Int32Array over a ring region");
    return napi_pending_exception;
  }
  double seed, iterations, duration_ns, buffer_memory;
  NAPI_CHECK(get_number(env, opts, "seed", &seed));
  NAPI_CHECK(get_number(env, opts, "iterations", &iterations));
  NAPI_CHECK(get_number(env, opts, "durationNs", &duration_ns));
  NAPI_CHECK(get_number(env, opts, "bufferMemory", &buffer_memory));
  config->seed = seed >= 0 && seed < 1.8e19 ? (uint64_t)seed : 0;
  config->iterations = iterations >= 1.8e19 ? UINT64_MAX
                       : iterations >= 0    ? (uint64_t)iterations
                                            : 0;
  napi_value first;
  napi_valuetype first_kind;
  double first_iteration = 0;
  NAPI_CHECK(napi_get_named_property(env, opts, "firstIteration", &first));
  NAPI_CHECK(napi_typeof(env, first, &first_kind));
  if (first_kind == napi_number)
    NAPI_CHECK(napi_get_value_double(env, first, &first_iteration));
  config->first_iteration =
      first_iteration >= 0 && first_iteration < 9.0e15 ? (uint64_t)first_iteration : 0;
  config->duration_ns =
      duration_ns > 0 && duration_ns < 1.8e19 ? (uint64_t)duration_ns : 0;
  config->buffer_memory =
      buffer_memory >= 0 && buffer_memory < 4294967296.0 ? (uint32_t)buffer_memory : 0;
  napi_value counters;
  NAPI_CHECK(ws_napi_get_optional(env, opts, "counters", &counters));
  if (counters == NULL)
    return napi_ok;
  if (ws_napi_typed_array(env, counters, napi_float64_array, &data, &length) != napi_ok ||
      length < WS_COUNT_FIELDS) {
    ws_binding_throw_code(env, WS_EINVAL,
                          "counters must be a Float64Array of the counters");
    return napi_pending_exception;
  }
  NAPI_CHECK(napi_create_reference(env, counters, 1, &r->counters_ref));
  config->counters = data;
  return napi_ok;
}

/* Ends the V8 engine's batch (nothing for a native library). */
static void end_batch(runner *r) {
  if (r->engine != NULL)
    v8_engine_end_batch(r->engine);
}

/* Reads opts.ops' specs into a new array (*out, freed by the caller) of
 * *n_ops specs. */
static napi_status read_specs(napi_env env, napi_value opts, ws_op_spec **out,
                              uint32_t *n_ops) {
  napi_value ops;
  NAPI_CHECK(napi_get_named_property(env, opts, "ops", &ops));
  NAPI_CHECK(napi_get_array_length(env, ops, n_ops));
  *out = calloc(*n_ops ? *n_ops : 1, sizeof **out);
  if (*out == NULL)
    return napi_generic_failure;
  for (uint32_t i = 0; i < *n_ops; i++) {
    napi_value desc;
    NAPI_CHECK(napi_get_element(env, ops, i, &desc));
    NAPI_CHECK(read_spec(env, desc, &(*out)[i]));
  }
  return napi_ok;
}

/* Creates runner r's engine (the native one when opts.native is an object)
 * and stores it in *engine. */
static napi_status create_engine(napi_env env, napi_value opts, runner *r,
                                 const ws_op_spec *specs, uint32_t n_ops,
                                 ws_engine **engine) {
  napi_value native;
  napi_valuetype kind;
  NAPI_CHECK(napi_get_named_property(env, opts, "native", &native));
  NAPI_CHECK(napi_typeof(env, native, &kind));
  if (kind == napi_object) {
    NAPI_CHECK(
        ws_binding_native_open(env, native, specs, n_ops, &r->native, &r->outputs_ref));
    *engine = ws_native_engine(r->native);
    return napi_ok;
  }
  NAPI_CHECK(v8_engine_create(env, opts, &r->engine));
  *engine = v8_engine_base(r->engine);
  return napi_ok;
}

/* Builds the loop of runner r from opts. */
static napi_status build(napi_env env, napi_value opts, runner *r) {
  ws_loop_config config = {0};
  ws_ring ring;
  ws_op_spec *specs = NULL;
  uint32_t n_ops = 0;
  ws_engine *engine = NULL;
  NAPI_CHECK(read_config(env, opts, r, &config, &ring));
  napi_status status = read_specs(env, opts, &specs, &n_ops);
  if (status == napi_ok)
    status = create_engine(env, opts, r, specs, n_ops, &engine);
  int rc = 0;
  if (status == napi_ok) {
    config.memories = r->engine != NULL ? v8_engine_memories(r->engine) : 0;
    if (r->engine == NULL || v8_engine_begin_batch(r->engine) == napi_ok)
      rc = ws_loop_create(&config, specs, n_ops, &ring, engine, &r->loop);
    end_batch(r);
  }
  free(specs);
  NAPI_CHECK(status);
  if (rc != 0) {
    ws_binding_throw_code(env, rc,
                          rc == WS_EINVAL ? "invalid ops or argument specs" : NULL);
    return napi_pending_exception;
  }
  return napi_ok;
}

/* createRunner({ ring, seed, iterations (Infinity: no limit), durationNs, bufferMemory,
 * counters?, scenario, state, ctx, ops: [{ fn, recv?, weight, args? }], slots?, alloc?,
 *   free?, memories: [{ memory, shared }] }) returns the runner handle. For a
 *   raw module, ops[k].fn is the trampoline's function and args[i] is
 *   { kind, type, lo, hi } (protocol.js ARG_KIND, VALUE_TYPE); counters
 *   (counting pass) is a Float64Array of the allocation counters. With
 *   native: { path, names, results, outputs } the ops are the functions
 *   names[k] of the shared library at path (results[k]: a VALUE_TYPE, or -1;
 *   outputs: the checked outputs' ArrayBuffer, or null), called by the
 *   native engine; fn, scenario, slots, alloc, free and memories are then not
 *   read. Throws WS_EINVAL for invalid options, WS_ELIBRARY (dlopen's
 *   message) or WS_ESYMBOL (the missing name) for a library that cannot
 *   serve the ops. */
static napi_value create_runner(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value opts, handle;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, &opts, NULL, NULL));
  runner *r = calloc(1, sizeof *r);
  if (r == NULL) {
    ws_binding_throw_code(env, WS_ENOMEM, NULL);
    return NULL;
  }
  handle = ws_napi_new_handle(env, r, finalize_runner, &runner_tag);
  if (handle == NULL)
    return NULL;
  NAPI_CALL(env, build(env, opts, r)); /* on failure, the handle's finalizer frees r */
  return handle;
}

/* The first lines of a binding on a runner: the runner r of the call's
 * first argument and the n after it in argv (WS_NAPI_HANDLE_ARGS). A runner
 * JS holds has its loop: createRunner returns none whose build failed. */
#define RUNNER_USAGE "expected a runner and its arguments"
#define RUNNER_ARGS(n) WS_NAPI_HANDLE_ARGS(runner, r, &runner_tag, n, RUNNER_USAGE)

/* Returns a number, or throws for a negative WS_E* code (WS_EENGINE: the
 * engine's exception is already pending). Ends the engine's batch first. */
static napi_value result_of(napi_env env, runner *r, int rc) {
  end_batch(r);
  if (rc == WS_EENGINE) {
    ws_binding_throw_last(env);
    return NULL;
  }
  if (rc < 0) {
    ws_binding_throw_code(env, rc, NULL);
    return NULL;
  }
  napi_value v;
  NAPI_CALL(env, napi_create_int32(env, rc, &v));
  return v;
}

/* runBatch(runner, maxCalls, maxNs) runs calls and returns the WS_STATUS_*
 * they ended on (ws_loop_run). Throws WS_EALLOC when the module's allocator
 * gave no usable block for a buffer. */
static napi_value run_batch(napi_env env, napi_callback_info info) {
  RUNNER_ARGS(2);
  uint32_t max_calls;
  double max_ns;
  NAPI_CALL(env, napi_get_value_uint32(env, argv[0], &max_calls));
  NAPI_CALL(env, napi_get_value_double(env, argv[1], &max_ns));
  if (r->engine != NULL && v8_engine_begin_batch(r->engine) != napi_ok)
    return result_of(env, r, WS_EENGINE);
  uint64_t ns = max_ns > 0 && max_ns < 1.8e19 ? (uint64_t)max_ns : 0;
  return result_of(env, r, ws_loop_run(r->loop, max_calls, ns));
}

/* Returns get(the runner's V8 engine, out), or undefined for a native
 * library: the body of pending and error below. */
static napi_value engine_value(napi_env env, napi_callback_info info,
                               napi_status (*get)(v8_engine *engine, napi_value *out)) {
  RUNNER_ARGS(0);
  napi_value v;
  if (r->engine == NULL)
    NAPI_CALL(env, napi_get_undefined(env, &v));
  else
    NAPI_CALL(env, get(r->engine, &v));
  return v;
}

/* pending(runner) returns the promise of the async call in flight, or
 * undefined. */
static napi_value pending(napi_env env, napi_callback_info info) {
  return engine_value(env, info, v8_engine_pending);
}

/* settle(runner, threw, error) ends the async call (ws_loop_settle); when
 * threw is true, error becomes the run's error. */
static napi_value settle(napi_env env, napi_callback_info info) {
  RUNNER_ARGS(2);
  bool threw = false;
  NAPI_CALL(env, napi_get_value_bool(env, argv[0], &threw));
  if (r->engine != NULL)
    NAPI_CALL(env, v8_engine_settled(r->engine, threw ? argv[1] : NULL));
  int rc = ws_loop_settle(r->loop, threw);
  return result_of(env, r, rc);
}

/* error(runner) returns what the last failing call threw, or undefined. */
static napi_value error(napi_env env, napi_callback_info info) {
  return engine_value(env, info, v8_engine_error);
}

/* Returns get(the runner's loop) as a JS number: the body of the counters
 * below. */
static napi_value loop_count(napi_env env, napi_callback_info info,
                             uint32_t (*get)(const ws_loop *)) {
  RUNNER_ARGS(0);
  napi_value v;
  NAPI_CALL(env, napi_create_uint32(env, get(r->loop), &v));
  return v;
}

/* completed(runner) returns the iteration counter (ws_loop_completed): the
 * calls completed, past the first iteration; exact below 2^53. */
static napi_value completed(napi_env env, napi_callback_info info) {
  RUNNER_ARGS(0);
  napi_value v;
  NAPI_CALL(env, napi_create_double(env, (double)ws_loop_completed(r->loop), &v));
  return v;
}

/* failedAlloc(runner) returns the bytes of the buffer the module's allocator
 * gave no block for (after WS_EALLOC), or 0. */
static napi_value failed_alloc(napi_env env, napi_callback_info info) {
  return loop_count(env, info, ws_loop_failed_alloc);
}

/* metric(runner, id, value) records one slow-cadence metric. */
static napi_value metric(napi_env env, napi_callback_info info) {
  RUNNER_ARGS(2);
  uint32_t id;
  double value;
  NAPI_CALL(env, napi_get_value_uint32(env, argv[0], &id));
  NAPI_CALL(env, napi_get_value_double(env, argv[1], &value));
  return result_of(env, r, ws_loop_metric(r->loop, (uint16_t)id, value));
}

/* growFailed(runner, askedBytes, memoryBytes, maximumBytes) records a failed
 * memory.grow (ws_loop_grow_failed); called from inside a call, it writes
 * nothing to the ring until the call's record is written. */
static napi_value grow_failed(napi_env env, napi_callback_info info) {
  RUNNER_ARGS(3);
  double asked, bytes, maximum;
  NAPI_CALL(env, napi_get_value_double(env, argv[0], &asked));
  NAPI_CALL(env, napi_get_value_double(env, argv[1], &bytes));
  NAPI_CALL(env, napi_get_value_double(env, argv[2], &maximum));
  ws_loop_grow_failed(r->loop, asked, bytes, maximum);
  return NULL;
}

/* sampleMemories(runner) records the RSS and every memory's size. */
static napi_value sample_memories(napi_env env, napi_callback_info info) {
  RUNNER_ARGS(0);
  return result_of(env, r, ws_loop_sample_memories(r->loop));
}

/* addMemory(runner, memory, shared) tracks one more memory from now on and
 * returns its index. */
static napi_value add_memory(napi_env env, napi_callback_info info) {
  RUNNER_ARGS(2);
  bool shared = false;
  if (r->engine == NULL) {
    ws_binding_throw_code(env, WS_EINVAL, "a native library has no memory to track");
    return NULL;
  }
  NAPI_CALL(env, napi_get_value_bool(env, argv[1], &shared));
  NAPI_CALL(env, v8_engine_add_memory(r->engine, argv[0], shared));
  uint32_t index = 0;
  int rc = ws_loop_track_memory(r->loop, &index);
  return result_of(env, r, rc < 0 ? rc : (int)index);
}

/* The census of memory k (and its mark, empty), created on first use; NULL
 * when out of memory. */
static ws_census *census_of(runner *r, uint32_t k) {
  if (k >= r->n_censuses) {
    ws_blocks_mark *marks = realloc(r->marks, (k + 1) * sizeof *marks);
    if (marks == NULL)
      return NULL;
    r->marks = marks;
    ws_census *grown = realloc(r->censuses, (k + 1) * sizeof *grown);
    if (grown == NULL)
      return NULL;
    for (uint32_t i = r->n_censuses; i <= k; i++) {
      ws_census_init(&grown[i], NULL);
      memset(&marks[i], 0, sizeof marks[i]);
    }
    r->censuses = grown;
    r->n_censuses = k + 1;
  }
  r->censuses[k].run_spent_ns = &r->census_spent_ns;
  /* A shared memory's other threads may allocate while the census walks:
   * each walk is confirmed by another (ws_census_take). */
  r->censuses[k].hints.concurrent = r->engine != NULL && v8_engine_shared(r->engine, k);
  return &r->censuses[k];
}

/* censusScanLimit(runner, k, bytes) tells memory k's census how far its
 * allocator's state may lie: bytes, the initial size the module declares for
 * that memory (its static data and stack lie within it, whatever size the
 * loader created the memory with), when that passes WS_CENSUS_SCAN_DEFAULT.
 * A build that puts a large stack first (napi-rs's wasm32-wasi builds: 64 MB)
 * has its static data, and the state, above the default's reach. */
static napi_value census_scan_limit(napi_env env, napi_callback_info info) {
  RUNNER_ARGS(2);
  uint32_t k;
  double bytes;
  NAPI_CALL(env, napi_get_value_uint32(env, argv[0], &k));
  NAPI_CALL(env, napi_get_value_double(env, argv[1], &bytes));
  ws_census *c = census_of(r, k);
  if (c == NULL) {
    ws_binding_throw_code(env, WS_ENOMEM, NULL);
    return NULL;
  }
  if (bytes > WS_CENSUS_SCAN_DEFAULT && bytes < 1.8e19 &&
      bytes > (double)c->hints.scan_limit)
    c->hints.scan_limit = (uint64_t)bytes;
  return NULL;
}

/* The JS name of a census kind (WS_CENSUS_KINDS). */
static const char *census_kind_name(int kind) {
  switch (kind) {
#define WS_CENSUS_NAME(name, value, js, text)                                            \
  case value:                                                                            \
    return js;
    WS_CENSUS_KINDS(WS_CENSUS_NAME)
#undef WS_CENSUS_NAME
  default:
    return "none";
  }
}

/* Sets what a search that recognised nothing tried on out: tried, [{
 * family, candidates }] for every family, and nearestMiss, { family, at,
 * chunks } or null. */
static napi_status census_tried(napi_env env, const ws_census_result *r, napi_value out) {
  napi_value tried, miss;
  NAPI_CHECK(napi_create_array(env, &tried));
  const char *name;
  for (uint32_t f = 0; (name = ws_census_family_name(f)) != NULL; f++) {
    napi_value row;
    NAPI_CHECK(napi_create_object(env, &row));
    NAPI_CHECK(ws_napi_set_string(env, row, "family", name));
    NAPI_CHECK(ws_napi_set_number(env, row, "candidates", r->candidates[f]));
    NAPI_CHECK(napi_set_element(env, tried, f, row));
  }
  NAPI_CHECK(napi_set_named_property(env, out, "tried", tried));
  if (r->miss_family < 0) {
    NAPI_CHECK(napi_get_null(env, &miss));
  } else {
    NAPI_CHECK(napi_create_object(env, &miss));
    NAPI_CHECK(ws_napi_set_string(env, miss, "family",
                                  ws_census_family_name((uint32_t)r->miss_family)));
    NAPI_CHECK(ws_napi_set_number(env, miss, "at", (double)r->miss_at));
    NAPI_CHECK(ws_napi_set_number(env, miss, "chunks", (double)r->miss_chunks));
  }
  return napi_set_named_property(env, out, "nearestMiss", miss);
}

/* Builds census's JS description of result r (status: taken, skipped, none). */
static napi_status census_object(napi_env env, int rc, const ws_census *c,
                                 const ws_census_result *r, napi_value *out) {
  NAPI_CHECK(napi_create_object(env, out));
  const char *status = rc == WS_CENSUS_TAKEN     ? "taken"
                       : rc == WS_CENSUS_SKIPPED ? "skipped"
                                                 : "none";
  NAPI_CHECK(ws_napi_set_string(env, *out, "status", status));
  NAPI_CHECK(ws_napi_set_number(env, *out, "locates", (double)c->locates));
  if (rc == WS_CENSUS_SKIPPED)
    return napi_ok;
  NAPI_CHECK(ws_napi_set_string(env, *out, "kind", census_kind_name(r->kind)));
  NAPI_CHECK(ws_napi_set_string(env, *out, "kindText", ws_census_kind_text(r->kind)));
  NAPI_CHECK(ws_napi_set_string(env, *out, "reason", r->reason));
  NAPI_CHECK(ws_napi_set_number(env, *out, "walkNs", (double)r->elapsed_ns));
  NAPI_CHECK(ws_napi_set_number(env, *out, "located", r->located));
  if (rc != WS_CENSUS_TAKEN)
    return r->located ? census_tried(env, r, *out) : napi_ok;
  NAPI_CHECK(ws_napi_set_number(env, *out, "state", (double)r->state));
  NAPI_CHECK(ws_napi_set_number(env, *out, "liveBytes", (double)r->tally.live));
  NAPI_CHECK(ws_napi_set_number(env, *out, "liveGross", (double)r->tally.gross));
  NAPI_CHECK(ws_napi_set_number(env, *out, "inUseChunks", (double)r->tally.in_use));
  NAPI_CHECK(ws_napi_set_number(env, *out, "freeBytes", (double)r->tally.free_bytes));
  NAPI_CHECK(ws_napi_set_number(env, *out, "freeChunks", (double)r->tally.free_n));
  NAPI_CHECK(ws_napi_set_number(env, *out, "largestFree", (double)r->tally.largest));
  NAPI_CHECK(ws_napi_set_number(env, *out, "topBytes", (double)r->top_bytes));
  NAPI_CHECK(ws_napi_set_number(env, *out, "chunks", (double)r->chunks));
  NAPI_CHECK(ws_napi_set_number(env, *out, "heapBytes", (double)r->heap_bytes));
  NAPI_CHECK(ws_napi_set_number(env, *out, "segments", r->segments));
  NAPI_CHECK(ws_napi_set_number(env, *out, "fragmentation", r->fragmentation));
  napi_value classes;
  NAPI_CHECK(napi_create_array_with_length(env, WS_CENSUS_CLASSES, &classes));
  for (uint32_t k = 0; k < WS_CENSUS_CLASSES; k++) {
    napi_value v;
    NAPI_CHECK(napi_create_double(env, (double)r->tally.classes[k], &v));
    NAPI_CHECK(napi_set_element(env, classes, k, v));
  }
  return napi_set_named_property(env, *out, "classes", classes);
}

/* The census of the memory a census binding names: reads info's runner
 * (*r) and the want arguments after it into argv, the first of them a
 * tracked memory's index (*k). NULL after throwing (no runner, no such
 * memory, out of memory). */
static ws_census *census_args(napi_env env, napi_callback_info info, size_t want,
                              napi_value *argv, runner **r, uint32_t *k) {
  *r = ws_napi_handle_args(env, info, &runner_tag, NULL, want, argv, RUNNER_USAGE);
  if (*r == NULL)
    return NULL;
  if (napi_get_value_uint32(env, argv[0], k) != napi_ok || (*r)->engine == NULL ||
      *k >= v8_engine_memories((*r)->engine)) {
    ws_binding_throw_code(env, WS_EINVAL, "no tracked memory has that index");
    return NULL;
  }
  ws_census *c = census_of(*r, *k);
  if (c == NULL)
    ws_binding_throw_code(env, WS_ENOMEM, NULL);
  return c;
}

/* Ends the engine's batch after a walk of a census binding that returned
 * rc: returns 1 when rc is its result (not negative, or WS_ENOHEAP), else
 * 0 after throwing as result_of does. */
static int census_walked(napi_env env, runner *r, int rc) {
  if (rc < 0 && rc != WS_ENOHEAP) {
    result_of(env, r, rc);
    return 0;
  }
  end_batch(r);
  return 1;
}

/* census(runner, k, record) takes a census of memory k's heap
 * (ws_loop_census; the state found is kept in the runner and re-walked next
 * time), records it as metrics when record is true, and returns
 * { status: 'taken' | 'skipped' | 'none', locates, kind, kindText, reason,
 * walkNs, located, (none after a search: tried, nearestMiss,) state, liveBytes,
 * liveGross, inUseChunks, freeBytes, freeChunks, largestFree, topBytes, chunks,
 * heapBytes, segments, fragmentation, classes } (fields after located only when taken;
 * only status and locates when skipped to keep within the time budget). Call it between
 * batches. */
static napi_value census(napi_env env, napi_callback_info info) {
  napi_value argv[2], out;
  runner *r;
  uint32_t k;
  ws_census *c = census_args(env, info, 2, argv, &r, &k);
  if (c == NULL)
    return NULL;
  bool record = false;
  NAPI_CALL(env, napi_get_value_bool(env, argv[1], &record));
  ws_census_result result;
  int rc = ws_loop_census(r->loop, k, c, record, &result);
  if (!census_walked(env, r, rc))
    return NULL;
  NAPI_CALL(env, census_object(env, rc, c, &result, &out));
  return out;
}

/* blocksMark(runner, k) marks the chunks in use in memory k's heap
 * (ws_loop_blocks_mark), for blocksPick at the end; returns true, or false
 * when no allocator is recognised. Between batches. */
static napi_value blocks_mark(napi_env env, napi_callback_info info) {
  napi_value argv[1], out;
  runner *r;
  uint32_t k;
  ws_census *c = census_args(env, info, 1, argv, &r, &k);
  int rc = c != NULL ? ws_loop_blocks_mark(r->loop, k, c, &r->marks[k]) : 0;
  if (c == NULL || !census_walked(env, r, rc))
    return NULL;
  NAPI_CALL(env, napi_get_boolean(env, rc == 0, &out));
  return out;
}

/* The JS description of block b: { address, size, sizeClass, bytes }
 * (bytes: a Uint8Array of its first bytes). */
static napi_status block_object(napi_env env, const ws_block *b, napi_value *out) {
  NAPI_CHECK(napi_create_object(env, out));
  NAPI_CHECK(ws_napi_set_number(env, *out, "address", (double)b->address));
  NAPI_CHECK(ws_napi_set_number(env, *out, "size", (double)b->size));
  NAPI_CHECK(ws_napi_set_number(env, *out, "sizeClass", b->size_class));
  return ws_napi_set_typed_copy(env, *out, "bytes", napi_uint8_array, b->bytes,
                                b->n_bytes);
}

/* blocksPick(runner, k) returns up to WS_BLOCKS_MAX blocks of memory k's
 * heap in use now and not at blocksMark's mark, in the size classes that
 * grew since (ws_loop_blocks_pick), in address order: [{ address, size,
 * sizeClass, bytes }]; [] without a mark or when nothing grew; null when no
 * allocator is recognised. Between batches. */
static napi_value blocks_pick(napi_env env, napi_callback_info info) {
  napi_value argv[1], out;
  runner *r;
  uint32_t k, n = 0;
  ws_block blocks[WS_BLOCKS_MAX];
  ws_census *c = census_args(env, info, 1, argv, &r, &k);
  int rc = c != NULL ? ws_loop_blocks_pick(r->loop, k, c, &r->marks[k], blocks,
                                           WS_BLOCKS_MAX, &n)
                     : 0;
  if (c == NULL || !census_walked(env, r, rc))
    return NULL;
  if (rc == WS_ENOHEAP) {
    NAPI_CALL(env, napi_get_null(env, &out));
    return out;
  }
  NAPI_CALL(env, napi_create_array_with_length(env, n, &out));
  for (uint32_t i = 0; i < n; i++) {
    napi_value v;
    NAPI_CALL(env, block_object(env, &blocks[i], &v));
    NAPI_CALL(env, napi_set_element(env, out, i, v));
  }
  return out;
}

/* mallocOrigin(runner) returns the path of the object whose malloc a native
 * library's buffers come from ("" when no op takes a buffer), or undefined
 * for a runner of a wasm module or a scenario. */
static napi_value malloc_origin(napi_env env, napi_callback_info info) {
  RUNNER_ARGS(0);
  napi_value v;
  if (r->native == NULL)
    NAPI_CALL(env, napi_get_undefined(env, &v));
  else
    NAPI_CALL(env, napi_create_string_utf8(env, ws_native_malloc_origin(r->native),
                                           NAPI_AUTO_LENGTH, &v));
  return v;
}

/* nativeHeap(runner) returns { live, heap, free } from a native library's
 * own mallinfo2 (ws_native_heap), or null: a library without one, or a
 * runner of a wasm module or a scenario. Between batches. */
static napi_value native_heap(napi_env env, napi_callback_info info) {
  RUNNER_ARGS(0);
  napi_value v;
  uint64_t live, heap, free_bytes;
  if (r->native == NULL || ws_native_heap(r->native, &live, &heap, &free_bytes) != 0) {
    NAPI_CALL(env, napi_get_null(env, &v));
    return v;
  }
  NAPI_CALL(env, napi_create_object(env, &v));
  NAPI_CALL(env, ws_napi_set_number(env, v, "live", (double)live));
  NAPI_CALL(env, ws_napi_set_number(env, v, "heap", (double)heap));
  NAPI_CALL(env, ws_napi_set_number(env, v, "free", (double)free_bytes));
  return v;
}

/* end(runner) writes the end mark. */
static napi_value end_run(napi_env env, napi_callback_info info) {
  RUNNER_ARGS(0);
  return result_of(env, r, ws_loop_end(r->loop));
}

napi_status ws_binding_runner_init(napi_env env, napi_value exports) {
  NAPI_CHECK(ws_binding_export(env, exports, "createRunner", create_runner));
  NAPI_CHECK(ws_binding_export(env, exports, "runBatch", run_batch));
  NAPI_CHECK(ws_binding_export(env, exports, "loopNext", v8_engine_next));
  NAPI_CHECK(ws_binding_export(env, exports, "pending", pending));
  NAPI_CHECK(ws_binding_export(env, exports, "settle", settle));
  NAPI_CHECK(ws_binding_export(env, exports, "error", error));
  NAPI_CHECK(ws_binding_export(env, exports, "completed", completed));
  NAPI_CHECK(ws_binding_export(env, exports, "failedAlloc", failed_alloc));
  NAPI_CHECK(ws_binding_export(env, exports, "metric", metric));
  NAPI_CHECK(ws_binding_export(env, exports, "growFailed", grow_failed));
  NAPI_CHECK(ws_binding_export(env, exports, "sampleMemories", sample_memories));
  NAPI_CHECK(ws_binding_export(env, exports, "addMemory", add_memory));
  NAPI_CHECK(ws_binding_export(env, exports, "censusScanLimit", census_scan_limit));
  NAPI_CHECK(ws_binding_export(env, exports, "census", census));
  NAPI_CHECK(ws_binding_export(env, exports, "blocksMark", blocks_mark));
  NAPI_CHECK(ws_binding_export(env, exports, "blocksPick", blocks_pick));
  NAPI_CHECK(ws_binding_export(env, exports, "mallocOrigin", malloc_origin));
  NAPI_CHECK(ws_binding_export(env, exports, "nativeHeap", native_heap));
  NAPI_CHECK(ws_binding_export(env, exports, "end", end_run));
  return napi_ok;
}
