/* The iteration loop. Runs on the worker's JS thread: picks an op with the
 * seeded RNG, prepares its arguments, times the call with the monotonic
 * clock, reads the tracked memories' sizes and pushes one 32-byte record into
 * the shared ring. Nothing here creates JS objects per iteration: arguments
 * are small integers (handles, not heap objects), memory buffers are held and
 * re-read only after growth detaches them, and handle scopes are recycled
 * every 256 calls. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "binding.h"
#include "ws.h"

#define MAX_PARAMS 16
#define SCOPE_EVERY 256

/* Free slots the loop wants before a call: the call record, an allocation
 * record and a back-pressure mark. */
#define SLOTS_PER_CALL 3

typedef struct {
  uint8_t kind;   /* ARG_* */
  uint8_t type;   /* VAL_* (a buffer is always two i32 params: pointer, length) */
  int64_t lo, hi; /* random range, or buffer length range */
} arg_spec;

typedef struct {
  napi_ref fn;
  napi_ref recv; /* `this` for the call, or NULL for undefined */
  uint32_t n_args;
  arg_spec args[MAX_PARAMS];
} op_entry;

typedef struct {
  napi_ref memory;
  napi_ref buffer;    /* the last ArrayBuffer read from memory.buffer */
  napi_value current; /* buffer's handle in the current handle scope, or NULL */
  uint64_t bytes;
  int shared;
  int dead; /* the target dropped it and it was collected */
} tracked_memory;

typedef struct {
  napi_ref ring_ref; /* keeps the SharedArrayBuffer alive */
  ws_ring ring;
  ws_rng rng;
  ws_clock clock;
  int scenario;
  napi_ref state, ctx;
  op_entry *ops;
  uint64_t *cumulative;
  napi_value *fn_handles, *recv_handles; /* per op, valid during one runBatch */
  uint32_t n_ops;
  napi_ref malloc_fn, free_fn;
  uint32_t buffer_memory;
  tracked_memory *memories;
  uint32_t n_memories;
  uint64_t total_bytes;
  uint32_t iteration, iterations;
  uint64_t t0, deadline; /* clock ticks: run start, run deadline (0: none) */
  napi_ref pending;      /* the promise of an async call in flight */
  uint64_t pending_start, pending_before;
  uint32_t pending_op;
  napi_ref error;
  napi_ref counters_ref; /* counting pass: keeps the counters' array alive */
  double *counters;      /* WS_COUNT_* of the current call, or NULL */
  uint64_t stall_start;  /* when the loop last stopped on a full ring, or 0 */
  int rss_fd;            /* /proc/self/statm, or -1 */
} runner;

/* ---- small helpers ---- */

static napi_status ref_value(napi_env env, napi_ref ref, napi_value *out) {
  if (ref == NULL)
    return napi_get_undefined(env, out);
  return napi_get_reference_value(env, ref, out);
}

static void drop_ref(napi_env env, napi_ref *ref) {
  if (*ref != NULL)
    napi_delete_reference(env, *ref);
  *ref = NULL;
}

static napi_status get_number(napi_env env, napi_value obj, const char *key,
                              double *out) {
  napi_value v;
  NAPI_CHECK(napi_get_named_property(env, obj, key, &v));
  return napi_get_value_double(env, v, out);
}

/* Nanoseconds from the run's start to now. */
static uint64_t since_start(const runner *r) {
  return ws_clock_ns(&r->clock, ws_clock_ticks(&r->clock) - r->t0);
}

/* Ticks covering ns nanoseconds. */
static uint64_t ticks_for(const runner *r, double ns) {
  return (uint64_t)(ns / r->clock.ns_per_tick);
}

/* Pushes rec and, when the push had to wait, a back-pressure mark. */
static void push(runner *r, const ws_record *rec) {
  uint64_t waited = ws_ring_push(&r->ring, rec);
  if (waited > 0) {
    ws_record mark = {WS_REC_MARK, 0, WS_MARK_BACKPRESSURE, rec->iteration,
                      waited,      0, since_start(r)};
    ws_ring_push(&r->ring, &mark);
  }
}

/* Marks m as collected: a memory the target dropped counts 0 bytes from now
 * on (the loop holds memories weakly, so it never keeps one alive). */
static void bury_memory(napi_env env, tracked_memory *m) {
  drop_ref(env, &m->memory);
  drop_ref(env, &m->buffer);
  m->current = NULL;
  m->bytes = 0;
  m->dead = 1;
}

