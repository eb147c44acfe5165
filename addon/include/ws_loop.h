/* The iteration loop: picks an op with the seeded RNG, builds its
 * arguments (buffers through the module's allocator, filled with seeded
 * bytes), times the call with the stopwatch, reads the memories' sizes and
 * writes one record per call into the ring, with an allocation record in the
 * counting pass. Back-pressure never drops a record: the loop stops on a
 * full ring (WS_STATUS_FULL) and its consumer drains. It reaches the module
 * only through the engine seam (ws_engine.h). Runs on one thread. */
#ifndef WS_LOOP_H
#define WS_LOOP_H

#include <stddef.h>
#include <stdint.h>

#include "ws_blocks.h"
#include "ws_census.h"
#include "ws_engine.h"
#include "ws_protocol.h"
#include "ws_ring.h"

/* Most parameters of one op (a buffer takes two: pointer, length). */
#define WS_MAX_PARAMS 16

/* Where one parameter's value comes from (ws_protocol.h WS_ARG_*). */
typedef struct {
  uint8_t kind;   /* WS_ARG_* */
  uint8_t type;   /* WS_VAL_* of the parameter (buffers: two i32) */
  int64_t lo, hi; /* random range, buffer length range, or the constant (lo) */
} ws_arg_spec;

typedef struct {
  uint64_t weight; /* relative frequency, >= 1 */
  uint32_t n_args;
  ws_arg_spec args[WS_MAX_PARAMS];
} ws_op_spec;

typedef struct {
  uint64_t seed;            /* seeds the op choice, random arguments and buffers */
  uint64_t iterations;      /* calls to make (UINT64_MAX: no limit) */
  uint64_t first_iteration; /* the counter's start: 0 in a run; a test hook
                             * starts it elsewhere (near 2^32, say) */
  uint64_t duration_ns;     /* stop after this long (0: no limit) */
  uint32_t memories;        /* memories the engine tracks at the start */
  uint32_t buffer_memory;   /* the memory buffer arguments live in */
  double *counters;         /* counting pass: WS_COUNT_FIELDS counters the
                             * allocator hooks update, or NULL */
} ws_loop_config;

typedef struct ws_loop ws_loop;

/* Creates a loop over ops[0..n_ops) (copied) that writes into ring (copied;
 * its region must outlive the loop) and calls through engine (borrowed; it
 * must outlive the loop). Faults in the ring's free pages
 * (ws_ring_prefault), calibrates the stopwatch (about 20 ms) and reads
 * the memories' sizes. Writes an iteration mark when the counter does not
 * start at 0, and the loop writes one at every multiple of
 * 2^WS_ITERATION_ANCHOR_SHIFT iterations. Stores the loop in *out. Returns 0, WS_EINVAL
 * (no op, a weight of 0, too many arguments, a bad argument spec), WS_ENOMEM, or the
 * engine's error. */
int ws_loop_create(const ws_loop_config *config, const ws_op_spec *ops, uint32_t n_ops,
                   const ws_ring *ring, ws_engine *engine, ws_loop **out);

/* Frees loop; NULL is allowed. */
void ws_loop_destroy(ws_loop *loop);

/* Runs calls until one of: max_calls made or max_ns spent (WS_STATUS_YIELD),
 * the run's iterations (DONE), a stop request (STOPPED), the run's deadline
 * (DEADLINE), a call that threw (THREW: its record is written), a call that
 * returned a promise (ASYNC: settle it with ws_loop_settle), or a ring with
 * fewer free slots than a call needs (FULL: drain, then run again; the wait
 * is logged as a back-pressure mark). Between calls, when due and the ring
 * has room, it times the machine's control (ws_control.h: metrics CONTROL_NS,
 * THREAD_CPU_NS, PREEMPTIONS; at the first run, then every 0.5 ms or 2 048th
 * of the run so far, whichever is longer); a call that follows one of 50 µs
 * or more is watched for preemption (the thread's involuntary switches read
 * before and after it, outside the timed region) and flagged
 * WS_FLAG_PREEMPTED when one happened. Returns the WS_STATUS_*, WS_EALLOC
 * (the module's allocator gave no usable block for a buffer), WS_EINVAL (a
 * call is pending), or the engine's error. */
int ws_loop_run(ws_loop *loop, uint32_t max_calls, uint64_t max_ns);

/* For an engine that drives the calls (ws_engine_ops.drive), inside
 * ws_loop_run: ends the call in flight, which returned, and begins the
 * next, exactly as ws_loop_run does between two calls, but with one
 * stopwatch read: it ends the call in flight, and the next starts at it
 * plus the loop's work between two calls of that op, calibrated in the run
 * (a fresh read where the boundary did more, or to calibrate; see
 * docs/architecture.md). Returns the op to call now with the staged
 * arguments, or -1 when the batch ends (ws_loop_run returns the status or
 * error it ended on). */
int ws_loop_next(ws_loop *loop);

/* Whether a driven call is in flight: an exception the driver came back
 * with is then that call's. */
int ws_loop_calling(const ws_loop *loop);

