/* The V8 engine (v8_engine.h): the engine seam over Node-API. Every function
 * runs on the worker's JS thread, inside a Node-API callback. */
#include <stdlib.h>
#include <string.h>

#include "binding.h"
#include "v8_engine.h"
#include "ws.h"

/* Calls between handle scope recycles: bounds the handles a batch keeps. */
#define SCOPE_EVERY 256

typedef struct {
  napi_ref fn;
  napi_ref recv; /* `this` for the call, or NULL for undefined */
} v8_op;

typedef struct {
  napi_ref memory;    /* weak */
  napi_ref buffer;    /* weak: the last ArrayBuffer read from memory.buffer */
  napi_value current; /* buffer's handle in the engine's scope, or NULL */
  int fresh;          /* current was made in a driver's callback (v8_engine_next) */
  int32_t pages_slot; /* where the driver stores its size (WS_DRIVER_PAGES), or -1 */
  uint64_t bytes;
  int shared;
  int dead; /* the module dropped it and it was collected */
} v8_memory;

struct v8_engine {
  ws_engine base;
  napi_env env;
  int scenario;
  napi_ref state, ctx;
  v8_op *ops;
  uint32_t n_ops;
  napi_value *fns, *recvs; /* per op, valid during one batch */
  napi_value scenario_args[2];
  napi_value undefined;
  v8_memory *memories;
  uint32_t n_memories;
  napi_ref slots_ref; /* the trampoline's slot memory (an ArrayBuffer) */
  uint8_t *slots;
  size_t slots_len;
  napi_ref alloc_fn, free_fn; /* the trampoline's allocator calls */
  napi_ref drive_fn;          /* the trampoline's driver, or NULL */
  napi_value drive_value;     /* its handle, valid during one batch */
  ws_loop *loop;              /* the loop of the batch being driven, or NULL */
  napi_ref pending;           /* the promise of an async call in flight */
  napi_ref error;             /* what the last failing call threw */
  napi_handle_scope scope;    /* the engine's own scope, or NULL */
  uint32_t scope_calls;
};

/* ---- helpers ---- */

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

/* A strong reference to obj[key], or NULL when it is undefined or null. */
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

/* Drops the cached buffer handles; called whenever the scope they live in
 * ends. */
static void forget_handles(v8_engine *e) {
  for (uint32_t i = 0; i < e->n_memories; i++) {
    e->memories[i].current = NULL;
    e->memories[i].fresh = 0;
  }
}

/* The engine whose batch the thread's driver runs (drive), for the
 * driver's callback (v8_engine_next). Under glibc it is initial-exec: read
 * at a fixed offset from the thread pointer, not through a __tls_get_addr
 * call per call (glibc keeps room for a few such words of a library it
 * opens; musl refuses to open a library that asks for it). */
#if defined(__GLIBC__)
#define DRIVER_TLS __attribute__((tls_model("initial-exec")))
#else
#define DRIVER_TLS
#endif
static _Thread_local v8_engine *driving DRIVER_TLS;

/* Drops the buffer handles made in the current callback of a driver (its
 * scope ends with it); keeps those of the batch's scope. */
static void forget_fresh(v8_engine *e) {
  for (uint32_t i = 0; i < e->n_memories; i++)
    if (e->memories[i].fresh) {
      e->memories[i].current = NULL;
      e->memories[i].fresh = 0;
    }
}

/* Opens a fresh engine scope every SCOPE_EVERY iterations. */
static napi_status recycle_scope(v8_engine *e) {
  if (e->scope != NULL && ++e->scope_calls < SCOPE_EVERY)
    return napi_ok;
  forget_handles(e);
  if (e->scope != NULL)
    napi_close_handle_scope(e->env, e->scope);
  e->scope = NULL;
  e->scope_calls = 0;
  return napi_open_handle_scope(e->env, &e->scope);
}

/* Marks m as collected: a memory the module dropped counts 0 bytes. */
static void bury_memory(napi_env env, v8_memory *m) {
  drop_ref(env, &m->memory);
  drop_ref(env, &m->buffer);
  m->current = NULL;
  m->bytes = 0;
  m->dead = 1;
}