/* Re-reads m's size when its held buffer was detached by growth (or always,
 * for a shared memory, whose buffer never detaches). Memory and buffer are
 * weak references; the buffer's handle is kept in m->current until
 * forget_handles() is called, so the common case costs one napi call. */
static napi_status refresh_memory(napi_env env, tracked_memory *m) {
  napi_value memory = NULL, buffer;
  if (m->dead)
    return napi_ok;
  if (m->shared) {
    double len;
    NAPI_CHECK(napi_get_reference_value(env, m->memory, &memory));
    if (memory == NULL) {
      bury_memory(env, m);
      return napi_ok;
    }
    NAPI_CHECK(napi_get_named_property(env, memory, "buffer", &buffer));
    NAPI_CHECK(get_number(env, buffer, "byteLength", &len));
    m->bytes = (uint64_t)len;
    return napi_ok;
  }
  bool detached = true;
  if (m->current == NULL && m->buffer != NULL)
    NAPI_CHECK(napi_get_reference_value(env, m->buffer, &m->current));
  if (m->current != NULL)
    NAPI_CHECK(napi_is_detached_arraybuffer(env, m->current, &detached));
  if (!detached)
    return napi_ok;
  size_t len;
  void *data;
  NAPI_CHECK(napi_get_reference_value(env, m->memory, &memory));
  if (memory == NULL) {
    bury_memory(env, m);
    return napi_ok;
  }
  NAPI_CHECK(napi_get_named_property(env, memory, "buffer", &buffer));
  NAPI_CHECK(napi_get_arraybuffer_info(env, buffer, &data, &len));
  if (m->buffer != NULL)
    napi_delete_reference(env, m->buffer);
  NAPI_CHECK(napi_create_reference(env, buffer, 0, &m->buffer));
  m->current = buffer;
  m->bytes = len;
  return napi_ok;
}

/* Drops the cached buffer handles; called whenever the handle scope they
 * live in ends (every callback's end, every recycled loop scope). */
static void forget_handles(runner *r) {
  for (uint32_t i = 0; i < r->n_memories; i++)
    r->memories[i].current = NULL;
}

static napi_status total_memory(napi_env env, runner *r, uint64_t *out) {
  uint64_t total = 0;
  for (uint32_t i = 0; i < r->n_memories; i++) {
    NAPI_CHECK(refresh_memory(env, &r->memories[i]));
    total += r->memories[i].bytes;
  }
  *out = total;
  return napi_ok;
}

static napi_status make_number(napi_env env, uint8_t type, int64_t x, napi_value *out) {
  switch (type) {
  case WS_VAL_I32:
    return napi_create_int32(env, (int32_t)x, out);
  case WS_VAL_I64:
    return napi_create_bigint_int64(env, x, out);
  default:
    return napi_create_double(env, (double)x, out);
  }
}

/* ---- construction ---- */

static void finalize_runner(napi_env env, void *data, void *hint) {
  (void)hint;
  runner *r = data;
  for (uint32_t i = 0; i < r->n_ops; i++) {
    drop_ref(env, &r->ops[i].fn);
    drop_ref(env, &r->ops[i].recv);
  }
  for (uint32_t i = 0; i < r->n_memories; i++) {
    drop_ref(env, &r->memories[i].memory);
    drop_ref(env, &r->memories[i].buffer);
  }
  drop_ref(env, &r->ring_ref);
  drop_ref(env, &r->state);
  drop_ref(env, &r->ctx);
  drop_ref(env, &r->malloc_fn);
  drop_ref(env, &r->free_fn);
  drop_ref(env, &r->pending);
  drop_ref(env, &r->error);
  drop_ref(env, &r->counters_ref);
  if (r->rss_fd >= 0)
    close(r->rss_fd);
  free(r->ops);
  free(r->cumulative);
  free(r->fn_handles);
  free(r->recv_handles);
  free(r->memories);
  free(r);
}

static napi_ref optional_ref(napi_env env, napi_value obj, const char *key) {
  napi_value v;
  napi_valuetype type;
  napi_ref ref = NULL;
  if (napi_get_named_property(env, obj, key, &v) == napi_ok &&
      napi_typeof(env, v, &type) == napi_ok && type != napi_undefined &&
      type != napi_null)
    napi_create_reference(env, v, 1, &ref);
  return ref;
}

