/* The native engine (ws_native.h): dlopen, dlsym and libffi behind the
 * engine seam. */
/* dladdr, to name where malloc comes from. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <ffi.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws.h"
#include "ws_native.h"

/* Most parameters of one native call: a buffer source takes two. */
#define MAX_CALL_PARAMS (2 * WS_MAX_PARAMS)

/* One argument's storage, as libffi reads it. */
typedef union {
  int32_t i32;
  int64_t i64;
  float f32;
  double f64;
  void *ptr;
} native_value;

typedef struct {
  void (*fn)(void);
  ffi_cif cif;
  ffi_type *types[MAX_CALL_PARAMS];
  native_value values[MAX_CALL_PARAMS];
  void *slots[MAX_CALL_PARAMS];
  uint8_t pointer[MAX_CALL_PARAMS]; /* 1: a buffer's pointer (the value a handle) */
  uint32_t n_params;
  int result; /* WS_VAL_*, or -1 */
} native_op;

struct ws_native {
  ws_engine base;
  void *library;
  native_op *ops;
  uint32_t n_ops;
  void *(*malloc_fn)(size_t);
  void (*free_fn)(void *);
  const char *malloc_origin;
  void *blocks[WS_MAX_PARAMS]; /* live buffers; handle k + 1 is blocks[k] */
  uint8_t *outputs;
  uint32_t capacity;
  struct mallinfo2 (*heap_fn)(void); /* the library's own mallinfo2, or NULL */
};

/* The libffi type of a WS_VAL_* type, or NULL. */
static ffi_type *ffi_type_of(int type) {
  switch (type) {
  case WS_VAL_I32:
    return &ffi_type_sint32;
  case WS_VAL_I64:
    return &ffi_type_sint64;
  case WS_VAL_F32:
    return &ffi_type_float;
  case WS_VAL_F64:
    return &ffi_type_double;
  default:
    return NULL;
  }
}

/* Converts a dlsym result to a function pointer (POSIX guarantees it). */
static void (*as_function(void *symbol))(void) {
  void (*fn)(void);
  memcpy(&fn, &symbol, sizeof fn);
  return fn;
}

/* Fills op's parameter types from spec (a buffer: pointer, i32) and
 * prepares its call interface. Returns 0 or WS_EINVAL. */
static int prepare_op(native_op *op, const ws_native_op *desc) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < desc->spec->n_args; i++) {
    const ws_arg_spec *a = &desc->spec->args[i];
    if (a->kind == WS_ARG_BUF) {
      op->pointer[n] = 1;
      op->types[n++] = &ffi_type_pointer;
      op->types[n++] = &ffi_type_sint32;
      continue;
    }
    if ((op->types[n++] = ffi_type_of(a->type)) == NULL)
      return WS_EINVAL;
  }
  for (uint32_t i = 0; i < n; i++)
    op->slots[i] = &op->values[i];
  op->n_params = n;
  op->result = desc->result;
  ffi_type *result = desc->result < 0 ? &ffi_type_void : ffi_type_of(desc->result);
  if (result == NULL ||
      ffi_prep_cif(&op->cif, FFI_DEFAULT_ABI, n, result, op->types) != FFI_OK)
    return WS_EINVAL;
  return 0;
}

/* The engine ops (ws_engine.h). stage_args: stores args as op's native
 * values, a buffer's handle as its block's address. */
static int stage_args(ws_engine *base, uint32_t op, const ws_value *args, uint32_t n) {
  ws_native *e = (ws_native *)base;
  if (op >= e->n_ops || n != e->ops[op].n_params)
    return WS_EINVAL;
  native_op *o = &e->ops[op];
  for (uint32_t i = 0; i < n; i++) {
    native_value *v = &o->values[i];
    if (o->pointer[i]) {
      uint64_t handle = (uint64_t)args[i].i;
      if (handle == 0 || handle > WS_MAX_PARAMS || e->blocks[handle - 1] == NULL)
        return WS_EINVAL;
      v->ptr = e->blocks[handle - 1];
    } else if (o->types[i] == &ffi_type_sint32)
      v->i32 = (int32_t)(uint32_t)args[i].i;
    else if (o->types[i] == &ffi_type_sint64)
      v->i64 = args[i].i;
    else if (o->types[i] == &ffi_type_float)
      v->f32 = (float)args[i].f;
    else
      v->f64 = args[i].f;
  }
  return 0;
}