/* Ends the pending call: its time runs from its start to now (the promise's
 * settling included); threw != 0 flags it. Returns 0, WS_EINVAL when no call
 * is pending, or the engine's error. */
int ws_loop_settle(ws_loop *loop, int threw);

/* Returns the iteration counter: the first iteration plus the calls
 * completed so far. */
uint64_t ws_loop_completed(const ws_loop *loop);

/* Returns why a memory.grow of asked_bytes failed on a memory of
 * memory_bytes: WS_GROW_WASM32_LIMIT past 4 GiB, else
 * WS_GROW_DECLARED_MAXIMUM past maximum_bytes (> 0: the declared maximum;
 * < 0: unknown, but the engine said the grow passed it), else
 * WS_GROW_REFUSED (0: no maximum known, or one not reached). */
int ws_grow_reason(double memory_bytes, double asked_bytes, double maximum_bytes);

/* Records a failed memory.grow of asked_bytes on a memory of memory_bytes
 * (maximum_bytes as ws_grow_reason takes it). During a call (the CALL
 * control word set) the call's first failure is written after its call
 * record, as one GROW_FAILED record (docs/log-format.md) of the call's op
 * and iteration; outside a call it is written at once (op WS_NO_OP, the
 * last completed call). Either way it counts in the run's running total of
 * failed grows (the record's t). */
void ws_loop_grow_failed(ws_loop *loop, double asked_bytes, double memory_bytes,
                         double maximum_bytes);

/* Returns the bytes of the last buffer argument the module's allocator gave
 * no usable block for (the run ended with WS_EALLOC), or 0. */
uint32_t ws_loop_failed_alloc(const ws_loop *loop);

/* Records one slow-cadence metric; NaN and negative values are skipped,
 * others rounded to whole units. Returns 0. */
int ws_loop_metric(ws_loop *loop, uint16_t id, double value);

/* Records the process RSS (where /proc/self/statm exists) and each
 * memory's size as metric WS_METRIC_MEMORY_BASE + k. Returns 0 or the
 * engine's error. */
int ws_loop_sample_memories(ws_loop *loop);

/* Takes a census of memory k's heap (ws_census_take on the engine's view
 * of it; call between batches, never inside the timed region) with census
 * (the caller's, one per memory, kept from call to call so the state found
 * once is re-walked) and stores it in *out, its elapsed_ns set. When
 * record != 0, records it as metrics under memory k's census ids (ws_protocol.h,
 * WS_METRIC_CENSUS_STRIDE): every WS_METRIC_CENSUS_* series and the size
 * classes ever non-zero in this census (WS_METRIC_CENSUS_CLASS_BASE + c),
 * or, when nothing was recognised, only the kind (none) and the time spent.
 * Keeps the time spent on recorded censuses within
 * census->hints.budget_permille of the run (WS_CENSUS_BUDGET_DEFAULT), both
 * in the loop thread's CPU time (ws_thread_cpu_ns; wall time without it),
 * counting the time of every census that shares census->run_spent_ns (the
 * run's other memories): one due sooner than that allows after the last
 * (the median time of the last three) is skipped. The floor's census
 * (WS_CENSUS_FLOOR) is skipped only past the floor's cap
 * (WS_CENSUS_FLOOR_CAP_DEFAULT). A census that is not recorded (taken
 * before the run, say) is never skipped and does not count. Returns WS_CENSUS_TAKEN,
 * WS_CENSUS_SKIPPED
 * (*out untouched), WS_ENOHEAP (out->reason says why), WS_EINVAL for a
 * memory the loop does not track or past the first WS_CENSUS_MEMORIES, or
 * the engine's error. */
int ws_loop_census(ws_loop *loop, uint32_t k, ws_census *census, int record,
                   ws_census_result *out);

/* Marks the chunks in use in memory k's heap (ws_blocks_mark_take on the
 * engine's view of it, with census, memory k's) into *mark; between
 * batches. Never skipped: its time (the loop thread's CPU time, as
 * ws_loop_census measures it) is charged to the census budget, so that the
 * censuses after it are skipped sooner. Returns ws_blocks_mark_take's
 * code, WS_EINVAL like ws_loop_census, or the engine's error. */
int ws_loop_blocks_mark(ws_loop *loop, uint32_t k, ws_census *census,
                        ws_blocks_mark *mark);

/* Picks up to max blocks of memory k's heap allocated since *mark
 * (ws_blocks_pick, seeded by the run's seed and k) into out[0..*n);
 * between batches. Charged to the census budget like ws_loop_blocks_mark.
 * Returns ws_blocks_pick's code, WS_EINVAL like ws_loop_census, or the
 * engine's error. */
int ws_loop_blocks_pick(ws_loop *loop, uint32_t k, ws_census *census,
                        const ws_blocks_mark *mark, ws_block *out, uint32_t max,
                        uint32_t *n);

/* Tracks the engine's next memory from now on: stores its index in *index
 * and writes a memory-tracked mark. Returns 0, WS_ENOMEM, or the engine's
 * error. */
int ws_loop_track_memory(ws_loop *loop, uint32_t *index);

/* Writes the end mark: the run ended cleanly. Returns 0. */
int ws_loop_end(ws_loop *loop);

#endif