/* Reads one op description { fn, recv?, weight, args?: [{ kind, type, lo, hi }] }. */
static napi_status read_op(napi_env env, napi_value desc, op_entry *op,
                           uint64_t *weight) {
  napi_value fn, args;
  double w;
  NAPI_CHECK(napi_get_named_property(env, desc, "fn", &fn));
  NAPI_CHECK(napi_create_reference(env, fn, 1, &op->fn));
  op->recv = optional_ref(env, desc, "recv");
  NAPI_CHECK(get_number(env, desc, "weight", &w));
  *weight = w >= 1 ? (uint64_t)w : 1;
  bool is_array = false;
  NAPI_CHECK(napi_get_named_property(env, desc, "args", &args));
  NAPI_CHECK(napi_is_array(env, args, &is_array));
  if (!is_array)
    return napi_ok;
  uint32_t n;
  NAPI_CHECK(napi_get_array_length(env, args, &n));
  if (n > MAX_PARAMS)
    return napi_invalid_arg;
  op->n_args = n;
  for (uint32_t i = 0; i < n; i++) {
    napi_value a;
    double kind, type, lo, hi;
    NAPI_CHECK(napi_get_element(env, args, i, &a));
    NAPI_CHECK(get_number(env, a, "kind", &kind));
    NAPI_CHECK(get_number(env, a, "type", &type));
    NAPI_CHECK(get_number(env, a, "lo", &lo));
    NAPI_CHECK(get_number(env, a, "hi", &hi));
    op->args[i] = (arg_spec){(uint8_t)kind, (uint8_t)type, (int64_t)lo, (int64_t)hi};
  }
  return napi_ok;
}

static napi_status track_memory(napi_env env, runner *r, napi_value memory, int shared) {
  tracked_memory *grown = realloc(r->memories, (r->n_memories + 1) * sizeof *grown);
  if (grown == NULL)
    return napi_generic_failure;
  r->memories = grown;
  tracked_memory *m = &r->memories[r->n_memories];
  memset(m, 0, sizeof *m);
  m->shared = shared;
  NAPI_CHECK(napi_create_reference(env, memory, 0, &m->memory)); /* weak */
  r->n_memories++;
  return refresh_memory(env, m);
}

/* createRunner({ ring, seed, iterations, durationNs, scenario, state, ctx,
 *   ops: [...], malloc, free, bufferMemory, memories: [{ memory, shared }],
 *   counters? }): counters (counting pass) is a Float64Array of WS_COUNT_*
 *   fields that the allocator hooks update; after each call an allocation
 *   record follows its call record.
 * Returns an external owning the runner; freed when it is collected. Throws
 * WS_EINVAL when the ring is not a valid SharedArrayBuffer region. */
