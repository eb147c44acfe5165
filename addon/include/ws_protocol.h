/* The protocol between the C core and JavaScript: the record every call and
 * sample becomes, the ring's control words, the loop's statuses, argument
 * kinds and value types, allocation counters, metric ids, the heap census's
 * allocator kinds, the log's magic, series roles, finding kinds with their
 * gates, run statuses and exit codes. Each list is written once here, as an
 * X-macro X(NAME, value, "jsName") (finding kinds add their gate, census
 * kinds their description, from their families' rows), and
 * generates both the C enum and the binding's `constants` export
 * (addon/napi/constants.c): JavaScript never restates one of these numbers
 * (src/protocol.js re-exports them). Layout of records and the log:
 * docs/log-format.md. */
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
  uint32_t iteration; /* the call it belongs to: its low 32 bits (ws_iteration_near) */
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
  X(ALLOC, 4, "alloc")                                                                   \
  X(SUMMARY, 5, "summary") /* a thinned log's per-op summary of a block of calls */      \
  X(GROW_FAILED, 6, "growFailed") /* a memory.grow failed (WS_GROW_REASONS) */

#define WS_RECORD_FLAGS(X)                                                               \
  X(GREW, 1, "grew")   /* tracked memory grew during the call */                         \
  X(THREW, 2, "threw") /* the call threw (or its promise rejected) */                    \
  X(ASYNC, 4, "async") /* the call returned a promise; its time includes settling */     \
  X(PREEMPTED, 8, "preempted") /* the thread was preempted during the call (long         \
                                * calls only: ws_loop.h) */

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
  X(ALLOCATOR_FREE, 10, "allocatorFree")                                                 \
  /* Heap census (ws_census.h), read from linear memory: */                              \
  X(CENSUS_LIVE, 11, "censusLive")                   /* payload of in-use chunks */      \
  X(CENSUS_LIVE_GROSS, 12, "censusLiveGross")        /* in-use chunks, headers too */    \
  X(CENSUS_FREE, 13, "censusFree")                   /* free chunks, top excluded */     \
  X(CENSUS_FREE_CHUNKS, 14, "censusFreeChunks")      /* their count */                   \
  X(CENSUS_LARGEST_FREE, 15, "censusLargestFree")    /* the largest of them */           \
  X(CENSUS_TOP, 16, "censusTop")                     /* top (wilderness) chunk */        \
  X(CENSUS_CHUNKS, 17, "censusChunks")               /* in-use + free chunks */          \
  X(CENSUS_FRAGMENTATION, 18, "censusFragmentation") /* per mille */                     \
  X(CENSUS_HEAP, 19, "censusHeap")                   /* bytes the segments span */       \
  X(CENSUS_KIND, 20, "censusKind")                   /* WS_CENSUS_KINDS */               \
  X(CENSUS_STATE, 21, "censusState")                 /* the state's address */           \
  X(CENSUS_WALK_NS, 22, "censusWalkNs")              /* locate + walk time */            \
  /* The machine (ws_control.h), between batches: */                                     \
  X(CONTROL_NS, 23, "controlNs")      /* one run of the reference workload, ns */        \
  X(THREAD_CPU_NS, 24, "threadCpuNs") /* the loop thread's CPU time so far */            \
  X(PREEMPTIONS, 25, "preemptions")   /* its involuntary context switches so far */      \
  /* After a full GC whose finalizers have run (scenarios, src/worker/held.js): */       \
  X(CENSUS_LIVE_HELD, 26, "censusLiveHeld") /* census live bytes, then */                \
  X(CENSUS_HELD_NS, 27, "censusHeldNs")     /* that sample's GC, finalizers, census */   \
  /* The same moments, the worker threads a scenario's target started                    \
   * (src/worker/thread-heaps.js): their V8 heaps after their own full GCs,              \
   * summed, when every one alive answered: */                                           \
  X(THREADS_JS_HEAP, 28, "threadsJsHeap")                                                \
  /* In-use chunks of [2^k, 2^(k+1)) bytes: id WS_METRIC_CENSUS_CLASS_BASE + k. */       \
  X(CENSUS_CLASS_16, 68, "censusClass16")                                                \
  X(CENSUS_CLASS_32, 69, "censusClass32")                                                \
  X(CENSUS_CLASS_64, 70, "censusClass64")                                                \
  X(CENSUS_CLASS_128, 71, "censusClass128")                                              \
  X(CENSUS_CLASS_256, 72, "censusClass256")                                              \
  X(CENSUS_CLASS_512, 73, "censusClass512")                                              \
  X(CENSUS_CLASS_1K, 74, "censusClass1K")                                                \
  X(CENSUS_CLASS_2K, 75, "censusClass2K")                                                \
  X(CENSUS_CLASS_4K, 76, "censusClass4K")                                                \
  X(CENSUS_CLASS_8K, 77, "censusClass8K")                                                \
  X(CENSUS_CLASS_16K, 78, "censusClass16K")                                              \
  X(CENSUS_CLASS_32K, 79, "censusClass32K")                                              \
  X(CENSUS_CLASS_64K, 80, "censusClass64K")                                              \
  X(CENSUS_CLASS_128K, 81, "censusClass128K")                                            \
  X(CENSUS_CLASS_256K, 82, "censusClass256K")                                            \
  X(CENSUS_CLASS_512K, 83, "censusClass512K")                                            \
  X(CENSUS_CLASS_1M, 84, "censusClass1M")                                                \
  X(CENSUS_CLASS_2M, 85, "censusClass2M")                                                \
  X(CENSUS_CLASS_4M, 86, "censusClass4M")                                                \
  X(CENSUS_CLASS_8M, 87, "censusClass8M")                                                \
  X(CENSUS_CLASS_16M, 88, "censusClass16M")                                              \
  X(CENSUS_CLASS_32M, 89, "censusClass32M")                                              \
  X(CENSUS_CLASS_64M, 90, "censusClass64M")                                              \
  X(CENSUS_CLASS_128M, 91, "censusClass128M")                                            \
  X(CENSUS_CLASS_256M, 92, "censusClass256M")                                            \
  X(CENSUS_CLASS_512M, 93, "censusClass512M")                                            \
  X(CENSUS_CLASS_1G, 94, "censusClass1G")                                                \
  X(CENSUS_CLASS_2G, 95, "censusClass2G")