/* Stores memory.buffer of a shared memory in *buffer (a new
 * SharedArrayBuffer object each time), or NULL when it was collected. */
static napi_status shared_buffer(napi_env env, v8_memory *m, napi_value *buffer) {
  napi_value memory;
  *buffer = NULL;
  NAPI_CHECK(napi_get_reference_value(env, m->memory, &memory));
  if (memory == NULL) {
    bury_memory(env, m);
    return napi_ok;
  }
  return napi_get_named_property(env, memory, "buffer", buffer);
}

/* Re-reads m's size when its held buffer was detached by growth (always,
 * for a shared memory, whose buffer never detaches). The common case costs
 * one napi call. */
static napi_status refresh_memory(napi_env env, v8_memory *m) {
  napi_value memory = NULL, buffer;
  if (m->dead)
    return napi_ok;
  if (m->shared) {
    napi_value length;
    double len;
    NAPI_CHECK(shared_buffer(env, m, &buffer));
    if (buffer == NULL)
      return napi_ok;
    NAPI_CHECK(napi_get_named_property(env, buffer, "byteLength", &length));
    NAPI_CHECK(napi_get_value_double(env, length, &len));
    m->bytes = (uint64_t)len;
    return napi_ok;
  }
  bool detached = true;
  if (m->current == NULL && m->buffer != NULL) {
    NAPI_CHECK(napi_get_reference_value(env, m->buffer, &m->current));
    m->fresh = 1;
  }
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
  drop_ref(env, &m->buffer);
  NAPI_CHECK(napi_create_reference(env, buffer, 0, &m->buffer));
  m->current = buffer;
  m->fresh = 1;
  m->bytes = len;
  return napi_ok;
}

/* Maps a failed napi status to the seam's error, with a JS exception
 * pending. */
static int engine_failed(napi_env env) {
  ws_binding_throw_last(env);
  return WS_EENGINE;
}

/* Calls fn with no arguments (a trampoline function). */
static int call_trampoline(v8_engine *e, napi_ref fn) {
  napi_value f, ignored;
  if (napi_get_reference_value(e->env, fn, &f) != napi_ok ||
      napi_call_function(e->env, e->undefined, f, 0, NULL, &ignored) != napi_ok)
    return engine_failed(e->env);
  return 0;
}

/* Keeps value, whatever it is, as the run's error: boxed as { value }, since
 * a reference holds only objects before Node-API 10 and a target may throw a
 * string or undefined. */
static napi_status keep_error(v8_engine *e, napi_value value) {
  napi_value box;
  drop_ref(e->env, &e->error);
  NAPI_CHECK(napi_create_object(e->env, &box));
  NAPI_CHECK(napi_set_named_property(e->env, box, "value", value));
  return napi_create_reference(e->env, box, 1, &e->error);
}

/* Stores the pending exception (the call threw) as the run's error. */
static void take_exception(v8_engine *e) {
  napi_value exception;
  if (napi_get_and_clear_last_exception(e->env, &exception) == napi_ok)
    keep_error(e, exception);
}

/* ---- the seam ---- */

static int stage_args(ws_engine *base, uint32_t op, const ws_value *args, uint32_t n) {
  v8_engine *e = (v8_engine *)base;
  (void)op;
  /* A driven call stages in the driver's callback, whose handles end with
   * it: no scope of the engine's own there. */
  if (e->loop == NULL && recycle_scope(e) != napi_ok)
    return engine_failed(e->env);
  if (e->scenario || n == 0)
    return 0;
  if ((size_t)n * 8 > e->slots_len)
    return WS_EINVAL;
  for (uint32_t i = 0; i < n; i++) {
    uint8_t *slot = e->slots + 8 * (size_t)i;
    int32_t i32 = (int32_t)(uint32_t)args[i].i;
    float f32 = (float)args[i].f;
    switch (args[i].type) {
    case WS_VAL_I32:
      memcpy(slot, &i32, sizeof i32);
      break;
    case WS_VAL_I64:
      memcpy(slot, &args[i].i, sizeof args[i].i);
      break;
    case WS_VAL_F32:
      memcpy(slot, &f32, sizeof f32);
      break;
    default:
      memcpy(slot, &args[i].f, sizeof args[i].f);
    }
  }
  return 0;
}