static napi_value create_runner(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value opts, v, result;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, &opts, NULL, NULL));
  runner *r = calloc(1, sizeof *r);
  if (r == NULL) {
    ws_binding_throw_code(env, WS_ENOMEM, NULL);
    return NULL;
  }
  r->rss_fd = ws_rss_open();
  NAPI_CALL(env, napi_create_external(env, r, finalize_runner, NULL, &result));

  napi_value ring_view;
  napi_typedarray_type ta_type;
  size_t length, offset;
  void *data;
  NAPI_CALL(env, napi_get_named_property(env, opts, "ring", &ring_view));
  NAPI_CALL(env, napi_get_typedarray_info(env, ring_view, &ta_type, &length, &data, NULL,
                                          &offset));
  NAPI_CALL(env, napi_create_reference(env, ring_view, 1, &r->ring_ref));
  if (ta_type != napi_int32_array || ws_ring_attach(&r->ring, data, length * 4) != 0) {
    ws_binding_throw_code(env, WS_EINVAL,
                          "ring must be an Int32Array over a ring region");
    return NULL;
  }

  double seed, iterations, duration_ns, scenario, buffer_memory;
  NAPI_CALL(env, get_number(env, opts, "seed", &seed));
  NAPI_CALL(env, get_number(env, opts, "iterations", &iterations));
  NAPI_CALL(env, get_number(env, opts, "durationNs", &duration_ns));
  NAPI_CALL(env, get_number(env, opts, "scenario", &scenario));
  NAPI_CALL(env, get_number(env, opts, "bufferMemory", &buffer_memory));
  ws_rng_seed(&r->rng, (uint64_t)seed);
  r->iterations = (uint32_t)iterations;
  r->scenario = scenario != 0;
  r->buffer_memory = (uint32_t)buffer_memory;
  r->state = optional_ref(env, opts, "state");
  r->ctx = optional_ref(env, opts, "ctx");
  r->counters_ref = optional_ref(env, opts, "counters");
  if (r->counters_ref != NULL) {
    napi_value counters;
    size_t count;
    void *data;
    NAPI_CALL(env, napi_get_reference_value(env, r->counters_ref, &counters));
    NAPI_CALL(env, napi_get_typedarray_info(env, counters, &ta_type, &count, &data, NULL,
                                            NULL));
    if (ta_type != napi_float64_array || count < WS_COUNT_FIELDS) {
      ws_binding_throw_code(env, WS_EINVAL,
                            "counters must be a Float64Array of 5 counters");
      return NULL;
    }
    r->counters = data;
  }
  r->malloc_fn = optional_ref(env, opts, "malloc");
  r->free_fn = optional_ref(env, opts, "free");

  NAPI_CALL(env, napi_get_named_property(env, opts, "ops", &v));
  NAPI_CALL(env, napi_get_array_length(env, v, &r->n_ops));
  r->ops = calloc(r->n_ops, sizeof *r->ops);
  r->cumulative = calloc(r->n_ops, sizeof *r->cumulative);
  r->fn_handles = calloc(r->n_ops, sizeof *r->fn_handles);
  r->recv_handles = calloc(r->n_ops, sizeof *r->recv_handles);
  if (r->n_ops == 0 || r->ops == NULL || r->cumulative == NULL || r->fn_handles == NULL ||
      r->recv_handles == NULL) {
    ws_binding_throw_code(env, WS_EINVAL, "createRunner needs at least one op");
    return NULL;
  }
  uint64_t sum = 0;
  for (uint32_t i = 0; i < r->n_ops; i++) {
    napi_value desc;
    uint64_t weight;
    NAPI_CALL(env, napi_get_element(env, v, i, &desc));
    NAPI_CALL(env, read_op(env, desc, &r->ops[i], &weight));
    sum += weight;
    r->cumulative[i] = sum;
  }

  uint32_t n_memories;
  NAPI_CALL(env, napi_get_named_property(env, opts, "memories", &v));
  NAPI_CALL(env, napi_get_array_length(env, v, &n_memories));
  for (uint32_t i = 0; i < n_memories; i++) {
    napi_value desc, memory;
    double shared;
    NAPI_CALL(env, napi_get_element(env, v, i, &desc));
    NAPI_CALL(env, napi_get_named_property(env, desc, "memory", &memory));
    NAPI_CALL(env, get_number(env, desc, "shared", &shared));
    NAPI_CALL(env, track_memory(env, r, memory, shared != 0));
  }
  NAPI_CALL(env, total_memory(env, r, &r->total_bytes));
  forget_handles(r);
  ws_clock_init(&r->clock);
  r->t0 = ws_clock_ticks(&r->clock);
  r->deadline = duration_ns > 0 ? r->t0 + ticks_for(r, duration_ns) : 0;
  return result;
}

static runner *unwrap(napi_env env, napi_callback_info info, size_t *argc,
                      napi_value *argv) {
  napi_value self;
  void *data = NULL;
  size_t want = *argc;
  napi_value all[8];
  size_t n = 8;
  if (napi_get_cb_info(env, info, &n, all, &self, NULL) != napi_ok || n < 1 ||
      napi_get_value_external(env, all[0], &data) != napi_ok) {
    napi_throw_type_error(env, "WS_EINVAL", "first argument must be a runner");
    return NULL;
  }
  for (size_t i = 0; i < want && i + 1 < 8; i++)
    argv[i] = all[i + 1];
  *argc = n - 1;
  forget_handles(data); /* handles cached by an earlier callback are dead */
  return data;
}

/* ---- the loop ---- */

typedef struct {
  uint32_t ptr, len;
} buffer_arg;

/* Builds the arguments of a raw-module op into argv; buffers are allocated
 * through the module's allocator and filled with seeded random bytes (outside
 * the timed region). Returns the argument count, or -1 with an exception
 * pending. */