#define WS_METRIC_MEMORY_BASE 256
#define WS_METRIC_CENSUS_CLASS_BASE 64
/* One heap census per tracked memory: the census of memory k records the
 * CENSUS_* series above under their ids plus k * WS_METRIC_CENSUS_STRIDE
 * (memory 0 under the ids as listed), for the first WS_CENSUS_MEMORIES
 * memories. */
#define WS_METRIC_CENSUS_STRIDE 1024
#define WS_CENSUS_MEMORIES 64

#define WS_MARKS(X)                                                                      \
  X(BACKPRESSURE, 1, "backpressure")    /* a: ns the loop waited for the consumer */     \
  X(MEMORY_TRACKED, 2, "memoryTracked") /* a: memory index, b: its bytes */              \
  X(END, 3, "end")                      /* the run ended cleanly; a: iterations */       \
  X(THINNED, 4, "thinned")     /* from iteration b on, one call in 2^a is logged */      \
  X(ITERATION, 5, "iteration") /* a: the full 64-bit iteration (an anchor) */

/* The loop writes an iteration mark at every multiple of 2^WS_ITERATION_ANCHOR_SHIFT
 * iterations (and at its first call when the counter does not start at 0):
 * records carry the low 32 bits of their iteration, and a reader unwraps them
 * (ws_iteration_near), so no two records it reads one after the other are
 * 2^31 iterations apart. */
#define WS_ITERATION_ANCHOR_SHIFT 30

/* Why a memory.grow failed (a GROW_FAILED record's flags): the memory's
 * size plus the pages asked for passed ... */
#define WS_GROW_REASONS(X)                                                               \
  X(DECLARED_MAXIMUM, 1, "declared-maximum") /* ... its declared maximum */              \
  X(WASM32_LIMIT, 2, "wasm32-limit")         /* ... the 4 GiB of wasm32 */               \
  X(REFUSED, 3, "refused") /* neither: the engine refused below the limit */
/* The op of a record written outside a call (a GROW_FAILED record of a
 * memory.grow in stats() or between calls). */
#define WS_NO_OP 0xffff

/* Allocation counters of one call (counting pass), in the order of the
 * Float64Array the allocator hooks update. */
#define WS_COUNTERS(X)                                                                   \
  X(ALLOCS, 0, "allocs")                                                                 \
  X(FREES, 1, "frees")                                                                   \
  X(BYTES, 2, "bytes")                                                                   \
  X(LIVE, 3, "live")                                                                     \
  X(PEAK, 4, "peak")
#define WS_COUNT_FIELDS 5

/* What the instrumented allocator reports (its event's kind argument). */
#define WS_ALLOC_EVENTS(X)                                                               \
  X(ALLOC, 1, "alloc")     /* ptr: the new block, size: bytes requested */               \
  X(FREE, 2, "free")       /* ptr: the block freed */                                    \
  X(REALLOC, 3, "realloc") /* ptr: the new block, size, old: the block it replaces */

/* Allocation sites (counting pass with --sites, ws_sites.h). A site is the
 * module, the op and the WS_SITE_FRAMES innermost wasm functions (original
 * function indices, the allocator's caller first; WS_SITE_NO_FRAME past the
 * stack's bottom) at the allocator's entry. The allocator hook appends
 * events of WS_SITE_EVENT_INTS Int32 fields, frames last, to a buffer the
 * core applies in batches. */