/* The result of a call folded as a checked output (ws_protocol.h). */
static uint64_t fold(int type, const void *ret) {
  uint64_t bits = 0;
  if (type == WS_VAL_I32) {
    ffi_sarg v;
    memcpy(&v, ret, sizeof v);
    bits = (uint32_t)v;
  } else if (type == WS_VAL_I64) {
    int64_t v;
    memcpy(&v, ret, sizeof v);
    bits = (uint64_t)v;
  } else if (type == WS_VAL_F32) {
    uint32_t v;
    memcpy(&v, ret, sizeof v);
    bits = v;
  } else if (type == WS_VAL_F64) {
    memcpy(&bits, ret, sizeof bits);
  }
  return bits;
}

/* Calls op through libffi with its staged values and, with checked
 * outputs, stores its folded result. Always WS_CALL_RETURNED: a native call
 * cannot throw, and a crash ends the process. */
static int call(ws_engine *base, uint32_t op) {
  ws_native *e = (ws_native *)base;
  native_op *o = &e->ops[op];
  /* libffi widens small results to an ffi_arg. */
  union {
    ffi_arg word;
    int64_t i64;
    double f64;
    float f32;
  } ret = {0};
  ffi_call(&o->cif, o->fn, &ret, o->slots);
  if (e->outputs != NULL) {
    int32_t counter;
    memcpy(&counter, e->outputs + WS_OUTPUT_COUNTER, sizeof counter);
    uint64_t value = o->result < 0 ? 0 : fold(o->result, &ret);
    size_t at = WS_OUTPUT_VALUES + 8 * ((uint32_t)counter & (e->capacity - 1));
    memcpy(e->outputs + at, &value, sizeof value);
    counter++;
    memcpy(e->outputs + WS_OUTPUT_COUNTER, &counter, sizeof counter);
  }
  return WS_CALL_RETURNED;
}

/* A library has no linear memory: 0 memories, and no view. */
static int memory_sizes(ws_engine *base, uint64_t *bytes, uint32_t n) {
  (void)base;
  (void)bytes;
  return n == 0 ? 0 : WS_EINVAL;
}

static int memory_view(ws_engine *base, uint32_t k, uint8_t **data, size_t *len) {
  (void)base;
  (void)k;
  (void)data;
  (void)len;
  return WS_EINVAL;
}

/* Allocates len bytes (at least 1) with the library's malloc into a free
 * block slot; *ptr is the slot's handle, 0 when malloc returned NULL.
 * WS_EINVAL when every slot is taken. */
static int alloc(ws_engine *base, uint32_t len, uint32_t *ptr) {
  ws_native *e = (ws_native *)base;
  *ptr = 0;
  for (uint32_t k = 0; k < WS_MAX_PARAMS; k++) {
    if (e->blocks[k] != NULL)
      continue;
    /* A zero-length buffer still gets a block, as in wasm. */
    e->blocks[k] = e->malloc_fn(len > 0 ? len : 1);
    if (e->blocks[k] != NULL)
      *ptr = k + 1;
    return 0;
  }
  return WS_EINVAL;
}

/* Frees the block of handle ptr with the library's free. */
static int free_block(ws_engine *base, uint32_t ptr, uint32_t len) {
  ws_native *e = (ws_native *)base;
  (void)len;
  if (ptr == 0 || ptr > WS_MAX_PARAMS || e->blocks[ptr - 1] == NULL)
    return WS_EINVAL;
  e->free_fn(e->blocks[ptr - 1]);
  e->blocks[ptr - 1] = NULL;
  return 0;
}

/* Points *data at the block of handle ptr. */
static int buffer(ws_engine *base, uint32_t ptr, uint32_t len, uint8_t **data) {
  ws_native *e = (ws_native *)base;
  (void)len;
  if (ptr == 0 || ptr > WS_MAX_PARAMS || e->blocks[ptr - 1] == NULL)
    return WS_EINVAL;
  *data = e->blocks[ptr - 1];
  return 0;
}