static int prepare_args(napi_env env, runner *r, const op_entry *op, napi_value *argv,
                        buffer_arg *bufs, uint32_t *n_bufs) {
  int argc = 0;
  *n_bufs = 0;
  for (uint32_t i = 0; i < op->n_args; i++) {
    const arg_spec *a = &op->args[i];
    if (a->kind == WS_ARG_BUF) {
      napi_value malloc_fn, undefined, len_v, ptr_v;
      uint32_t len = (uint32_t)ws_rng_range(&r->rng, (uint64_t)a->lo, (uint64_t)a->hi);
      uint32_t ptr = 0;
      if (napi_get_reference_value(env, r->malloc_fn, &malloc_fn) != napi_ok ||
          napi_get_undefined(env, &undefined) != napi_ok ||
          napi_create_uint32(env, len, &len_v) != napi_ok ||
          napi_call_function(env, undefined, malloc_fn, 1, &len_v, &ptr_v) != napi_ok ||
          napi_get_value_uint32(env, ptr_v, &ptr) != napi_ok)
        return -1;
      tracked_memory *m = &r->memories[r->buffer_memory];
      napi_value buffer;
      void *data;
      size_t bytes;
      if (refresh_memory(env, m) != napi_ok ||
          napi_get_reference_value(env, m->buffer, &buffer) != napi_ok ||
          napi_get_arraybuffer_info(env, buffer, &data, &bytes) != napi_ok)
        return -1;
      if (ptr == 0 || (uint64_t)ptr + len > bytes) {
        napi_throw_error(env, "WS_EALLOC",
                         "the module's allocator returned no usable block for a buffer "
                         "argument");
        return -1;
      }
      ws_rng_fill(&r->rng, (uint8_t *)data + ptr, len);
      bufs[(*n_bufs)++] = (buffer_arg){ptr, len};
      if (napi_create_uint32(env, ptr, &argv[argc++]) != napi_ok ||
          napi_create_uint32(env, len, &argv[argc++]) != napi_ok)
        return -1;
      continue;
    }
    int64_t x = 0;
    if (a->kind == WS_ARG_ITERATION)
      x = r->iteration;
    else if (a->kind == WS_ARG_RANDOM)
      x = (int64_t)ws_rng_range(&r->rng, (uint64_t)a->lo, (uint64_t)a->hi);
    else if (a->kind == WS_ARG_CONST)
      x = a->lo;
    if (make_number(env, a->type, x, &argv[argc++]) != napi_ok)
      return -1;
  }
  return argc;
}

/* Frees the buffers prepare_args allocated, calling free(ptr, len) (C's free
 * ignores the length; sized deallocators use it). Returns -1 with an
 * exception pending on failure. */
static int free_buffers(napi_env env, runner *r, const buffer_arg *bufs, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    napi_value free_fn, undefined, args[2], ignored;
    if (napi_get_reference_value(env, r->free_fn, &free_fn) != napi_ok ||
        napi_get_undefined(env, &undefined) != napi_ok ||
        napi_create_uint32(env, bufs[i].ptr, &args[0]) != napi_ok ||
        napi_create_uint32(env, bufs[i].len, &args[1]) != napi_ok ||
        napi_call_function(env, undefined, free_fn, 2, args, &ignored) != napi_ok)
      return -1;
  }
  return 0;
}

/* Writes the call record of iteration r->iteration and advances it. */
static napi_status finish_call(napi_env env, runner *r, uint32_t op, uint64_t start,
                               uint64_t end, uint64_t before, uint8_t flags) {
  NAPI_CHECK(total_memory(env, r, &r->total_bytes));
  if (r->total_bytes > before)
    flags |= WS_FLAG_GREW;
  ws_record rec = {WS_REC_CALL,
                   flags,
                   (uint16_t)op,
                   r->iteration,
                   ws_clock_ns(&r->clock, end - start),
                   r->total_bytes,
                   ws_clock_ns(&r->clock, start - r->t0)};
  push(r, &rec);
  if (r->counters != NULL) {
    ws_record alloc;
    ws_alloc_record(&alloc, r->iteration, (uint16_t)op, r->counters);
    push(r, &alloc);
  }
  r->iteration++;
  return napi_ok;
}

/* Counting pass: starts a call's counters (the live bytes carry over). */
static void reset_counters(runner *r) {
  if (r->counters == NULL)
    return;
  r->counters[WS_COUNT_ALLOCS] = 0;
  r->counters[WS_COUNT_FREES] = 0;
  r->counters[WS_COUNT_BYTES] = 0;
  r->counters[WS_COUNT_PEAK] = r->counters[WS_COUNT_LIVE];
}

static napi_value undefined_value(napi_env env) {
  napi_value v = NULL;
  napi_get_undefined(env, &v);
  return v;
}

static napi_value status_value(napi_env env, int status) {
  napi_value v;
  napi_create_int32(env, status, &v);
  return v;
}