#define WS_SITE_FRAMES 16
#define WS_SITE_NO_FRAME (-1)
#define WS_SITE_EVENT_FIELDS(X)                                                          \
  X(KIND, 0, "kind")      /* a WS_ALLOC_EVENTS value */                                  \
  X(MODULE, 1, "module")  /* the instrumented module (0, 1, ...) */                      \
  X(OP, 2, "op")          /* the op of the call; WS_SITE_NO_OP outside calls */          \
  X(PTR, 3, "ptr")        /* u32 */                                                      \
  X(SIZE, 4, "size")      /* u32 */                                                      \
  X(OLD_PTR, 5, "oldPtr") /* u32, realloc only */                                        \
  X(FRAMES, 6, "frames")  /* the first of WS_SITE_FRAMES frames */
#define WS_SITE_EVENT_INTS (6 + WS_SITE_FRAMES)
#define WS_SITE_NO_OP (-1)
/* A site's key, as sitesSnapshot returns it: module, op, then its frames. */
#define WS_SITE_KEY_INTS (2 + WS_SITE_FRAMES)
/* A site's totals (doubles), as sitesSnapshot returns them. */
#define WS_SITE_VALUES(X)                                                                \
  X(LIVE_BYTES, 0, "liveBytes")   /* requested bytes of its blocks still live */         \
  X(LIVE_BLOCKS, 1, "liveBlocks") /* its blocks still live */                            \
  X(ALLOCS, 2, "allocs")          /* blocks it allocated */                              \
  X(ALLOC_BYTES, 3, "allocBytes") /* bytes it requested */                               \
  X(FREES, 4, "frees")            /* its blocks freed (by anyone) */
#define WS_SITE_VALUE_FIELDS 5

/* The allocator families the heap census recognises (ws_census.h), in the
 * order they win ties: F(family, "name", "sought", kinds). family names its
 * walker's object, ws__<family>_family (addon/core/census/ws_<family>.c:
 * its scan and walk); name is the family as a search says what it tried;
 * sought, the state it looks for, as a search that found none says; kinds,
 * the kinds it reports, each K(NAME, id, "jsName", "description"). A
 * kind's id is protocol (the censusKind series, CENSUS_KIND in JS): kept
 * when rows move, never reused; a new kind takes the next free id. Adding a
 * family is its walker file and a row here; the driver's table, the
 * externs, the kinds and their texts, here and in JS, follow. */
/* clang-format off */
#define WS_CENSUS_FAMILIES(F, K)                                                         \
  F(dlmalloc, "dlmalloc", "a dlmalloc top chunk",                                        \
    K(DLMALLOC, 1, "dlmalloc",                                                           \
      "dlmalloc, C layout (dlmalloc 2.8: wasi-libc, Emscripten)")                        \
    K(DLMALLOC_RUST, 2, "dlmallocRust", "dlmalloc, Rust crate layout")                   \
    K(DLMALLOC_OTHER, 3, "dlmallocOther", "dlmalloc chunks, another state layout"))      \
  F(emmalloc, "emmalloc", "an emmalloc block list",                                      \
    K(EMMALLOC, 4, "emmalloc", "emmalloc"))                                              \
  F(tlsf, "AssemblyScript TLSF", "a TLSF root",                                          \
    K(TLSF, 5, "tlsf",                                                                   \
      "AssemblyScript TLSF (the runtime's allocator, 0.9 and 0.20 on)"))                 \
  F(wee, "wee_alloc", "a wee_alloc table",                                               \
    K(WEE, 7, "weeAlloc", "wee_alloc (Rust, size classes)"))                             \
  F(bump, "bump (never frees)", "a heap top with untouched memory above it",             \
    K(BUMP, 6, "bump",                                                                   \
      "a heap that never frees (bump allocator): every allocation stays live"))
/* clang-format on */

/* A K of WS_CENSUS_FAMILIES for a use that needs the rows alone. Stays
 * defined: it is an argument other files pass, not a generator. */
#define WS_CENSUS_NO_KIND(name, value, js, text)

/* The census kinds, none first, then every family's:
 * X(NAME, id, "jsName", "description"). WS__CENSUS_FAMILY_KINDS is part of
 * the list (expanded with it, wherever it is used), so it stays defined. */
#define WS__CENSUS_FAMILY_KINDS(family, name, sought, kinds) kinds
#define WS_CENSUS_KINDS(X)                                                               \
  X(NONE, 0, "none", "none") /* nothing recognised */                                    \
  WS_CENSUS_FAMILIES(WS__CENSUS_FAMILY_KINDS, X)

/* ---- Ring ---- */

/* What the STOP word asks of the loop. */
#define WS_STOP_REQUESTS(X)                                                              \
  X(AFTER_CALL, 1, "afterCall") /* stop after the call in progress */                    \
  X(ABANDON, 2, "abandon")      /* the worker is being terminated: a call that returns   \
                                 * as thrown was cut short, not completed */