static const ws_engine_ops native_ops = {
    stage_args, call, memory_sizes, memory_view, alloc, free_block, buffer, NULL};

/* Finds malloc and free from the library (its own, else those of the
 * objects it links, else the process's) and where malloc is defined. */
static void find_allocator(ws_native *e) {
  void *m = dlsym(e->library, "malloc");
  void *f = dlsym(e->library, "free");
  if (m == NULL || f == NULL) {
    m = dlsym(RTLD_DEFAULT, "malloc");
    f = dlsym(RTLD_DEFAULT, "free");
  }
  memcpy(&e->malloc_fn, &m, sizeof m);
  memcpy(&e->free_fn, &f, sizeof f);
  Dl_info info;
  if (dladdr(m, &info) != 0 && info.dli_fname != NULL)
    e->malloc_origin = info.dli_fname;
}

/* Finds a mallinfo2 the library itself defines (the C library's would
 * count the whole process's heap, Node's blocks included). */
static void find_heap(ws_native *e) {
  void *mi = dlsym(e->library, "mallinfo2");
  void *op;
  memcpy(&op, &e->ops[0].fn, sizeof op);
  Dl_info at, own;
  if (mi != NULL && dladdr(mi, &at) != 0 && dladdr(op, &own) != 0 &&
      at.dli_fbase == own.dli_fbase)
    memcpy(&e->heap_fn, &mi, sizeof mi);
}

int ws_native_open(const char *path, const ws_native_op *ops, uint32_t n_ops,
                   uint8_t *outputs, uint32_t capacity, ws_native **out, char *why,
                   size_t why_len) {
  if (why_len > 0)
    why[0] = '\0';
  if (n_ops == 0 || (outputs != NULL && (capacity == 0 || (capacity & (capacity - 1)))))
    return WS_EINVAL;
  ws_native *e = calloc(1, sizeof *e);
  if (e == NULL || (e->ops = calloc(n_ops, sizeof *e->ops)) == NULL) {
    free(e);
    return WS_ENOMEM;
  }
  e->base.ops = &native_ops;
  e->n_ops = n_ops;
  e->outputs = outputs;
  e->capacity = capacity;
  e->malloc_origin = "";
  e->library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (e->library == NULL) {
    const char *err = dlerror();
    snprintf(why, why_len, "%s", err != NULL ? err : "dlopen failed");
    ws_native_close(e);
    return WS_ELIBRARY;
  }
  int buffers = 0;
  for (uint32_t k = 0; k < n_ops; k++) {
    void *symbol = dlsym(e->library, ops[k].name);
    if (symbol == NULL) {
      snprintf(why, why_len, "%s", ops[k].name);
      ws_native_close(e);
      return WS_ESYMBOL;
    }
    e->ops[k].fn = as_function(symbol);
    int rc = prepare_op(&e->ops[k], &ops[k]);
    if (rc != 0) {
      snprintf(why, why_len, "%s", ops[k].name);
      ws_native_close(e);
      return rc;
    }
    for (uint32_t i = 0; i < ops[k].spec->n_args; i++)
      buffers |= ops[k].spec->args[i].kind == WS_ARG_BUF;
  }
  if (buffers)
    find_allocator(e);
  find_heap(e);
  *out = e;
  return 0;
}

ws_engine *ws_native_engine(ws_native *native) {
  return &native->base;
}

const char *ws_native_malloc_origin(const ws_native *native) {
  return native->malloc_origin;
}

int ws_native_heap(const ws_native *native, uint64_t *live, uint64_t *heap,
                   uint64_t *free_bytes) {
  if (native->heap_fn == NULL)
    return WS_ENOHEAP;
  struct mallinfo2 m = native->heap_fn();
  *live = m.uordblks;
  *heap = m.arena + m.hblkhd;
  *free_bytes = m.fordblks;
  return 0;
}

void ws_native_close(ws_native *native) {
  if (native == NULL)
    return;
  for (uint32_t k = 0; k < WS_MAX_PARAMS; k++)
    if (native->blocks[k] != NULL)
      native->free_fn(native->blocks[k]);
  free(native->ops);
  free(native);
}