/* Stores the pending exception (the call threw) as the run's error. */
static void take_exception(napi_env env, runner *r) {
  napi_value exception;
  if (napi_get_and_clear_last_exception(env, &exception) == napi_ok) {
    drop_ref(env, &r->error);
    napi_create_reference(env, exception, 1, &r->error);
  }
}

/* Evaluates a napi call inside the loop; on failure the loop ends with -1
 * and the exception (thrown here when none is pending) propagates. */
#define LOOP_CALL(env, call)                                                             \
  do {                                                                                   \
    if ((call) != napi_ok) {                                                             \
      ws_binding_throw_last((env));                                                      \
      return -1;                                                                         \
    }                                                                                    \
  } while (0)

/* Runs iterations of r until a stop condition (see run_batch) and returns
 * its ST_* status, or -1 with an exception pending. *scope is the caller's
 * to close; it is recycled every SCOPE_EVERY calls. */
static int run_loop(napi_env env, runner *r, uint32_t max_iterations, uint64_t batch_end,
                    napi_handle_scope *scope) {
  napi_value scenario_args[2];
  if (r->scenario) {
    LOOP_CALL(env, ref_value(env, r->state, &scenario_args[0]));
    LOOP_CALL(env, ref_value(env, r->ctx, &scenario_args[1]));
  }
  for (uint32_t i = 0; i < r->n_ops; i++) {
    LOOP_CALL(env, napi_get_reference_value(env, r->ops[i].fn, &r->fn_handles[i]));
    LOOP_CALL(env, ref_value(env, r->ops[i].recv, &r->recv_handles[i]));
  }
  for (uint32_t done = 0;; done++) {
    if (r->iteration >= r->iterations)
      return WS_STATUS_DONE;
    if (ws_ring_stop_requested(&r->ring))
      return WS_STATUS_STOPPED;
    if (done >= max_iterations)
      return WS_STATUS_YIELD;
    if (ws_ring_free_slots(&r->ring) < SLOTS_PER_CALL) {
      r->stall_start = ws_clock_ticks(&r->clock);
      return WS_STATUS_FULL;
    }
    if (done % SCOPE_EVERY == 0) {
      forget_handles(r);
      if (*scope != NULL)
        napi_close_handle_scope(env, *scope);
      *scope = NULL;
      LOOP_CALL(env, napi_open_handle_scope(env, scope));
    }
    uint32_t op = ws_rng_pick(&r->rng, r->cumulative, r->n_ops);
    const op_entry *entry = &r->ops[op];
    napi_value result, args[MAX_PARAMS * 2];
    buffer_arg bufs[MAX_PARAMS];
    uint32_t n_bufs = 0;
    int n_args = 2;
    napi_value *call_args = scenario_args;
    if (!r->scenario) {
      n_args = prepare_args(env, r, entry, args, bufs, &n_bufs);
      if (n_args < 0)
        return -1;
      call_args = args;
    }
    r->ring.ctl[WS_CTL_ITERATION] = (int32_t)r->iteration;
    uint64_t before = r->total_bytes;
    reset_counters(r);

    uint64_t start = ws_clock_ticks(&r->clock);
    napi_status call = napi_call_function(env, r->recv_handles[op], r->fn_handles[op],
                                          (size_t)n_args, call_args, &result);
    uint64_t end = ws_clock_ticks(&r->clock);

    if (call == napi_pending_exception) {
      take_exception(env, r);
      LOOP_CALL(env, finish_call(env, r, op, start, end, before, WS_FLAG_THREW));
      return WS_STATUS_THREW;
    }
    LOOP_CALL(env, call);
    if (r->scenario) {
      bool is_promise = false;
      LOOP_CALL(env, napi_is_promise(env, result, &is_promise));
      if (is_promise) {
        LOOP_CALL(env, napi_create_reference(env, result, 1, &r->pending));
        r->pending_start = start;
        r->pending_before = before;
        r->pending_op = op;
        return WS_STATUS_ASYNC;
      }
    } else if (free_buffers(env, r, bufs, n_bufs) != 0) {
      return -1;
    }
    LOOP_CALL(env, finish_call(env, r, op, start, end, before, 0));
    if (r->deadline != 0 && end >= r->deadline)
      return WS_STATUS_DEADLINE;
    if (end >= batch_end)
      return WS_STATUS_YIELD;
  }
}