/* Int32 control words at the start of the ring's SharedArrayBuffer. */
#define WS_RING_CONTROL(X)                                                               \
  X(WRITE, 0, "write")         /* records published (u32, wraps) */                      \
  X(READ, 1, "read")           /* records consumed (u32, wraps) */                       \
  X(CAPACITY, 2, "capacity")   /* slots, a power of two */                               \
  X(STOP, 3, "stop")           /* main thread -> loop: stop after this call */           \
  X(ITERATION, 4, "iteration") /* loop -> scenario ctx: the iteration's low 32 bits */   \
  X(WAITING, 5, "waiting")     /* 1 while back-pressure holds the loop */                \
  X(CALL, 6, "call")           /* loop -> watchdog: 1 + op of the call in progress */    \
  X(PHASE, 7, "phase")         /* worker -> watchdog: a WS_PHASE_* */                    \
  X(EXIT, 8, "exit")           /* worker -> main: a target's process.exit, see below */  \
  X(GRANT, 9, "grant")         /* main -> worker (compare): blocks it may run */         \
  X(ITERATION_HIGH, 10, "iterationHigh") /* loop -> ctx: the iteration's high 32 bits */

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
  X(END, 7, "end")              /* done: posting the outcome */                          \
  X(PAUSED, 8, "paused")        /* compare: between blocks, while other arms run */
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

/* Checked outputs (compare --check-outputs): each call of an op folds its
 * result into one 64-bit value (an i32 or f32's bits zero-extended, an i64,
 * an f64's bits; no result: 0) and stores it at WS_OUTPUT_VALUES + 8 *
 * (counter mod capacity) of the outputs region, the i32 counter at
 * WS_OUTPUT_COUNTER counting the calls. The V8 engine's argument trampoline
 * (src/worker/targets/trampoline.js) and the native engine (ws_native.c)
 * write it alike; several results fold as r = v ^ (r * WS_OUTPUT_FOLD_PRIME),
 * last result first. */
#define WS_OUTPUT_COUNTER 1024
#define WS_OUTPUT_VALUES 2048
#define WS_OUTPUT_FOLD_PRIME 16777619

/* A raw module's driver (ws_engine_ops.drive) stores the size in pages of
 * up to WS_DRIVER_PAGES_MAX of its unshared memories as u32s from byte
 * WS_DRIVER_PAGES of the trampoline's slots before it asks for each op: the
 * V8 engine reads them there, not through Node-API, between driven calls.
 * The engine answers with the op to call as an i32 at byte WS_DRIVER_OP
 * (-1: the batch ends), not as a JS value. */
#define WS_DRIVER_OP 504
#define WS_DRIVER_PAGES 512
#define WS_DRIVER_PAGES_MAX 64

/* ---- Analysis ---- */

/* What a memory series measures, for classification. */
#define WS_SERIES_ROLES(X)                                                               \
  X(LINEAR, 1, "linear")        /* total linear memory (every tracked memory) */         \
  X(LINEAR_ONE, 2, "linearOne") /* one tracked memory */                                 \
  X(HEAP, 3, "heap")            /* allocator heap size or heap top */                    \
  X(LIVE, 4, "live")            /* live (allocated, not freed) bytes */                  \
  X(JS_HEAP, 5, "jsHeap")  /* a V8 heap retained after full GCs: the worker's, or the    \
                            * target's threads' summed */                                \
  X(STACK, 6, "stack")     /* shadow stack depth: first stack pointer minus now */       \
  X(HOLES, 7, "holes")     /* free bytes between in-use blocks (the top excluded) */     \
  X(CONTROL, 8, "control") /* the machine: the reference workload's ns (time) */         \
  X(PREEMPTIONS, 9, "preemptions") /* the loop thread's involuntary switches so far */

/* How a finding kind gates the verdict and the exit code (the last column
 * of WS_FINDING_KINDS; ws_judge applies it, docs/verdicts.md, "The
 * judge"). */
#define WS_GATES(X)                                                                      \
  X(FAIL_ON, 1, "fail-on") /* names the verdict; exit 1 when --fail-on lists it */       \
  X(ALWAYS, 2, "always")   /* names the verdict; exit 1 always: a gate the user set */   \
  X(AGAINST, 3, "against") /* a comparison (a baseline, another arm, a suite's           \
                            * expectation): exit 1 always; the verdict stays the         \
                            * run's own */                                               \
  X(FAILS_RUN, 4, "fails-run") /* the run failed: verdict error, exit 3 */

/* Finding kinds, X(NAME, value, "jsName", GATE): the kinds that name a
 * verdict (gates FAIL_ON and ALWAYS) come first, most severe first: the
 * order is the severity order (a verdict is the most severe such finding's
 * kind, "stable" without one), and the values are 1, 2, ... in that order
 * (ws_judge walks the kinds by value; they never leave C). The trend kinds come from
 * ws_classify; memory-exhausted also from failed grows and the allocator's NULL
 * (src/analysis/grow-failures.js, analyze.js); budget findings are exact
 * per-call gates the user sets, checked on the counting pass in
 * src/analysis/allocations.js. The kinds after them never name a verdict:
 * a hung call (the watchdog ended it; src/analysis/analyze.js), a
 * regression against a baseline or between compared arms beyond a
 * --fail-if-* gate (src/analysis/against-baseline.js, src/compare/analyze-compare.js),
 * a suite target that did not meet its expectation (soak --expect,
 * src/report/suite-result.js). Adding a kind: CONTRIBUTING.md, "Adding
 * one". */
