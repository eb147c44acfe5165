/* The protocol between the C core and JavaScript: the record every call and
 * sample becomes, the ring's control words, the loop's statuses, argument
 * kinds and value types, allocation counters, metric ids, the log's magic,
 * series roles and finding kinds. Each list is written once here, as an
 * X-macro X(NAME, value, "jsName"), and generates both the C enum and the
 * binding's `constants` export (addon/napi/constants.c): JavaScript never
 * restates one of these numbers (src/protocol.js re-exports them). Layout of
 * records and the log: docs/log-format.md. */
#ifndef WS_PROTOCOL_H
#define WS_PROTOCOL_H

#include <stdint.h>

/* ---- Records ---- */

/* One fixed-size record: a call, a slow-cadence metric, a mark or a call's
 * allocation counters. Fields by type: docs/log-format.md. */
typedef struct {
  uint8_t type;       /* WS_REC_* */
  uint8_t flags;      /* WS_FLAG_* (calls) */
  uint16_t op;        /* op index (calls), metric id (metrics), mark kind (marks) */
  uint32_t iteration; /* the call it belongs to */
  uint64_t a;         /* call: elapsed ns; metric: value; mark: first argument */
  uint64_t b;         /* call: tracked memory bytes after it; mark: second argument */
  uint64_t t;         /* ns since the run's start */
} ws_record;

#define WS_RECORD_SIZE 32
_Static_assert(sizeof(ws_record) == WS_RECORD_SIZE, "records are 32 bytes");

#define WS_RECORD_TYPES(X)                                                               \
  X(CALL, 1, "call")                                                                     \
  X(METRIC, 2, "metric")                                                                 \
  X(MARK, 3, "mark")                                                                     \
  X(ALLOC, 4, "alloc")

#define WS_RECORD_FLAGS(X)                                                               \
  X(GREW, 1, "grew")   /* tracked memory grew during the call */                         \
  X(THREW, 2, "threw") /* the call threw (or its promise rejected) */                    \
  X(ASYNC, 4, "async") /* the call returned a promise; its time includes settling */

/* Slow-cadence metric ids; tracked memory k is WS_METRIC_MEMORY_BASE + k. */
#define WS_METRICS(X)                                                                    \
  X(RSS, 1, "rss")                                                                       \
  X(JS_HEAP, 2, "jsHeap")                                                                \
  X(LIVE_BYTES, 3, "liveBytes")                                                          \
  X(HEAP_BYTES, 4, "heapBytes")                                                          \
  X(JS_HEAP_AFTER_GC, 5, "jsHeapAfterGC")                                                \
  X(HEAP_TOP, 6, "heapTop")                                                              \
  X(STACK_POINTER, 7, "stackPointer")                                                    \
  X(ALLOCATOR_LIVE, 8, "allocatorLive")                                                  \
  X(ALLOCATOR_HEAP, 9, "allocatorHeap")                                                  \
  X(ALLOCATOR_FREE, 10, "allocatorFree")
#define WS_METRIC_MEMORY_BASE 256

#define WS_MARKS(X)                                                                      \
  X(BACKPRESSURE, 1, "backpressure")    /* a: ns the loop waited for the consumer */     \
  X(MEMORY_TRACKED, 2, "memoryTracked") /* a: memory index, b: its bytes */              \
  X(END, 3, "end")                      /* the run ended cleanly; a: iterations */

/* Allocation counters of one call (counting pass), in the order of the
 * Float64Array the allocator hooks update. */
#define WS_COUNTERS(X)                                                                   \
  X(ALLOCS, 0, "allocs")                                                                 \
  X(FREES, 1, "frees")                                                                   \
  X(BYTES, 2, "bytes")                                                                   \
  X(LIVE, 3, "live")                                                                     \
  X(PEAK, 4, "peak")
#define WS_COUNT_FIELDS 5

/* ---- Ring ---- */

/* Int32 control words at the start of the ring's SharedArrayBuffer. */
#define WS_RING_CONTROL(X)                                                               \
  X(WRITE, 0, "write")         /* records published (u32, wraps) */                      \
  X(READ, 1, "read")           /* records consumed (u32, wraps) */                       \
  X(CAPACITY, 2, "capacity")   /* slots, a power of two */                               \
  X(STOP, 3, "stop")           /* main thread -> loop: stop after this call */           \
  X(ITERATION, 4, "iteration") /* loop -> scenario ctx: the current iteration */         \
  X(WAITING, 5, "waiting")     /* 1 while back-pressure holds the loop */                \
  X(CALL, 6, "call")           /* loop -> watchdog: 1 + op of the call in progress */    \
  X(PHASE, 7, "phase")         /* worker -> watchdog: a WS_PHASE_* */                    \
  X(EXIT, 8, "exit")           /* worker -> main: a target's process.exit, see below */

/* The EXIT word, once a target called process.exit(code): bit 8 set, the
 * code's low 8 bits in bits 0-7, and in bits 9 and up the CALL word of that
 * moment (1 + the op in progress, 0 outside a call). */

/* What the worker is doing, in its PHASE control word (the main thread's
 * watchdog names a hang by it). */