static int call(ws_engine *base, uint32_t op) {
  v8_engine *e = (v8_engine *)base;
  napi_value result;
  napi_status status = e->scenario ? napi_call_function(e->env, e->recvs[op], e->fns[op],
                                                        2, e->scenario_args, &result)
                                   : napi_call_function(e->env, e->undefined, e->fns[op],
                                                        0, NULL, &result);
  if (status == napi_pending_exception) {
    take_exception(e);
    return WS_CALL_THREW;
  }
  if (status != napi_ok)
    return engine_failed(e->env);
  if (!e->scenario)
    return WS_CALL_RETURNED;
  bool is_promise = false;
  if (napi_is_promise(e->env, result, &is_promise) != napi_ok)
    return engine_failed(e->env);
  if (!is_promise)
    return WS_CALL_RETURNED;
  if (napi_create_reference(e->env, result, 1, &e->pending) != napi_ok)
    return engine_failed(e->env);
  return WS_CALL_PENDING;
}

static int memory_sizes(ws_engine *base, uint64_t *bytes, uint32_t n) {
  v8_engine *e = (v8_engine *)base;
  if (n > e->n_memories)
    return WS_EINVAL;
  for (uint32_t k = 0; k < n; k++) {
    v8_memory *m = &e->memories[k];
    if (e->loop != NULL && m->pages_slot >= 0) { /* the driver stored it */
      uint32_t pages;
      memcpy(&pages, e->slots + WS_DRIVER_PAGES + 4 * (size_t)m->pages_slot,
             sizeof pages);
      bytes[k] = m->bytes = (uint64_t)pages * (uint64_t)WS_PAGE_BYTES;
      continue;
    }
    if (refresh_memory(e->env, &e->memories[k]) != napi_ok)
      return engine_failed(e->env);
    bytes[k] = e->memories[k].bytes;
  }
  return 0;
}

/* Stores new Uint8Array(buffer) in *view: a view of the whole of a
 * SharedArrayBuffer, which napi_create_typedarray refuses (it takes an
 * ArrayBuffer only) but the JS constructor takes. */
static napi_status shared_view(napi_env env, napi_value buffer, napi_value *view) {
  napi_value global, ctor;
  NAPI_CHECK(napi_get_global(env, &global));
  NAPI_CHECK(napi_get_named_property(env, global, "Uint8Array", &ctor));
  return napi_new_instance(env, ctor, 1, &buffer, view);
}

static int memory_view(ws_engine *base, uint32_t k, uint8_t **data, size_t *len) {
  v8_engine *e = (v8_engine *)base;
  if (k >= e->n_memories)
    return WS_EINVAL;
  v8_memory *m = &e->memories[k];
  *data = NULL;
  *len = 0;
  if (refresh_memory(e->env, m) != napi_ok)
    return engine_failed(e->env);
  if (m->dead)
    return 0;
  if (!m->shared) {
    if (napi_get_arraybuffer_info(e->env, m->current, (void **)data, len) != napi_ok)
      return engine_failed(e->env);
    return 0;
  }
  /* A SharedArrayBuffer is read through a typed array over it. */
  napi_value buffer, view;
  void *bytes = NULL;
  if (shared_buffer(e->env, m, &buffer) != napi_ok || buffer == NULL ||
      shared_view(e->env, buffer, &view) != napi_ok ||
      ws_napi_typed_array(e->env, view, napi_uint8_array, &bytes, len) != napi_ok)
    return engine_failed(e->env);
  *data = bytes;
  return 0;
}