#define WS_FINDING_KINDS(X)                                                              \
  X(MEMORY_EXHAUSTED, 1, "memory-exhausted", FAIL_ON) /* observed, not projected */      \
  X(STACK_DRIFT, 2, "stack-drift", FAIL_ON)                                              \
  X(LEAK, 3, "leak", FAIL_ON)                                                            \
  X(UNFREED_OBJECTS, 4, "unfreed-objects", FAIL_ON) /* JS objects never freed */         \
  X(FRAGMENTATION, 5, "fragmentation", FAIL_ON)                                          \
  X(GROWTH, 6, "growth", FAIL_ON)                                                        \
  X(JS_HEAP_GROWTH, 7, "js-heap-growth", FAIL_ON)                                        \
  X(SLOWDOWN, 8, "slowdown", FAIL_ON)                                                    \
  X(BUDGET, 9, "budget", ALWAYS)                                                         \
  X(HUNG_CALL, 10, "hung-call", FAILS_RUN)                                               \
  X(REGRESSION, 11, "regression", AGAINST)                                               \
  X(EXPECTATION, 12, "expectation", AGAINST)

/* What became of a run, as the judge takes it (ws_judge). */
#define WS_RUN_STATUSES(X)                                                               \
  X(COMPLETED, 1, "completed")     /* judged on every call */                            \
  X(INTERRUPTED, 2, "interrupted") /* a signal: judged on the calls done, exit 130 */    \
  X(FAILED, 3, "failed")           /* a trap, a throw, a hang, the worker died:          \
                                    * verdict error, exit 3 */                           \
  X(MODULE_EXHAUSTED, 4,                                                                 \
    "module-exhausted")          /* the module's allocator gave no block for             \
                                  * an argument: the run stopped there, judged as a      \
                                  * completed one (its memory-exhausted finding) */      \
  X(INCOMPLETE, 5, "incomplete") /* the calls completed, something asked for did not     \
                                  * (a counting pass): the verdict stands, exit 3 */

/* The exit codes of the command line (README, "Exit codes"):
 * X(NAME, code, "jsName"). ws_judge returns all but USAGE, which input
 * errors carry (src/errors.js keeps a copy for them). */
#define WS_EXIT_CODES(X)                                                                 \
  X(OK, 0, "OK")                     /* completed, nothing gates */                      \
  X(FINDING, 1, "FINDING")           /* a finding that gates */                          \
  X(USAGE, 2, "USAGE")               /* usage or input error */                          \
  X(FAILED, 3, "FAILED")             /* the run failed */                                \
  X(INTERRUPTED, 130, "INTERRUPTED") /* SIGINT or SIGTERM */

/* Why memory growth is `growth`, not leak or fragmentation. */
#define WS_GROWTH_CAUSES(X)                                                              \
  X(UNOBSERVED, 1, "unobserved")   /* no live bytes were tested */                       \
  X(LIVE_PEAKS, 2, "live-peaks")   /* live bytes flat, their per-segment peaks grow */   \
  X(HEAP_END, 3, "heap-end")       /* live bytes and the holes flat: grown at its end */ \
  X(LIVE_RISING, 4, "live-rising") /* live bytes rose, but in steps, not sustained */

/* Why a run's data cannot decide (the verdict "inconclusive" when nothing
 * else was found; docs/verdicts.md, "Inconclusive"). Each comes with the
 * calls that would decide it, by the run's own rates. */
#define WS_UNDECIDED_REASONS(X)                                                          \
  X(FEW_CALLS, 1, "few-calls")             /* too few calls after warm-up to test */     \
  X(FEW_SAMPLES, 2, "few-samples")         /* a sampled series: too few points */        \
  X(LATE_STEP, 3, "late-step")             /* large late step(s), no live bytes */       \
  X(STILL_RISING, 4, "still-rising")       /* a memory trend not yet a plateau */        \
  X(SPANS_THRESHOLD, 5, "spans-threshold") /* time interval spans the threshold */       \
  X(MACHINE_NOISE, 6, "machine-noise")     /* time drift the machine's explains */       \
  X(UNSUSTAINED, 7, "unsustained")         /* time rose in one half of the run only */   \
  X(NOT_REPLICATED, 8, "not-replicated")   /* a second pass did not slow down */

/* Practical significance of a retained JS heap trend: growth across the
 * tested window (level slope x window) below this is no finding. V8 keeps
 * adding its own metadata (feedback vectors, maps, code) with no glue at all:
 * 30-80 KiB over 20 000 to 2 000 000 calls, measured; a glue leak of one
 * small object per call is hundreds of KiB over 20 000 calls. */
