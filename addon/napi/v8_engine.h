/* The V8 engine: the engine seam (ws_engine.h) implemented with Node-API on
 * the worker's JS thread. Ops are JS functions: a scenario's run(state, ctx),
 * or, for a raw module, the argument trampoline's functions
 * (src/worker/targets/trampoline.js), which take their arguments from a slot
 * memory so that no call creates a JS value. Memories are held weakly and
 * re-read only after growth detaches their buffer. */
#ifndef WS_V8_ENGINE_H
#define WS_V8_ENGINE_H

#include <node_api.h>

#include "ws_engine.h"

typedef struct v8_engine v8_engine;

/* Creates an engine from createRunner's options (see addon/napi/runner.c):
 * ops[k].fn and .recv, scenario, state, ctx, slots, alloc, free, drive (a
 * raw module's trampoline driver: the engine then drives its batches,
 * ws_engine_ops.drive), memories.
 * Stores it in *out. Returns napi_ok, or a failed status with a JS exception
 * pending (napi_pending_exception when the options are invalid). */
napi_status v8_engine_create(napi_env env, napi_value opts, v8_engine **out);

/* Returns the engine's ws_engine, for ws_loop_create. */
ws_engine *v8_engine_base(v8_engine *engine);

/* Returns the number of memories the engine tracks. */
uint32_t v8_engine_memories(const v8_engine *engine);

/* Whether memory k is a shared one (other threads may write it while the
 * loop's thread reads it); 0 for an index not tracked. */
int v8_engine_shared(const v8_engine *engine, uint32_t k);

/* Tracks memory (shared != 0 for a SharedArrayBuffer memory) from now on,
 * weakly; its index is the previous count. */
napi_status v8_engine_add_memory(v8_engine *engine, napi_value memory, int shared);

/* Prepares a batch of calls in the current callback's handle scope: the ops'
 * function handles and the scenario's arguments. */
napi_status v8_engine_begin_batch(v8_engine *engine);

/* Ends a batch: closes the engine's own handle scope and forgets the handles
 * that lived in it. Call before the callback returns. */
void v8_engine_end_batch(v8_engine *engine);

/* Stores in *out the promise of the pending async call, or undefined. */
napi_status v8_engine_pending(v8_engine *engine, napi_value *out);

/* Drops the pending promise; when error is not NULL it becomes the run's
 * error (a rejected promise). */
napi_status v8_engine_settled(v8_engine *engine, napi_value error);

/* Stores in *out what the last failing call threw, or undefined. */
napi_status v8_engine_error(v8_engine *engine, napi_value *out);

/* loopNext(): the trampoline driver's callback. Stores at WS_DRIVER_OP of
 * the slots the op the loop of the batch the thread's driver runs wants
 * called next (ws_loop_next), or -1 when the batch ends; does nothing when
 * no batch is driven. Returns undefined. */
napi_value v8_engine_next(napi_env env, napi_callback_info info);

/* Releases every reference and frees engine; NULL is allowed. */
void v8_engine_destroy(v8_engine *engine);

#endif