static int alloc(ws_engine *base, uint32_t len, uint32_t *ptr) {
  v8_engine *e = (v8_engine *)base;
  *ptr = 0;
  if (e->alloc_fn == NULL || e->slots_len < 16)
    return WS_EALLOC;
  memcpy(e->slots, &len, sizeof len);
  int rc = call_trampoline(e, e->alloc_fn);
  if (rc == 0)
    memcpy(ptr, e->slots + 8, sizeof *ptr);
  return rc;
}

static int free_block(ws_engine *base, uint32_t ptr, uint32_t len) {
  v8_engine *e = (v8_engine *)base;
  if (e->free_fn == NULL || e->slots_len < 16)
    return WS_EALLOC;
  memcpy(e->slots, &ptr, sizeof ptr);
  memcpy(e->slots + 8, &len, sizeof len);
  return call_trampoline(e, e->free_fn);
}

/* Leaves -1 as the driver's op (WS_DRIVER_OP): a driver run outside a
 * batch, whose next() stores nothing, stops at once. */
static void stop_driver(v8_engine *e) {
  int32_t none = -1;
  memcpy(e->slots + WS_DRIVER_OP, &none, sizeof none);
}

/* Runs a batch through the trampoline's driver: one call into JS, whose
 * loop asks v8_engine_next for each op. The memories' buffer handles are
 * read first, in the batch's scope, so that the calls reuse them. */
static int drive(ws_engine *base, ws_loop *loop) {
  v8_engine *e = (v8_engine *)base;
  forget_handles(e);
  for (uint32_t k = 0; k < e->n_memories; k++) {
    if (refresh_memory(e->env, &e->memories[k]) != napi_ok)
      return engine_failed(e->env);
    e->memories[k].fresh = 0;
  }
  v8_engine *outer = driving;
  napi_value ignored;
  e->loop = loop;
  driving = e;
  napi_status status =
      napi_call_function(e->env, e->undefined, e->drive_value, 0, NULL, &ignored);
  driving = outer;
  e->loop = NULL;
  forget_handles(e);
  stop_driver(e);
  if (status == napi_ok)
    return WS_CALL_RETURNED;
  if (status != napi_pending_exception)
    return engine_failed(e->env);
  /* A call threw; else the loop failed in the callback, which left its
   * error pending. */
  if (!ws_loop_calling(loop))
    return WS_EENGINE;
  take_exception(e);
  return WS_CALL_THREW;
}

static const ws_engine_ops v8_ops = {stage_args, call,       memory_sizes, memory_view,
                                     alloc,      free_block, NULL,         NULL};

static const ws_engine_ops v8_driven_ops = {
    stage_args, call, memory_sizes, memory_view, alloc, free_block, NULL, drive};

napi_value v8_engine_next(napi_env env, napi_callback_info info) {
  (void)env;
  (void)info;
  v8_engine *e = driving;
  if (e == NULL)
    return NULL;
  int32_t op = ws_loop_next(e->loop);
  forget_fresh(e);
  memcpy(e->slots + WS_DRIVER_OP, &op, sizeof op);
  return NULL;
}

/* ---- construction ---- */

/* Reads ops[k].fn and .recv into e->ops. */
static napi_status read_ops(napi_env env, napi_value opts, v8_engine *e) {
  napi_value ops;
  NAPI_CHECK(napi_get_named_property(env, opts, "ops", &ops));
  NAPI_CHECK(napi_get_array_length(env, ops, &e->n_ops));
  e->ops = calloc(e->n_ops + 1, sizeof *e->ops);
  e->fns = calloc(e->n_ops + 1, sizeof *e->fns);
  e->recvs = calloc(e->n_ops + 1, sizeof *e->recvs);
  if (e->ops == NULL || e->fns == NULL || e->recvs == NULL)
    return napi_generic_failure;
  for (uint32_t i = 0; i < e->n_ops; i++) {
    napi_value desc, fn;
    napi_valuetype type;
    NAPI_CHECK(napi_get_element(env, ops, i, &desc));
    NAPI_CHECK(napi_get_named_property(env, desc, "fn", &fn));
    NAPI_CHECK(napi_typeof(env, fn, &type));
    if (type != napi_function) {
      napi_throw_type_error(env, "WS_EINVAL", "every op needs a function");
      return napi_pending_exception;
    }
    NAPI_CHECK(napi_create_reference(env, fn, 1, &e->ops[i].fn));
    e->ops[i].recv = optional_ref(env, desc, "recv");
  }
  return napi_ok;
}