#define WS_JS_HEAP_THRESHOLD 262144.0
/* Practical significance of memory growth (live bytes, the heap, linear
 * memory; docs/verdicts.md, "Practical significance of memory growth"): a
 * sustained series is a finding only when it grows by at least
 * WS_MEM_FLOOR_PER_CALL bytes per call or, across the tested window, by at
 * least WS_MEM_FLOOR_RELATIVE of its own level at the window's start. Below
 * both it is a note, not a finding. One byte per call is one smallest
 * allocator block (16 B) every 16 calls; a clean C module's realloc churn and
 * bounded cache drifted by 0.055 B per call (+0.5 %), measured. The stack and
 * exhaustion have no floor; the JS heap has its own threshold. */
#define WS_MEM_FLOOR_PER_CALL 1.0
#define WS_MEM_FLOOR_RELATIVE 0.05
/* Smallest relative change of time per call across the run worth a finding. */
#define WS_TIME_THRESHOLD 0.10
/* Largest linear memory of wasm32: 65 536 pages of 64 KiB. A memory that
 * reaches it (or its declared maximum) can grow no more. */
#define WS_WASM32_MAX_BYTES 4294967296.0
/* A wasm page. */
#define WS_PAGE_BYTES 65536.0
/* One-sided significance level of every trend test. */
#define WS_ALPHA 0.01
/* A trend with p at most this is beyond doubt: a leak ends the run early
 * (src/analysis/early-stop.js) and a memory finding stands without a second
 * run (docs/verdicts.md, "A finding must recur"); the clean fixture's
 * stationary live bytes reached it in 2 of 20 000 runs of 20 000 calls. */
#define WS_BEYOND_DOUBT_P 1e-4

/* Defaults of the verdict options (ws_verdict_opts, docs/verdicts.md):
 * X(field, value, "jsName"). The binding exports them as verdictDefaults. */
#define WS_VERDICT_DEFAULTS(X)                                                           \
  X(time_threshold, WS_TIME_THRESHOLD, "timeThreshold")                                  \
  X(js_heap_threshold, WS_JS_HEAP_THRESHOLD, "jsHeapThreshold")                          \
  X(mem_floor_per_call, WS_MEM_FLOOR_PER_CALL, "memFloorPerCall")                        \
  X(mem_floor_relative, WS_MEM_FLOOR_RELATIVE, "memFloorRelative")                       \
  X(alpha, WS_ALPHA, "alpha")

/* Level of every bootstrap interval (a comparison of several arms holds it
 * jointly, ws_compare_family). */
#define WS_BOOT_LEVEL 0.95
/* Replicates of a comparison's intervals and of a run against its baseline. */
#define WS_BOOT_COMPARE_REPLICATES 4000
/* Replicates of the drift test's window change (ws_drift_analyze). */
#define WS_BOOT_DRIFT_REPLICATES 2000
/* The bootstrap settings: X(field, value, "jsName"). The binding exports them
 * as bootstrap. */
#define WS_BOOTSTRAP_SETTINGS(X)                                                         \
  X(level, WS_BOOT_LEVEL, "level")                                                       \
  X(replicates, WS_BOOT_COMPARE_REPLICATES, "replicates")                                \
  X(drift_replicates, WS_BOOT_DRIFT_REPLICATES, "driftReplicates")

/* Smallest slowdown a comparison gates on by default (compare, and run/soak
 * --baseline: --fail-if-slower), a relative change. */
#define WS_FAIL_IF_SLOWER 0.05
/* Defaults of the comparison gates: X(field, value, "jsName"). The binding
 * exports them as gateDefaults. */
#define WS_GATE_DEFAULTS(X) X(fail_if_slower, WS_FAIL_IF_SLOWER, "failIfSlower")

/* What a run shows that is no finding, and that its summary says
 * (summary.notes, docs/summary.md): a sustained memory series below the
 * floor, linear memory that grew several times over during start-up, live
 * bytes freed in repeated large bursts (a sawtooth), the glue's objects
 * left to the collector, and of the worker threads a target started
 * (src/analysis/threads.js) one that exited with an error or more alive at
 * the end than at warm-up's end. */
#define WS_NOTE_KINDS(X)                                                                 \
  X(BELOW_FLOOR, 1, "below-floor")       /* sustained, below WS_MEM_FLOOR_* */           \
  X(STARTUP_GROWTH, 2, "startup-growth") /* linear memory grew during warm-up */         \
  X(SAWTOOTH, 3, "sawtooth")             /* live bytes fall sharply, repeatedly */       \
  X(LEFT_TO_GC, 4, "objects-left-to-gc") /* finalizers freed objects, memory flat */     \
  X(GC_GARBAGE, 5, "gc-garbage")       /* growth held by garbage awaiting finalizers */  \
  X(THREAD_FAILED, 6, "thread-failed") /* a thread exited with a code != 0 */            \
  X(THREAD_GROWING, 7, "thread-pool-growing") /* more alive after warm-up */             \
  X(NOT_REPEATED, 8, "rise-not-repeated")     /* a second run (another seed) settled it */

/* ---- Layouts of the statistics the binding returns ---- */

/* One row of ws_window_stats' output (per window: all calls, then each op):
 * X(NAME, index, "jsName"), WS_WINDOW_STAT_FIELDS doubles per row. */