#define WS_WORKER_PHASES(X)                                                              \
  X(LOAD, 0, "load")            /* loading the target */                                 \
  X(SETUP, 1, "setup")          /* the scenario's setup(ctx) */                          \
  X(LOOP, 2, "loop")            /* the C loop (a call when CALL is not 0) */             \
  X(PENDING, 3, "pending")      /* awaiting the promise an op returned */                \
  X(STATS, 4, "stats")          /* a slow sample, the scenario's stats() included */     \
  X(EVENT_LOOP, 5, "eventLoop") /* yielding to the worker's event loop */                \
  X(TEARDOWN, 6, "teardown")    /* the scenario's teardown(state, ctx) */                \
  X(END, 7, "end")              /* done: posting the outcome */
#define WS_CTL_WORDS 16
#define WS_RING_HEADER_BYTES (WS_CTL_WORDS * 4)

/* ---- The loop ---- */

/* What one batch of the loop ended on (ws_loop_run). */
#define WS_LOOP_STATUSES(X)                                                              \
  X(YIELD, 0, "yield")       /* the batch's count or time budget is spent */             \
  X(DONE, 1, "done")         /* the run's iterations are done */                         \
  X(STOPPED, 2, "stopped")   /* the consumer asked the loop to stop */                   \
  X(DEADLINE, 3, "deadline") /* the run's duration is spent */                           \
  X(THREW, 4, "threw")       /* a call threw; its record is written */                   \
  X(ASYNC, 5, "async")       /* a call returned a promise: settle it, then run again */  \
  X(FULL, 6, "full")         /* the ring is too full for the next call */

/* Where one argument of a raw module's op comes from. */
#define WS_ARG_KINDS(X)                                                                  \
  X(ITERATION, 0, "iter") /* the iteration index */                                      \
  X(RANDOM, 1, "random")  /* a seeded integer in [lo, hi] */                             \
  X(BUF, 2, "buf")        /* a seeded buffer of [lo, hi] bytes: pointer, length */       \
  X(CONST, 3, "const")    /* the constant lo */

/* The wasm value type of one parameter. */
#define WS_VALUE_TYPES(X)                                                                \
  X(I32, 0, "i32")                                                                       \
  X(I64, 1, "i64")                                                                       \
  X(F32, 2, "f32")                                                                       \
  X(F64, 3, "f64")

/* ---- Analysis ---- */

/* What a memory series measures, for classification. */
#define WS_SERIES_ROLES(X)                                                               \
  X(LINEAR, 1, "linear")        /* total linear memory (every tracked memory) */         \
  X(LINEAR_ONE, 2, "linearOne") /* one tracked memory */                                 \
  X(HEAP, 3, "heap")            /* allocator heap size or heap top */                    \
  X(LIVE, 4, "live")            /* live (allocated, not freed) bytes */                  \
  X(JS_HEAP, 5, "jsHeap")       /* the worker's V8 heap retained after full GCs */       \
  X(STACK, 6, "stack")          /* shadow stack depth: first stack pointer minus now */

/* Finding kinds, most severe first: the order is the severity order (a
 * verdict is the most severe finding's kind, "stable" without one). */
#define WS_FINDING_KINDS(X)                                                              \
  X(STACK_DRIFT, 1, "stack-drift")                                                       \
  X(LEAK, 2, "leak")                                                                     \
  X(FRAGMENTATION, 3, "fragmentation")                                                   \
  X(GROWTH, 4, "growth")                                                                 \
  X(JS_HEAP_GROWTH, 5, "js-heap-growth")                                                 \
  X(SLOWDOWN, 6, "slowdown")

/* ---- Log ---- */

#define WS_LOG_MAGIC "WASMSOAK"
#define WS_LOG_VERSION 1u

/* ---- The enums ---- */

#define WS_PROTOCOL_ENUM(prefix, name, value) prefix##name = (value),
#define WS_REC_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_REC_, name, value)
#define WS_FLAG_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_FLAG_, name, value)
#define WS_METRIC_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_METRIC_, name, value)
#define WS_MARK_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_MARK_, name, value)
#define WS_COUNT_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_COUNT_, name, value)
#define WS_CTL_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_CTL_, name, value)
#define WS_PHASE_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_PHASE_, name, value)
#define WS_STATUS_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_STATUS_, name, value)
#define WS_ARG_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_ARG_, name, value)
#define WS_VAL_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_VAL_, name, value)
#define WS_ROLE_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_ROLE_, name, value)
#define WS_KIND_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_KIND_, name, value)

enum { WS_RECORD_TYPES(WS_REC_ENUM) };
enum { WS_RECORD_FLAGS(WS_FLAG_ENUM) };
enum { WS_METRICS(WS_METRIC_ENUM) };
enum { WS_MARKS(WS_MARK_ENUM) };
enum { WS_COUNTERS(WS_COUNT_ENUM) };
enum { WS_RING_CONTROL(WS_CTL_ENUM) };
enum { WS_WORKER_PHASES(WS_PHASE_ENUM) };
enum { WS_LOOP_STATUSES(WS_STATUS_ENUM) };
enum { WS_ARG_KINDS(WS_ARG_ENUM) };
enum { WS_VALUE_TYPES(WS_VAL_ENUM) };
enum { WS_SERIES_ROLES(WS_ROLE_ENUM) };
enum { WS_KIND_STABLE = 0, WS_FINDING_KINDS(WS_KIND_ENUM) WS_KIND_COUNT };

/* Returns the kind's name ("stable", "leak", ...), or "unknown". */
const char *ws_kind_name(int kind);

#endif