/* Reads the trampoline's slot memory (an ArrayBuffer) when there is one. */
static napi_status read_slots(napi_env env, napi_value opts, v8_engine *e) {
  e->slots_ref = optional_ref(env, opts, "slots");
  if (e->slots_ref == NULL)
    return napi_ok;
  napi_value slots;
  bool is_buffer = false;
  NAPI_CHECK(napi_get_reference_value(env, e->slots_ref, &slots));
  NAPI_CHECK(napi_is_arraybuffer(env, slots, &is_buffer));
  if (!is_buffer) {
    napi_throw_type_error(env, "WS_EINVAL", "slots must be the trampoline's ArrayBuffer");
    return napi_pending_exception;
  }
  return napi_get_arraybuffer_info(env, slots, (void **)&e->slots, &e->slots_len);
}

/* Reads desc.pagesSlot, where the driver stores memory m's size: -1 when
 * it is not a number, or there is no driver or no room for it. */
static napi_status read_pages_slot(napi_env env, napi_value desc, const v8_engine *e,
                                   v8_memory *m) {
  napi_value v;
  napi_valuetype type;
  int32_t slot = -1;
  NAPI_CHECK(napi_get_named_property(env, desc, "pagesSlot", &v));
  NAPI_CHECK(napi_typeof(env, v, &type));
  if (type == napi_number)
    NAPI_CHECK(napi_get_value_int32(env, v, &slot));
  int driven = e->base.ops->drive != NULL;
  m->pages_slot = driven && slot < WS_DRIVER_PAGES_MAX ? slot : -1;
  return napi_ok;
}

napi_status v8_engine_create(napi_env env, napi_value opts, v8_engine **out) {
  v8_engine *e = calloc(1, sizeof *e);
  if (e == NULL)
    return napi_generic_failure;
  e->base.ops = &v8_ops;
  e->env = env;
  *out = e;
  napi_value v;
  bool scenario = false;
  NAPI_CHECK(napi_get_named_property(env, opts, "scenario", &v));
  NAPI_CHECK(napi_coerce_to_bool(env, v, &v));
  NAPI_CHECK(napi_get_value_bool(env, v, &scenario));
  e->scenario = scenario;
  e->state = optional_ref(env, opts, "state");
  e->ctx = optional_ref(env, opts, "ctx");
  e->alloc_fn = optional_ref(env, opts, "alloc");
  e->free_fn = optional_ref(env, opts, "free");
  e->drive_fn = scenario ? NULL : optional_ref(env, opts, "drive");
  NAPI_CHECK(read_ops(env, opts, e));
  NAPI_CHECK(read_slots(env, opts, e));
  if (!e->scenario && e->slots == NULL) {
    napi_throw_type_error(env, "WS_EINVAL",
                          "a raw module's ops need the trampoline's slots");
    return napi_pending_exception;
  }
  if (e->drive_fn != NULL && e->slots_len >= WS_DRIVER_PAGES + 4 * WS_DRIVER_PAGES_MAX) {
    e->base.ops = &v8_driven_ops;
    stop_driver(e);
  }
  uint32_t n;
  napi_value memories;
  NAPI_CHECK(napi_get_named_property(env, opts, "memories", &memories));
  NAPI_CHECK(napi_get_array_length(env, memories, &n));
  for (uint32_t i = 0; i < n; i++) {
    napi_value desc, memory, shared;
    bool is_shared = false;
    NAPI_CHECK(napi_get_element(env, memories, i, &desc));
    NAPI_CHECK(napi_get_named_property(env, desc, "memory", &memory));
    NAPI_CHECK(napi_get_named_property(env, desc, "shared", &shared));
    NAPI_CHECK(napi_coerce_to_bool(env, shared, &shared));
    NAPI_CHECK(napi_get_value_bool(env, shared, &is_shared));
    NAPI_CHECK(v8_engine_add_memory(e, memory, is_shared));
    NAPI_CHECK(read_pages_slot(env, desc, e, &e->memories[i]));
  }
  return napi_ok;
}