#define WS_WINDOW_STATS(X)                                                               \
  X(N, 0, "n")           /* calls in the window */                                       \
  X(MEDIAN, 1, "median") /* their median time, ns */                                     \
  X(P90, 2, "p90")                                                                       \
  X(P99, 3, "p99")
#define WS_WINDOW_STAT_FIELDS 4

/* One bucket of ws_decimate_bands' output: X(NAME, index, "jsName"),
 * WS_BAND_FIELDS doubles per bucket. */
#define WS_BANDS(X)                                                                      \
  X(FIRST, 0, "first")   /* first index in the bucket */                                 \
  X(LAST, 1, "last")     /* last index in the bucket */                                  \
  X(MIN, 2, "min")       /* smallest value in the bucket */                              \
  X(MAX, 3, "max")       /* largest value in the bucket (spikes survive) */              \
  X(IMAX, 4, "imax")     /* index of that largest value */                               \
  X(P10, 5, "p10")       /* 10th percentile of the rolling window */                     \
  X(MEDIAN, 6, "median") /* median of the rolling window */                              \
  X(P90, 7, "p90")       /* 90th percentile of the rolling window */
#define WS_BAND_FIELDS 8

/* One (window, op) cell of ws_decimate_ops' output: X(NAME, index,
 * "jsName"), WS_OPS_FIELDS doubles per cell. */
#define WS_OPS_CELLS(X)                                                                  \
  X(MEDIAN, 0, "median")                                                                 \
  X(P90, 1, "p90")                                                                       \
  X(COUNT, 2, "count")
#define WS_OPS_FIELDS 3

/* ---- Log ---- */

#define WS_LOG_MAGIC "WASMSOAK"
/* The version written; readers also read every version from
 * WS_LOG_OLDEST_VERSION on (1: bare records, no blocks). */
#define WS_LOG_VERSION 2u
#define WS_LOG_OLDEST_VERSION 1u
/* Version 2 groups records in blocks, each after a 32-byte block header
 * that starts with this 8-byte sync marker (its first byte is no record
 * type) and holds at most WS_LOG_BLOCK_RECORDS records. */
#define WS_LOG_SYNC "\xf7WSSYNC\n"
#define WS_LOG_SYNC_BYTES 8
#define WS_LOG_BLOCK_RECORDS 4096

/* ---- The enums ---- */

#define WS_PROTOCOL_ENUM(prefix, name, value) prefix##name = (value),
#define WS_REC_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_REC_, name, value)
#define WS_FLAG_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_FLAG_, name, value)
#define WS_METRIC_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_METRIC_, name, value)
#define WS_MARK_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_MARK_, name, value)
#define WS_COUNT_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_COUNT_, name, value)
#define WS_CTL_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_CTL_, name, value)
#define WS_STOP_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_STOP_, name, value)
#define WS_PHASE_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_PHASE_, name, value)
#define WS_STATUS_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_STATUS_, name, value)
#define WS_ARG_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_ARG_, name, value)
#define WS_VAL_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_VAL_, name, value)
#define WS_ROLE_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_ROLE_, name, value)
#define WS_KIND_ENUM(name, value, js, gate) WS_PROTOCOL_ENUM(WS_KIND_, name, value)
#define WS_GATE_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_GATE_, name, value)
#define WS_RUN_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_RUN_, name, value)
#define WS_EXIT_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_EXIT_, name, value)
#define WS_CENSUS_ENUM(name, value, js, text) WS_PROTOCOL_ENUM(WS_CENSUS_, name, value)
#define WS_UNDECIDED_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_UNDECIDED_, name, value)
#define WS_GROWTH_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_GROWTH_, name, value)
#define WS_GROW_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_GROW_, name, value)
#define WS_NOTE_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_NOTE_, name, value)
#define WS_WSTAT_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_WSTAT_, name, value)
#define WS_BAND_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_BAND_, name, value)
#define WS_OPS_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_OPS_, name, value)
#define WS_EVENT_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_EVENT_, name, value)
#define WS_SITE_EVENT_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_SITE_EVENT_, name, value)
#define WS_SITE_VALUE_ENUM(name, value, js) WS_PROTOCOL_ENUM(WS_SITE_, name, value)

enum { WS_RECORD_TYPES(WS_REC_ENUM) };
enum { WS_RECORD_FLAGS(WS_FLAG_ENUM) };
enum { WS_METRICS(WS_METRIC_ENUM) };
_Static_assert(WS_METRIC_CENSUS_CLASS_16 == WS_METRIC_CENSUS_CLASS_BASE + 4 &&
                   WS_METRIC_CENSUS_CLASS_2G == WS_METRIC_CENSUS_CLASS_BASE + 31,
               "census class k is metric WS_METRIC_CENSUS_CLASS_BASE + k");
