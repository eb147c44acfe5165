/* The native engine: the engine seam (ws_engine.h) over a shared library
 * built for this host from the same source as a wasm arm (compare's native
 * arm, docs/compare.md). The library is opened with dlopen, each op is a
 * function found with dlsym and called through libffi with the C types its
 * wasm signature gives (i32: int32_t, i64: int64_t, f32: float, f64:
 * double), except that a buffer argument's pointer is a native pointer.
 * Buffers come from the malloc and free that dlsym finds from the library:
 * its own when it defines them, else those of a library it links, else the
 * process's. It has no linear memory.
 * Runs on the loop's thread; a crash in the library ends the process, so
 * callers run it in a process of its own. */
#ifndef WS_NATIVE_H
#define WS_NATIVE_H

#include <stddef.h>
#include <stdint.h>

#include "ws_engine.h"
#include "ws_loop.h"

/* One op of the library: its exported name, its arguments as the loop
 * builds them (ws_op_spec: each source's kind and wasm type; a buffer source
 * is a pointer and an i32 length) and its result's WS_VAL_* type, or -1 for
 * none. */
typedef struct {
  const char *name;
  const ws_op_spec *spec;
  int result;
} ws_native_op;

typedef struct ws_native ws_native;

/* Opens the library at path and finds ops[0..n_ops) (names copied) in it,
 * and its malloc and free when any op takes a buffer. outputs: NULL, or the
 * checked outputs' region (ws_protocol.h WS_OUTPUT_*; borrowed, it must
 * outlive the engine) with room for capacity values (a power of two). On
 * failure writes into why[0..why_len) dlerror's text, or the name of the
 * op that is missing or has a type libffi cannot pass. Stores the engine in
 * *out. Returns 0, WS_ELIBRARY (dlopen failed), WS_ESYMBOL (an op is not
 * found), WS_EINVAL (an argument type libffi cannot pass, or no op) or
 * WS_ENOMEM. */
int ws_native_open(const char *path, const ws_native_op *ops, uint32_t n_ops,
                   uint8_t *outputs, uint32_t capacity, ws_native **out, char *why,
                   size_t why_len);

/* Returns the engine's ws_engine, for ws_loop_create. */
ws_engine *ws_native_engine(ws_native *native);

/* Returns the path of the object that defines the malloc buffers come from
 * (the library itself, or the C library it links), or "" when no op takes a
 * buffer or it is not known. Static for the engine's life. */
const char *ws_native_malloc_origin(const ws_native *native);

/* Reads the library's own heap statistics, when it defines a mallinfo2 of
 * its own (glibc's layout): live (uordblks), heap (arena + hblkhd) and free
 * (fordblks) bytes. Returns 0, or WS_ENOHEAP when it defines none (the C
 * library's would count the whole process's heap). Between calls only. */
int ws_native_heap(const ws_native *native, uint64_t *live, uint64_t *heap,
                   uint64_t *free_bytes);

/* Frees the buffers still allocated and the engine. The library stays
 * loaded until the process ends: its static data may still hold its blocks
 * (a leak checker's roots), and its destructors run at exit. NULL is
 * allowed. */
void ws_native_close(ws_native *native);

#endif