ws_engine *v8_engine_base(v8_engine *engine) {
  return &engine->base;
}

uint32_t v8_engine_memories(const v8_engine *engine) {
  return engine->n_memories;
}

int v8_engine_shared(const v8_engine *engine, uint32_t k) {
  return k < engine->n_memories && engine->memories[k].shared;
}

napi_status v8_engine_add_memory(v8_engine *e, napi_value memory, int shared) {
  v8_memory *grown = realloc(e->memories, (e->n_memories + 1) * sizeof *grown);
  if (grown == NULL)
    return napi_generic_failure;
  e->memories = grown;
  v8_memory *m = &e->memories[e->n_memories];
  memset(m, 0, sizeof *m);
  m->shared = shared;
  m->pages_slot = -1;
  NAPI_CHECK(napi_create_reference(e->env, memory, 0, &m->memory));
  e->n_memories++;
  return refresh_memory(e->env, m);
}

napi_status v8_engine_begin_batch(v8_engine *e) {
  NAPI_CHECK(napi_get_undefined(e->env, &e->undefined));
  if (e->scenario) {
    NAPI_CHECK(ref_value(e->env, e->state, &e->scenario_args[0]));
    NAPI_CHECK(ref_value(e->env, e->ctx, &e->scenario_args[1]));
  }
  for (uint32_t i = 0; i < e->n_ops; i++) {
    NAPI_CHECK(napi_get_reference_value(e->env, e->ops[i].fn, &e->fns[i]));
    NAPI_CHECK(ref_value(e->env, e->ops[i].recv, &e->recvs[i]));
  }
  return ref_value(e->env, e->drive_fn, &e->drive_value);
}

void v8_engine_end_batch(v8_engine *e) {
  forget_handles(e);
  if (e->scope != NULL)
    napi_close_handle_scope(e->env, e->scope);
  e->scope = NULL;
  e->scope_calls = 0;
}

napi_status v8_engine_pending(v8_engine *e, napi_value *out) {
  return ref_value(e->env, e->pending, out);
}

napi_status v8_engine_settled(v8_engine *e, napi_value error) {
  drop_ref(e->env, &e->pending);
  if (error == NULL)
    return napi_ok;
  return keep_error(e, error);
}

napi_status v8_engine_error(v8_engine *e, napi_value *out) {
  napi_value box;
  if (e->error == NULL)
    return napi_get_undefined(e->env, out);
  NAPI_CHECK(napi_get_reference_value(e->env, e->error, &box));
  return napi_get_named_property(e->env, box, "value", out);
}

void v8_engine_destroy(v8_engine *e) {
  if (e == NULL)
    return;
  napi_env env = e->env;
  for (uint32_t i = 0; i < e->n_ops && e->ops != NULL; i++) {
    drop_ref(env, &e->ops[i].fn);
    drop_ref(env, &e->ops[i].recv);
  }
  for (uint32_t i = 0; i < e->n_memories; i++) {
    drop_ref(env, &e->memories[i].memory);
    drop_ref(env, &e->memories[i].buffer);
  }
  drop_ref(env, &e->state);
  drop_ref(env, &e->ctx);
  drop_ref(env, &e->slots_ref);
  drop_ref(env, &e->alloc_fn);
  drop_ref(env, &e->free_fn);
  drop_ref(env, &e->drive_fn);
  drop_ref(env, &e->pending);
  drop_ref(env, &e->error);
  free(e->ops);
  free(e->fns);
  free(e->recvs);
  free(e->memories);
  free(e);
}