_Static_assert(WS_METRIC_MEMORY_BASE + WS_CENSUS_MEMORIES <= WS_METRIC_CENSUS_STRIDE &&
                   (WS_CENSUS_MEMORIES - 1) * WS_METRIC_CENSUS_STRIDE +
                           WS_METRIC_CENSUS_CLASS_2G <=
                       0xffff,
               "every memory's census ids are distinct 16-bit metric ids");
enum { WS_MARKS(WS_MARK_ENUM) };
enum { WS_GROW_REASONS(WS_GROW_ENUM) };
enum { WS_COUNTERS(WS_COUNT_ENUM) };
enum { WS_RING_CONTROL(WS_CTL_ENUM) };
enum { WS_STOP_REQUESTS(WS_STOP_ENUM) };
enum { WS_WORKER_PHASES(WS_PHASE_ENUM) };
enum { WS_LOOP_STATUSES(WS_STATUS_ENUM) };
enum { WS_ARG_KINDS(WS_ARG_ENUM) };
enum { WS_VALUE_TYPES(WS_VAL_ENUM) };
enum { WS_SERIES_ROLES(WS_ROLE_ENUM) };
enum { WS_CENSUS_KINDS(WS_CENSUS_ENUM) };
/* A verdict is a finding kind that names one, stable, inconclusive (no
 * such finding, and something the data could not decide), or error (the
 * run failed). */
enum {
  WS_KIND_ERROR = -2,
  WS_KIND_INCONCLUSIVE = -1,
  WS_KIND_STABLE = 0,
  WS_FINDING_KINDS(WS_KIND_ENUM) WS_KIND_COUNT
};
enum { WS_GATES(WS_GATE_ENUM) };
enum { WS_RUN_STATUSES(WS_RUN_ENUM) };
enum { WS_EXIT_CODES(WS_EXIT_ENUM) };
/* Finding kinds as bits of a set (ws_judge). */
#define WS_KIND_BIT(kind) (1u << (kind))
_Static_assert(WS_KIND_COUNT <= 32, "a set of finding kinds fits in 32 bits");
/* Each finding kind's value is its place in the list, the severity order
 * ws_judge walks by value: a kind given another value does not compile. */
#define WS__KIND_PLACE(name, value, js, gate) WS__KIND_PLACE_##name,
enum { WS__KIND_PLACE_NONE, WS_FINDING_KINDS(WS__KIND_PLACE) };
#undef WS__KIND_PLACE
#define WS__KIND_IN_PLACE(name, value, js, gate)                                         \
  _Static_assert(WS__KIND_PLACE_##name == (value),                                       \
                 "WS_FINDING_KINDS: a kind's value is its place in the list");
WS_FINDING_KINDS(WS__KIND_IN_PLACE)
#undef WS__KIND_IN_PLACE
enum { WS_UNDECIDED_REASONS(WS_UNDECIDED_ENUM) };
enum { WS_GROWTH_CAUSES(WS_GROWTH_ENUM) };
enum { WS_NOTE_KINDS(WS_NOTE_ENUM) };
enum { WS_WINDOW_STATS(WS_WSTAT_ENUM) };
enum { WS_BANDS(WS_BAND_ENUM) };
enum { WS_OPS_CELLS(WS_OPS_ENUM) };
_Static_assert(WS_WSTAT_P99 + 1 == WS_WINDOW_STAT_FIELDS &&
                   WS_BAND_P90 + 1 == WS_BAND_FIELDS && WS_OPS_COUNT + 1 == WS_OPS_FIELDS,
               "a layout's width is its last field + 1");
enum { WS_ALLOC_EVENTS(WS_EVENT_ENUM) };
enum { WS_SITE_EVENT_FIELDS(WS_SITE_EVENT_ENUM) };
enum { WS_SITE_VALUES(WS_SITE_VALUE_ENUM) };

/* The generators above are local to these enums (libuv style). */
#undef WS_PROTOCOL_ENUM
#undef WS_REC_ENUM
#undef WS_FLAG_ENUM
#undef WS_METRIC_ENUM
#undef WS_MARK_ENUM
#undef WS_COUNT_ENUM
#undef WS_CTL_ENUM
#undef WS_STOP_ENUM
#undef WS_PHASE_ENUM
#undef WS_STATUS_ENUM
#undef WS_ARG_ENUM
#undef WS_VAL_ENUM
#undef WS_ROLE_ENUM
#undef WS_KIND_ENUM
#undef WS_GATE_ENUM
#undef WS_RUN_ENUM
#undef WS_EXIT_ENUM
#undef WS_CENSUS_ENUM
#undef WS_UNDECIDED_ENUM
#undef WS_GROWTH_ENUM
#undef WS_GROW_ENUM
#undef WS_NOTE_ENUM
#undef WS_WSTAT_ENUM
#undef WS_BAND_ENUM
#undef WS_OPS_ENUM
#undef WS_EVENT_ENUM
#undef WS_SITE_EVENT_ENUM
#undef WS_SITE_VALUE_ENUM

/* Returns the kind's name ("stable", "inconclusive", "error", "leak", ...),
 * or "unknown" (ws_judge.c). */
const char *ws_kind_name(int kind);

#endif