/* runBatch(runner, maxIterations, maxNs) runs iterations until one of: the
 * batch's count or time budget (WS_STATUS_YIELD), the run's iteration count
 * (WS_STATUS_DONE), a stop request (WS_STATUS_STOPPED), the run's deadline
 * (WS_STATUS_DEADLINE), a call that threw (WS_STATUS_THREW: the record is written,
 * error() returns the exception), or a call that returned a promise (WS_STATUS_ASYNC:
 * await pending(), then settle()), or a ring too full for the next call (WS_STATUS_FULL:
 * ask the main thread to drain, wait for it, call runBatch again; the wait is logged as a
 * back-pressure mark). */
static napi_value run_batch(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  runner *r = unwrap(env, info, &argc, argv);
  if (r == NULL)
    return NULL;
  uint32_t max_iterations;
  double max_ns;
  NAPI_CALL(env, napi_get_value_uint32(env, argv[0], &max_iterations));
  NAPI_CALL(env, napi_get_value_double(env, argv[1], &max_ns));
  if (r->pending != NULL) {
    napi_throw_error(env, "WS_EINVAL", "runBatch called while an async call is pending");
    return NULL;
  }
  if (r->stall_start != 0) {
    uint64_t now = ws_clock_ticks(&r->clock);
    ws_record mark = {WS_REC_MARK,
                      0,
                      WS_MARK_BACKPRESSURE,
                      r->iteration,
                      ws_clock_ns(&r->clock, now - r->stall_start),
                      0,
                      ws_clock_ns(&r->clock, r->stall_start - r->t0)};
    r->stall_start = 0;
    ws_ring_push(&r->ring, &mark);
  }
  uint64_t batch_end = ws_clock_ticks(&r->clock) + ticks_for(r, max_ns > 0 ? max_ns : 0);
  napi_handle_scope scope = NULL;
  int status = run_loop(env, r, max_iterations, batch_end, &scope);
  forget_handles(r);
  if (scope != NULL)
    napi_close_handle_scope(env, scope);
  return status < 0 ? NULL : status_value(env, status);
}

/* pending(runner) returns the promise of the async call in flight, or
 * undefined. */
static napi_value pending(napi_env env, napi_callback_info info) {
  size_t argc = 0;
  runner *r = unwrap(env, info, &argc, NULL);
  if (r == NULL)
    return NULL;
  napi_value v;
  NAPI_CALL(env, ref_value(env, r->pending, &v));
  return v;
}

/* settle(runner, threw, error) completes the async call: its time runs from
 * the call's start to now (the promise's settling included). When threw is
 * true, error becomes the run's error. */
static napi_value settle(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  runner *r = unwrap(env, info, &argc, argv);
  if (r == NULL)
    return NULL;
  if (r->pending == NULL) {
    napi_throw_error(env, "WS_EINVAL", "settle called with no async call pending");
    return NULL;
  }
  uint64_t end = ws_clock_ticks(&r->clock);
  bool threw = false;
  NAPI_CALL(env, napi_get_value_bool(env, argv[0], &threw));
  drop_ref(env, &r->pending);
  if (threw) {
    drop_ref(env, &r->error);
    NAPI_CALL(env, napi_create_reference(env, argv[1], 1, &r->error));
  }
  uint8_t flags = WS_FLAG_ASYNC | (threw ? WS_FLAG_THREW : 0);
  NAPI_CALL(env, finish_call(env, r, r->pending_op, r->pending_start, end,
                             r->pending_before, flags));
  return undefined_value(env);
}

/* error(runner) returns what the last failing call threw, or undefined. */
static napi_value error(napi_env env, napi_callback_info info) {
  size_t argc = 0;
  runner *r = unwrap(env, info, &argc, NULL);
  if (r == NULL)
    return NULL;
  napi_value v;
  NAPI_CALL(env, ref_value(env, r->error, &v));
  return v;
}

/* completed(runner) returns the number of iterations completed. */
static napi_value completed(napi_env env, napi_callback_info info) {
  size_t argc = 0;
  runner *r = unwrap(env, info, &argc, NULL);
  if (r == NULL)
    return NULL;
  napi_value v;
  NAPI_CALL(env, napi_create_uint32(env, r->iteration, &v));
  return v;
}

/* metric(runner, id, value) records one slow-cadence metric (values are
 * rounded to whole units; NaN or negative values are skipped). */
