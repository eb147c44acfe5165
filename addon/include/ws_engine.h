/* The engine seam: what the loop (ws_loop.h) needs from whatever runs the
 * module. The first engine is V8 through Node-API (addon/napi/v8_engine.c);
 * the native engine (ws_native.h) calls a shared library built from the
 * same source. An engine embeds ws_engine as its
 * first member; every function takes that pointer back. All of them run on
 * the loop's thread. */
#ifndef WS_ENGINE_H
#define WS_ENGINE_H

#include <stddef.h>
#include <stdint.h>

/* One argument of a call: a wasm value of type WS_VAL_*. Integer types use
 * i (an i32 is its low 32 bits), float types use f. */
typedef struct {
  uint8_t type;
  int64_t i;
  double f;
} ws_value;

/* What a call did (ws_engine_ops.call). */
enum {
  WS_CALL_RETURNED = 0, /* returned normally */
  WS_CALL_THREW = 1,    /* threw or trapped; the engine keeps the error */
  WS_CALL_PENDING = 2   /* returned a promise: the call ends at ws_loop_settle */
};

typedef struct ws_engine ws_engine;
struct ws_loop;

typedef struct {
  /* Stages args[0..n) for the next call of op, outside the timed region.
   * Returns 0 or a negative WS_E* code. */
  int (*stage_args)(ws_engine *engine, uint32_t op, const ws_value *args, uint32_t n);
  /* Calls op with the staged arguments; this is all the loop times. Returns
   * WS_CALL_*, or WS_EENGINE when the engine itself failed. */
  int (*call)(ws_engine *engine, uint32_t op);
  /* Stores the current size of memories 0..n-1 in bytes[0..n) (0 for one the
   * module dropped). Called after every call, once for all memories: it must
   * be cheap. Returns 0, WS_EINVAL (n exceeds the memories), or WS_EENGINE. */
  int (*memory_sizes)(ws_engine *engine, uint64_t *bytes, uint32_t n);
  /* Points *data at memory k's bytes and stores their count in *len. The view
   * stays valid until the next call into the module. The loop writes only
   * buffers it allocated; the heap census only reads. Returns 0 or
   * WS_EENGINE. */
  int (*memory_view)(ws_engine *engine, uint32_t k, uint8_t **data, size_t *len);
  /* Allocates len bytes with the module's allocator (buffer arguments) and
   * stores the address in *ptr (0 when it failed). Returns 0 or WS_EENGINE. */
  int (*alloc)(ws_engine *engine, uint32_t len, uint32_t *ptr);
  /* Frees a block from alloc; len is what was asked for (sized
   * deallocators use it). Returns 0 or WS_EENGINE. */
  int (*free)(ws_engine *engine, uint32_t ptr, uint32_t len);
  /* Points *data at the len bytes of the block alloc stored as ptr, for an
   * engine whose blocks are not in a memory the loop views (ws_native.h):
   * then alloc's ptr is a handle. NULL for an engine whose blocks are
   * offsets into memory buffer_memory (ws_loop_config), which the loop
   * reaches through memory_view. Returns 0 or WS_EINVAL (no such block). */
  int (*buffer)(ws_engine *engine, uint32_t ptr, uint32_t len, uint8_t **data);
  /* Makes a batch of loop's calls itself, for an engine whose calls cost
   * less from inside the module than from C (V8: a call into JS costs more
   * than a call out of it): asks ws_loop_next for each op, calls it with
   * the staged arguments, and asks again when it returns, until
   * ws_loop_next returns -1. Returns WS_CALL_RETURNED then, WS_CALL_THREW
   * when a call threw (it stops there), or WS_EENGINE. NULL: the loop calls
   * `call` once per call. */
  int (*drive)(ws_engine *engine, struct ws_loop *loop);
} ws_engine_ops;

struct ws_engine {
  const ws_engine_ops *ops;
};

#endif