static napi_value metric(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  runner *r = unwrap(env, info, &argc, argv);
  if (r == NULL)
    return NULL;
  uint32_t id;
  double value;
  NAPI_CALL(env, napi_get_value_uint32(env, argv[0], &id));
  NAPI_CALL(env, napi_get_value_double(env, argv[1], &value));
  if (!isnan(value) && value >= 0) {
    ws_record rec = {WS_REC_METRIC,
                     0,
                     (uint16_t)id,
                     r->iteration > 0 ? r->iteration - 1 : 0,
                     (uint64_t)llround(value),
                     0,
                     since_start(r)};
    push(r, &rec);
  }
  return undefined_value(env);
}

/* sampleMemories(runner) records the process RSS (metric 1, where
 * /proc/self/statm exists) and each tracked memory's size as metric
 * 256 + index. */
static napi_value sample_memories(napi_env env, napi_callback_info info) {
  size_t argc = 0;
  runner *r = unwrap(env, info, &argc, NULL);
  if (r == NULL)
    return NULL;
  uint64_t now = since_start(r);
  uint64_t rss;
  if (r->rss_fd >= 0 && ws_rss_read(r->rss_fd, &rss) == 0) {
    ws_record rec = {WS_REC_METRIC,
                     0,
                     WS_METRIC_RSS,
                     r->iteration > 0 ? r->iteration - 1 : 0,
                     rss,
                     0,
                     now};
    push(r, &rec);
  }
  for (uint32_t i = 0; i < r->n_memories; i++) {
    NAPI_CALL(env, refresh_memory(env, &r->memories[i]));
    ws_record rec = {WS_REC_METRIC,
                     0,
                     (uint16_t)(WS_METRIC_MEMORY_BASE + i),
                     r->iteration > 0 ? r->iteration - 1 : 0,
                     r->memories[i].bytes,
                     0,
                     now};
    push(r, &rec);
  }
  return undefined_value(env);
}

/* addMemory(runner, memory, shared) tracks one more memory from now on,
 * writes a memory-tracked mark and returns its index. */
static napi_value add_memory(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  runner *r = unwrap(env, info, &argc, argv);
  if (r == NULL)
    return NULL;
  bool shared = false;
  NAPI_CALL(env, napi_get_value_bool(env, argv[1], &shared));
  NAPI_CALL(env, track_memory(env, r, argv[0], shared));
  uint32_t index = r->n_memories - 1;
  r->total_bytes += r->memories[index].bytes;
  ws_record rec = {WS_REC_MARK,   0,     WS_MARK_MEMORY_TRACKED,
                   r->iteration,  index, r->memories[index].bytes,
                   since_start(r)};
  push(r, &rec);
  napi_value v;
  NAPI_CALL(env, napi_create_uint32(env, index, &v));
  return v;
}

/* end(runner) writes the end mark: the run ended cleanly. */
static napi_value end_run(napi_env env, napi_callback_info info) {
  size_t argc = 0;
  runner *r = unwrap(env, info, &argc, NULL);
  if (r == NULL)
    return NULL;
  ws_record rec = {WS_REC_MARK,  0, WS_MARK_END,   r->iteration,
                   r->iteration, 0, since_start(r)};
  push(r, &rec);
  return undefined_value(env);
}

/* ringRegionBytes(capacity) returns the SharedArrayBuffer size a ring of
 * capacity records needs. */
static napi_value ring_region_bytes(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value arg, v;
  uint32_t capacity;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, &arg, NULL, NULL));
  NAPI_CALL(env, napi_get_value_uint32(env, arg, &capacity));
  NAPI_CALL(env, napi_create_double(env, (double)ws_ring_region_bytes(capacity), &v));
  return v;
}

napi_status ws_binding_runner_init(napi_env env, napi_value exports) {
  NAPI_CHECK(ws_binding_export(env, exports, "createRunner", create_runner));
  NAPI_CHECK(ws_binding_export(env, exports, "runBatch", run_batch));
  NAPI_CHECK(ws_binding_export(env, exports, "pending", pending));
  NAPI_CHECK(ws_binding_export(env, exports, "settle", settle));
  NAPI_CHECK(ws_binding_export(env, exports, "error", error));
  NAPI_CHECK(ws_binding_export(env, exports, "completed", completed));
  NAPI_CHECK(ws_binding_export(env, exports, "metric", metric));
  NAPI_CHECK(ws_binding_export(env, exports, "sampleMemories", sample_memories));
  NAPI_CHECK(ws_binding_export(env, exports, "addMemory", add_memory));
  NAPI_CHECK(ws_binding_export(env, exports, "end", end_run));
  NAPI_CHECK(ws_binding_export(env, exports, "ringRegionBytes", ring_region_bytes));
  return napi_ok;
}
