/* The iteration loop behind the engine seam (ws_loop.h): op choice,
 * arguments and buffer lifetimes, the timed call, call and allocation
 * records, back-pressure marks and the slow-cadence metrics. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ws.h"
#include "ws_loop.h"

/* Free slots the loop wants before a call: the call record, an allocation
 * record, a failed-grow record and a back-pressure mark (and one more for an
 * iteration mark when one is due). */
#define SLOTS_PER_CALL 4

/* The machine's control (ws_control.h) is measured at most this often, and
 * at most about CONTROL_SAMPLES_PER_RUN times in a run however long it runs
 * (the interval grows with the run): about 1 % of the first second's wall
 * time, and a few hundred KiB of log in a day. */
#define CONTROL_MIN_INTERVAL_NS 500000.0
#define CONTROL_SAMPLES_PER_RUN 2048.0
/* Records one control sample writes: its time, CPU time, preemptions. */
#define CONTROL_SLOTS 3
/* A call after one this long is watched for preemption: two reads of the
 * thread's usage around it (about 1 µs each, outside the timed region), at
 * most 4 % of the wall time. Shorter calls are rarely preempted, and the
 * interquartile mean of a batch trims the few that are. */
#define PREEMPTION_WATCH_NS 50000.0

/* The steps every call goes through, inlined where the loop calls them
 * (ws_loop_run, ws_loop_next): a call site then drops the branches it
 * cannot take (a driven call's outcome, a room it checked), and a driven
 * boundary makes no calls of its own but the engine's. */
#define PER_CALL static inline __attribute__((always_inline))

typedef struct {
  uint32_t ptr, len;
} buffer_arg;

/* A driven batch (ws_loop_next) calibrates the cost of the loop's work
 * between two calls of an op once every this many of them, and estimates
 * it as the least of the last BOUNDARY_WINDOW measures (taken at every
 * boundary until there are that many). */
#define BOUNDARY_CALIBRATE_EVERY 64
#define BOUNDARY_WINDOW 16

/* The loop's cost between two driven calls, before a call of one op. */
typedef struct {
  uint64_t samples[BOUNDARY_WINDOW]; /* ticks */
  uint32_t next, count, since;
  uint64_t least; /* the estimate: the least sample */
} boundary_cost;

/* What a boundary between driven calls compares to tell whether it did
 * more than the loop's usual work (boundary_extra). */
typedef struct {
  uint64_t control_due, anchored, grows_failed, total_bytes;
  uint32_t n_bufs;
  int watched;
} boundary_state;

struct ws_loop {
  ws_ring ring;
  ws_rng rng;
  uint64_t seed; /* the run's seed (ws_loop_config) */
  ws_clock clock;
  ws_engine *engine;
  ws_op_spec *ops;
  uint64_t *cumulative; /* cumulative weights, for ws_rng_pick */
  uint32_t n_ops;
  uint32_t buffer_memory;
  uint64_t *memory_bytes; /* last size of each tracked memory */
  uint32_t n_memories;
  uint64_t total_bytes;
  uint64_t iteration, end; /* the counter, and where the run's iterations end */
  uint64_t first;          /* the counter's start */
  uint64_t anchored;       /* the iteration of the last iteration mark + 1, 0: none */
  uint64_t t0, deadline;   /* stopwatch ticks: run start, run deadline (0: none) */
  double *counters;
  uint64_t stall_start; /* ticks when the loop last stopped on a full ring, or 0 */
  int pending;          /* a call returned a promise and awaits ws_loop_settle */
  uint64_t pending_start, pending_before;
  uint32_t pending_op;
  int rss_fd;            /* /proc/self/statm, or -1 */
  uint32_t failed_alloc; /* bytes of the buffer the allocator gave no block */
  /* Failed memory.grow calls: in the run so far, and the first of the call
   * in progress (written after its call record). */
  uint64_t grows_failed;
  uint32_t call_grows_failed;
  ws_record call_grow;
  /* The machine's control: its table, when it is next due (ticks; 0: at
   * once), and the checksum that keeps its work from being optimised away. */
  uint32_t control_table[WS_CONTROL_TABLE_WORDS];
  uint64_t control_due;
  uint64_t control_sink;
  int watch_preemption; /* the last call was long: watch the next */
  uint64_t watch_ticks; /* PREEMPTION_WATCH_NS in stopwatch ticks */
  /* The batch (ws_loop_run): its calls made and allowed, when it ends
   * (ticks), and, for a driven batch, the status it ended on. */
  uint32_t batch_done, batch_calls;
  uint64_t batch_end;
  int batch_status;
  /* The call begun (begin_call): its op, memory bytes before it, buffers,
   * whether it is watched for preemption and the switches before it, and
   * for a driven batch whether it is in flight and its start (ticks). */
  uint32_t call_op;
  uint64_t call_before;
  buffer_arg bufs[WS_MAX_PARAMS];
  uint32_t n_bufs;
  int call_watched;
  uint64_t call_switches;
  int in_call;
  uint64_t call_start;
  uint64_t call_after;     /* the last call's end, or call_start when read */
  boundary_cost *boundary; /* per op */
  uint64_t stamp_ticks;    /* two stamps back to back differ by this (ticks) */
  /* The thread's CPU time at the run's start (ws_thread_cpu_ns), the clock
   * of the census budget; has_cpu 0 where the platform has none. */
  uint64_t cpu0;
  int has_cpu;
};

/* The census budget's clock: the loop thread's CPU time since the run's
 * start, so that a walk is charged what it used of the CPU, not the wall
 * time a loaded machine stretched it to (nor the time the thread waited
 * for a core); wall time where the platform has no per-thread CPU time.
 * About 1 µs: twice per census. */
static uint64_t census_clock(const ws_loop *loop);

/* The least difference of two stopwatch reads back to back, of 64 pairs:
 * what one read adds to an interval it is taken in. */
static uint64_t stamp_cost(const ws_clock *clock) {
  uint64_t least = UINT64_MAX;
  for (int i = 0; i < 64; i++) {
    uint64_t a = ws_clock_ticks(clock);
    uint64_t b = ws_clock_ticks(clock);
    if (b - a < least)
      least = b - a;
  }
  return least;
}

/* Nanoseconds from the run's start to now. */
static uint64_t since_start(const ws_loop *loop) {
  return ws_clock_ns(&loop->clock, ws_clock_ticks(&loop->clock) - loop->t0);
}

/* Stopwatch ticks covering ns nanoseconds. */
static uint64_t ticks_for(const ws_loop *loop, double ns) {
  return (uint64_t)(ns / loop->clock.ns_per_tick);
}

/* The iteration a slow sample belongs to: the last completed call (the
 * first iteration before any call). */
static uint32_t last_call(const ws_loop *loop) {
  return (uint32_t)(loop->iteration > loop->first ? loop->iteration - 1 : loop->first);
}

/* Publishes a control word another thread reads (the scenario's ctx, the
 * main thread's watchdog): a relaxed atomic store, no ordering needed. */
static void set_ctl(ws_loop *loop, int word, int32_t value) {
  __atomic_store_n(&loop->ring.ctl[word], value, __ATOMIC_RELAXED);
}

/* Writes a back-pressure mark of a wait of waited ns (none when 0) before
 * the record of iteration was written. */
static void mark_waited(ws_loop *loop, uint32_t iteration, uint64_t waited) {
  if (waited > 0) {
    ws_record mark = {WS_REC_MARK, 0, WS_MARK_BACKPRESSURE, iteration,
                      waited,      0, since_start(loop)};
    ws_ring_push(&loop->ring, &mark);
  }
}

/* Pushes rec and, when the push had to wait, a back-pressure mark. */
static void push(ws_loop *loop, const ws_record *rec) {
  mark_waited(loop, rec->iteration, ws_ring_push(&loop->ring, rec));
}

/* Writes an iteration mark of the current iteration (ws_protocol.h,
 * WS_ITERATION_ANCHOR_SHIFT) unless it has one. */
static void anchor(ws_loop *loop) {
  if (loop->anchored == loop->iteration + 1)
    return;
  ws_record mark = {WS_REC_MARK,     0, WS_MARK_ITERATION, (uint32_t)loop->iteration,
                    loop->iteration, 0, since_start(loop)};
  push(loop, &mark);
  loop->anchored = loop->iteration + 1;
}

/* Appends rec into a slot known to be free. */
static void put_known(ws_loop *loop, const ws_record *rec) {
  ws_ring_put(&loop->ring, rec);
}

/* Re-reads every memory's size into loop->total_bytes. */
PER_CALL int refresh_memories(ws_loop *loop) {
  int rc =
      loop->engine->ops->memory_sizes(loop->engine, loop->memory_bytes, loop->n_memories);
  if (rc != 0)
    return rc;
  uint64_t total = 0;
  for (uint32_t k = 0; k < loop->n_memories; k++)
    total += loop->memory_bytes[k];
  loop->total_bytes = total;
  return 0;
}

/* Checks that spec describes arguments the loop can build. */
static int valid_spec(const ws_op_spec *spec) {
  if (spec->weight == 0 || spec->n_args > WS_MAX_PARAMS)
    return 0;
  for (uint32_t i = 0; i < spec->n_args; i++) {
    const ws_arg_spec *a = &spec->args[i];
    if (a->kind > WS_ARG_CONST || a->type > WS_VAL_F64)
      return 0;
    if (a->kind != WS_ARG_CONST && a->kind != WS_ARG_ITERATION && a->lo > a->hi)
      return 0;
    if (a->kind == WS_ARG_BUF && (a->lo < 0 || a->hi > UINT32_MAX))
      return 0;
  }
  return 1;
}

int ws_loop_create(const ws_loop_config *config, const ws_op_spec *ops, uint32_t n_ops,
                   const ws_ring *ring, ws_engine *engine, ws_loop **out) {
  if (n_ops == 0 || (config->memories > 0 && config->buffer_memory >= config->memories))
    return WS_EINVAL;
  for (uint32_t i = 0; i < n_ops; i++)
    if (!valid_spec(&ops[i]))
      return WS_EINVAL;
  ws_loop *loop = calloc(1, sizeof *loop);
  if (loop == NULL)
    return WS_ENOMEM;
  loop->ops = malloc(n_ops * sizeof *loop->ops);
  loop->cumulative = malloc(n_ops * sizeof *loop->cumulative);
  loop->boundary = calloc(n_ops, sizeof *loop->boundary);
  loop->memory_bytes = calloc(config->memories + 1, sizeof *loop->memory_bytes);
  loop->rss_fd = -1;
  if (loop->ops == NULL || loop->cumulative == NULL || loop->memory_bytes == NULL ||
      loop->boundary == NULL) {
    ws_loop_destroy(loop);
    return WS_ENOMEM;
  }
  memcpy(loop->ops, ops, n_ops * sizeof *ops);
  uint64_t sum = 0;
  for (uint32_t i = 0; i < n_ops; i++) {
    sum += ops[i].weight;
    loop->cumulative[i] = sum;
  }
  loop->n_ops = n_ops;
  loop->ring = *ring;
  loop->engine = engine;
  loop->n_memories = config->memories;
  loop->buffer_memory = config->buffer_memory;
  loop->first = loop->iteration = config->first_iteration;
  loop->end = config->iterations > UINT64_MAX - loop->first
                  ? UINT64_MAX
                  : loop->first + config->iterations;
  loop->counters = config->counters;
  loop->watch_preemption = 1;
  ws_rng_seed(&loop->rng, config->seed);
  loop->seed = config->seed;
  int rc = refresh_memories(loop);
  if (rc != 0) {
    ws_loop_destroy(loop);
    return rc;
  }
  loop->rss_fd = ws_rss_open();
  ws_ring_prefault(&loop->ring);
  ws_clock_init(&loop->clock);
  loop->t0 = ws_clock_ticks(&loop->clock);
  loop->watch_ticks = ticks_for(loop, PREEMPTION_WATCH_NS);
  loop->stamp_ticks = stamp_cost(&loop->clock);
  loop->has_cpu = ws_thread_cpu_ns(&loop->cpu0) == 0;
  loop->deadline = config->duration_ns > 0
                       ? loop->t0 + ticks_for(loop, (double)config->duration_ns)
                       : 0;
  if (loop->first != 0)
    anchor(loop);
  *out = loop;
  return 0;
}

void ws_loop_destroy(ws_loop *loop) {
  if (loop == NULL)
    return;
  if (loop->rss_fd >= 0)
    close(loop->rss_fd);
  free(loop->ops);
  free(loop->cumulative);
  free(loop->boundary);
  free(loop->memory_bytes);
  free(loop);
}

/* A seeded integer in [lo, hi] (signed, any span). */
static int64_t random_in(ws_rng *rng, int64_t lo, int64_t hi) {
  uint64_t span = (uint64_t)hi - (uint64_t)lo;
  return (int64_t)((uint64_t)lo + ws_rng_range(rng, 0, span));
}

/* Sets v to integer x as a value of type. */
static void set_value(ws_value *v, uint8_t type, int64_t x) {
  v->type = type;
  v->i = x;
  v->f = (double)x;
}

/* Points *data at the len bytes of the block alloc gave as ptr: through
 * the engine's buffer op, or at that offset of the buffer memory. Returns 0,
 * WS_EALLOC (no block: ptr 0, or one that does not fit the memory) or the
 * engine's error. */
static int buffer_bytes(ws_loop *loop, uint32_t ptr, uint32_t len, uint8_t **data) {
  if (ptr == 0)
    return WS_EALLOC;
  const ws_engine_ops *e = loop->engine->ops;
  if (e->buffer != NULL)
    return e->buffer(loop->engine, ptr, len, data);
  size_t bytes;
  int rc = e->memory_view(loop->engine, loop->buffer_memory, data, &bytes);
  if (rc != 0)
    return rc;
  if ((uint64_t)ptr + len > bytes)
    return WS_EALLOC;
  *data += ptr;
  return 0;
}

/* Allocates, fills and describes one buffer argument; the two values
 * (pointer, length) go to args. */
static int make_buffer(ws_loop *loop, const ws_arg_spec *a, ws_value *args,
                       buffer_arg *buf) {
  uint32_t len = (uint32_t)random_in(&loop->rng, a->lo, a->hi);
  uint32_t ptr = 0;
  int rc = loop->engine->ops->alloc(loop->engine, len, &ptr);
  if (rc == WS_EALLOC)
    loop->failed_alloc = len;
  if (rc != 0)
    return rc;
  uint8_t *data;
  rc = buffer_bytes(loop, ptr, len, &data);
  if (rc == WS_EALLOC)
    loop->failed_alloc = len;
  if (rc != 0)
    return rc;
  ws_rng_fill(&loop->rng, data, len);
  *buf = (buffer_arg){ptr, len};
  set_value(&args[0], WS_VAL_I32, ptr);
  set_value(&args[1], WS_VAL_I32, len);
  return 0;
}

/* Builds op's arguments into args (room for 2 * WS_MAX_PARAMS) and its
 * buffers into bufs; stores their counts. Outside the timed region. */
PER_CALL int build_args(ws_loop *loop, const ws_op_spec *op, ws_value *args,
                        uint32_t *n_args, buffer_arg *bufs, uint32_t *n_bufs) {
  uint32_t n = 0;
  *n_bufs = 0;
  for (uint32_t i = 0; i < op->n_args; i++) {
    const ws_arg_spec *a = &op->args[i];
    if (a->kind == WS_ARG_BUF) {
      int rc = make_buffer(loop, a, &args[n], &bufs[*n_bufs]);
      if (rc != 0)
        return rc;
      (*n_bufs)++;
      n += 2;
      continue;
    }
    int64_t x = a->lo;
    if (a->kind == WS_ARG_ITERATION)
      x = (int64_t)loop->iteration;
    else if (a->kind == WS_ARG_RANDOM)
      x = random_in(&loop->rng, a->lo, a->hi);
    set_value(&args[n++], a->type, x);
  }
  *n_args = n;
  return 0;
}

/* Frees the buffers of a call that returned. */
static int free_buffers(ws_loop *loop, const buffer_arg *bufs, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    int rc = loop->engine->ops->free(loop->engine, bufs[i].ptr, bufs[i].len);
    if (rc != 0)
      return rc;
  }
  return 0;
}

/* Writes the call record of the current iteration (and its allocation
 * record in the counting pass) and advances it. With room known (the
 * loop checked SLOTS_PER_CALL free slots before the call) the records go in
 * without the full-ring check. */
PER_CALL int finish_call(ws_loop *loop, uint32_t op, uint64_t start, uint64_t end,
                         uint64_t before, uint8_t flags, int room_known) {
  int rc = refresh_memories(loop);
  if (rc != 0)
    return rc;
  if (loop->total_bytes > before)
    flags |= WS_FLAG_GREW;
  uint64_t waited = room_known ? 0 : ws_ring_wait(&loop->ring);
  *ws_ring_slot(&loop->ring) = (ws_record){WS_REC_CALL,
                                           flags,
                                           (uint16_t)op,
                                           (uint32_t)loop->iteration,
                                           ws_clock_ns(&loop->clock, end - start),
                                           loop->total_bytes,
                                           ws_clock_ns(&loop->clock, start - loop->t0)};
  ws_ring_publish(&loop->ring);
  mark_waited(loop, (uint32_t)loop->iteration, waited);
  void (*put)(ws_loop *, const ws_record *) = room_known ? put_known : push;
  if (loop->counters != NULL) {
    ws_record alloc;
    ws_alloc_record(&alloc, loop->iteration, (uint16_t)op, loop->counters);
    put(loop, &alloc);
  }
  if (loop->call_grows_failed > 0) {
    loop->call_grow.op = (uint16_t)op;
    loop->call_grow.iteration = loop->iteration;
    loop->call_grow.t = loop->grows_failed;
    put(loop, &loop->call_grow);
    loop->call_grows_failed = 0;
  }
  loop->iteration++;
  return 0;
}

/* Counting pass: starts a call's counters (live bytes carry over). */
static void reset_counters(ws_loop *loop) {
  double *c = loop->counters;
  if (c == NULL)
    return;
  c[WS_COUNT_ALLOCS] = 0;
  c[WS_COUNT_FREES] = 0;
  c[WS_COUNT_BYTES] = 0;
  c[WS_COUNT_PEAK] = c[WS_COUNT_LIVE];
}

/* Logs the wait that began when the loop last stopped on a full ring. */
static void mark_stall(ws_loop *loop) {
  if (loop->stall_start == 0)
    return;
  uint64_t now = ws_clock_ticks(&loop->clock);
  ws_record mark = {WS_REC_MARK,
                    0,
                    WS_MARK_BACKPRESSURE,
                    (uint32_t)loop->iteration,
                    ws_clock_ns(&loop->clock, now - loop->stall_start),
                    0,
                    ws_clock_ns(&loop->clock, loop->stall_start - loop->t0)};
  loop->stall_start = 0;
  ws_ring_push(&loop->ring, &mark);
}

/* When a control is due at ticks now and the ring has room for it and the
 * next call (else it waits for a run with room: the loop never waits for
 * it), times the reference workload and reads the thread's usage, records
 * them as metrics, and sets when the next control is due:
 * CONTROL_MIN_INTERVAL_NS or a CONTROL_SAMPLES_PER_RUN-th of the run so far
 * from now, whichever is longer. Between calls only: never in the timed
 * region. */
static void sample_control(ws_loop *loop, uint64_t now) {
  if (now < loop->control_due ||
      ws_ring_free_slots(&loop->ring) < CONTROL_SLOTS + SLOTS_PER_CALL + 1)
    return;
  loop->control_sink += ws_control_warm(loop->control_table);
  uint64_t start = ws_clock_ticks(&loop->clock);
  loop->control_sink += ws_control_work(loop->control_table, loop->control_sink);
  uint64_t end = ws_clock_ticks(&loop->clock);
  ws_loop_metric(loop, WS_METRIC_CONTROL_NS,
                 (double)ws_clock_ns(&loop->clock, end - start));
  uint64_t cpu_ns, preemptions;
  if (ws_thread_usage(&cpu_ns, &preemptions) == 0) {
    ws_loop_metric(loop, WS_METRIC_THREAD_CPU_NS, (double)cpu_ns);
    ws_loop_metric(loop, WS_METRIC_PREEMPTIONS, (double)preemptions);
  }
  double interval =
      (double)ws_clock_ns(&loop->clock, end - loop->t0) / CONTROL_SAMPLES_PER_RUN;
  if (interval < CONTROL_MIN_INTERVAL_NS)
    interval = CONTROL_MIN_INTERVAL_NS;
  loop->control_due = end + ticks_for(loop, interval);
}

/* A step of the batch that goes on: begin_call and end_call return it
 * when the batch has more calls to make. */
#define GO (-0x7fffffff)

/* Begins the next call of the batch: checks that the run and the batch go
 * on and the ring has room, writes a due iteration mark, picks the op,
 * builds and stages its arguments, publishes the call, starts its counters
 * and reads the thread's usage when the call is watched. Returns GO with
 * the op in loop->call_op, a WS_STATUS_* that ends the batch, or an error. */
PER_CALL int begin_call(ws_loop *loop) {
  if (loop->iteration >= loop->end)
    return WS_STATUS_DONE;
  if (ws_ring_stop_requested(&loop->ring))
    return WS_STATUS_STOPPED;
  if (loop->batch_done >= loop->batch_calls)
    return WS_STATUS_YIELD;
  int anchor_due =
      (loop->iteration & ((UINT64_C(1) << WS_ITERATION_ANCHOR_SHIFT) - 1)) == 0 &&
      loop->iteration > 0 && loop->anchored != loop->iteration + 1;
  if (ws_ring_free_slots(&loop->ring) < SLOTS_PER_CALL + (uint32_t)anchor_due) {
    loop->stall_start = ws_clock_ticks(&loop->clock);
    return WS_STATUS_FULL;
  }
  if (anchor_due)
    anchor(loop);
  uint32_t op = ws_rng_pick(&loop->rng, loop->cumulative, loop->n_ops);
  ws_value args[2 * WS_MAX_PARAMS];
  uint32_t n_args;
  int rc = build_args(loop, &loop->ops[op], args, &n_args, loop->bufs, &loop->n_bufs);
  if (rc == 0)
    rc = loop->engine->ops->stage_args(loop->engine, op, args, n_args);
  if (rc != 0)
    return rc;
  loop->batch_done++;
  set_ctl(loop, WS_CTL_ITERATION, (int32_t)(uint32_t)loop->iteration);
  set_ctl(loop, WS_CTL_ITERATION_HIGH, (int32_t)(uint32_t)(loop->iteration >> 32));
  set_ctl(loop, WS_CTL_CALL, (int32_t)op + 1);
  loop->call_op = op;
  loop->call_before = loop->total_bytes;
  reset_counters(loop);
  uint64_t cpu_ns;
  loop->call_watched =
      loop->watch_preemption && ws_thread_usage(&cpu_ns, &loop->call_switches) == 0;
  return GO;
}

/* Ends the call begun by begin_call that ran from start to end (ticks) with
 * outcome (WS_CALL_*, or an engine error): its preemption flag, its records,
 * its buffers, a due control sample. Returns GO when the batch goes on, the
 * WS_STATUS_* that ends it, or an error. */
PER_CALL int end_call(ws_loop *loop, int outcome, uint64_t start, uint64_t end) {
  uint32_t op = loop->call_op;
  uint64_t cpu_ns, switches_after;
  uint8_t preempted = 0;
  if (loop->call_watched && outcome != WS_CALL_PENDING &&
      ws_thread_usage(&cpu_ns, &switches_after) == 0 &&
      switches_after != loop->call_switches)
    preempted = WS_FLAG_PREEMPTED;
  loop->watch_preemption = end - start >= loop->watch_ticks;
  if (outcome != WS_CALL_PENDING)
    set_ctl(loop, WS_CTL_CALL, 0);
  if (outcome < 0)
    return outcome;
  int rc;
  if (outcome == WS_CALL_THREW) {
    /* The main thread is terminating the worker in this call (a hung
     * call, a second signal): V8 makes it return as thrown, but it was
     * cut short, and no record says otherwise. */
    if (__atomic_load_n(&loop->ring.ctl[WS_CTL_STOP], __ATOMIC_ACQUIRE) ==
        WS_STOP_ABANDON)
      return WS_STATUS_STOPPED;
    rc = finish_call(loop, op, start, end, loop->call_before, WS_FLAG_THREW | preempted,
                     1);
    return rc != 0 ? rc : WS_STATUS_THREW;
  }
  if (outcome == WS_CALL_PENDING) {
    loop->pending = 1;
    loop->pending_start = start;
    loop->pending_before = loop->call_before;
    loop->pending_op = op;
    return WS_STATUS_ASYNC;
  }
  if ((rc = free_buffers(loop, loop->bufs, loop->n_bufs)) != 0 ||
      (rc = finish_call(loop, op, start, end, loop->call_before, preempted, 1)) != 0)
    return rc;
  sample_control(loop, end);
  if (loop->deadline != 0 && end >= loop->deadline)
    return WS_STATUS_DEADLINE;
  if (end >= loop->batch_end)
    return WS_STATUS_YIELD;
  return GO;
}

/* The start of the driven call in flight that ended at end (ticks): its
 * start, or, when an estimated start leaves it less than a stopwatch read
 * (no call out of wasm and back is that short: the boundary before it cost
 * less than the estimate, which is then measured afresh), the last call's
 * end: a time that holds the boundary too, never one that is too short. */
static uint64_t driven_start(ws_loop *loop, uint64_t end) {
  if (loop->call_start == loop->call_after || loop->call_start + loop->stamp_ticks < end)
    return loop->call_start;
  boundary_cost *b = &loop->boundary[loop->call_op];
  b->count = b->next = 0;
  return loop->call_after;
}

int ws_loop_run(ws_loop *loop, uint32_t max_calls, uint64_t max_ns) {
  if (loop->pending)
    return WS_EINVAL;
  mark_stall(loop);
  sample_control(loop, ws_clock_ticks(&loop->clock));
  loop->batch_calls = max_calls;
  loop->batch_done = 0;
  loop->batch_end = ws_clock_ticks(&loop->clock) + ticks_for(loop, (double)max_ns);
  const ws_engine_ops *engine = loop->engine->ops;
  if (engine->drive != NULL) {
    loop->in_call = 0;
    loop->batch_status = GO;
    int outcome = engine->drive(loop->engine, loop);
    uint64_t end = ws_clock_ticks(&loop->clock);
    if (!loop->in_call)
      return outcome < 0 || loop->batch_status == GO ? WS_EENGINE : loop->batch_status;
    /* The driver came back in a call: it threw, or the engine failed. */
    loop->in_call = 0;
    return end_call(loop, outcome == WS_CALL_RETURNED ? WS_EENGINE : outcome,
                    driven_start(loop, end), end);
  }
  for (;;) {
    int rc = begin_call(loop);
    if (rc != GO)
      return rc;
    uint64_t start = ws_clock_ticks(&loop->clock);
    int outcome = engine->call(loop->engine, loop->call_op);
    uint64_t end = ws_clock_ticks(&loop->clock);
    if ((rc = end_call(loop, outcome, start, end)) != GO)
      return rc;
  }
}

/* Whether the boundary between two driven calls did more than the loop's
 * usual work (before: its state at the boundary's start): a control
 * sample, an iteration mark, a failed grow's record, a grown memory, buffer
 * arguments on either side, the counting pass's records, a preemption
 * watch. Its cost is no constant: the next call takes a fresh stamp. */
PER_CALL int boundary_extra(const ws_loop *loop, const boundary_state *before) {
  return loop->control_due != before->control_due || loop->anchored != before->anchored ||
         loop->grows_failed != before->grows_failed ||
         loop->total_bytes != before->total_bytes || before->n_bufs != 0 ||
         loop->n_bufs != 0 || loop->counters != NULL || before->watched ||
         loop->call_watched;
}

/* Adds a measured cost of the boundary before op (ticks, from the stamp
 * that ends the last call to a fresh one) to op's window and refreshes its
 * estimate: the window's smallest, so that a call is never shortened by a
 * boundary that happened to cost more (a preemption, a cache miss) being
 * taken as the rule, less stamp (what the fresh stamp itself adds: the
 * estimate stands for a boundary without it). */
static void calibrate(boundary_cost *b, uint64_t ticks, uint64_t stamp) {
  b->samples[b->next++ % BOUNDARY_WINDOW] = ticks;
  if (b->count < BOUNDARY_WINDOW)
    b->count++;
  uint64_t least = b->samples[0];
  for (uint32_t i = 1; i < b->count; i++)
    least = b->samples[i] < least ? b->samples[i] : least;
  b->least = least > stamp ? least - stamp : 0;
}

int ws_loop_next(ws_loop *loop) {
  uint64_t now = ws_clock_ticks(&loop->clock);
  boundary_state before = {loop->control_due, loop->anchored, loop->grows_failed,
                           loop->total_bytes, loop->n_bufs,   loop->call_watched};
  int rc = GO, chained = loop->in_call;
  if (loop->in_call) {
    loop->in_call = 0;
    rc = end_call(loop, WS_CALL_RETURNED, driven_start(loop, now), now);
  }
  if (rc == GO)
    rc = begin_call(loop);
  if (rc != GO) {
    loop->batch_status = rc;
    return -1;
  }
  loop->in_call = 1;
  /* One stamp per boundary: the end of the last call, plus what the loop's
   * work between two calls costs, calibrated in the run, is the start of
   * this one. A boundary that did more, or is due to calibrate, takes a
   * fresh stamp. */
  boundary_cost *b = &loop->boundary[loop->call_op];
  if (chained && b->count == BOUNDARY_WINDOW && ++b->since < BOUNDARY_CALIBRATE_EVERY &&
      !boundary_extra(loop, &before)) {
    loop->call_after = now;
    loop->call_start = now + b->least;
    return (int)loop->call_op;
  }
  loop->call_start = loop->call_after = ws_clock_ticks(&loop->clock);
  if (chained && !boundary_extra(loop, &before)) {
    b->since = 0;
    calibrate(b, loop->call_start - now, loop->stamp_ticks);
  }
  return (int)loop->call_op;
}

int ws_loop_calling(const ws_loop *loop) {
  return loop->in_call;
}

int ws_loop_settle(ws_loop *loop, int threw) {
  if (!loop->pending)
    return WS_EINVAL;
  uint64_t end = ws_clock_ticks(&loop->clock);
  loop->pending = 0;
  set_ctl(loop, WS_CTL_CALL, 0);
  uint8_t flags = WS_FLAG_ASYNC | (threw ? WS_FLAG_THREW : 0);
  return finish_call(loop, loop->pending_op, loop->pending_start, end,
                     loop->pending_before, flags, 0);
}

int ws_grow_reason(double memory_bytes, double asked_bytes, double maximum_bytes) {
  double wanted = memory_bytes + asked_bytes;
  if (wanted > WS_WASM32_MAX_BYTES)
    return WS_GROW_WASM32_LIMIT;
  if (maximum_bytes < 0 || (maximum_bytes > 0 && wanted > maximum_bytes))
    return WS_GROW_DECLARED_MAXIMUM;
  return WS_GROW_REFUSED;
}

void ws_loop_grow_failed(ws_loop *loop, double asked_bytes, double memory_bytes,
                         double maximum_bytes) {
  ws_record rec = {WS_REC_GROW_FAILED,
                   (uint8_t)ws_grow_reason(memory_bytes, asked_bytes, maximum_bytes),
                   WS_NO_OP,
                   last_call(loop),
                   asked_bytes > 0 ? (uint64_t)asked_bytes : 0,
                   memory_bytes > 0 ? (uint64_t)memory_bytes : 0,
                   ++loop->grows_failed};
  /* In a call: the call record comes first, in a slot the loop reserved. */
  if (__atomic_load_n(&loop->ring.ctl[WS_CTL_CALL], __ATOMIC_RELAXED) != 0) {
    if (loop->call_grows_failed++ == 0)
      loop->call_grow = rec;
    return;
  }
  push(loop, &rec);
}

uint32_t ws_loop_failed_alloc(const ws_loop *loop) {
  return loop->failed_alloc;
}

uint64_t ws_loop_completed(const ws_loop *loop) {
  return loop->iteration;
}

int ws_loop_metric(ws_loop *loop, uint16_t id, double value) {
  if (isnan(value) || value < 0)
    return 0;
  ws_record rec = {WS_REC_METRIC,    0, id, last_call(loop), (uint64_t)llround(value), 0,
                   since_start(loop)};
  push(loop, &rec);
  return 0;
}

int ws_loop_sample_memories(ws_loop *loop) {
  uint64_t now = since_start(loop), rss;
  if (loop->rss_fd >= 0 && ws_rss_read(loop->rss_fd, &rss) == 0) {
    ws_record rec = {WS_REC_METRIC, 0, WS_METRIC_RSS, last_call(loop), rss, 0, now};
    push(loop, &rec);
  }
  int rc = refresh_memories(loop);
  if (rc != 0)
    return rc;
  for (uint32_t k = 0; k < loop->n_memories; k++) {
    ws_record rec = {WS_REC_METRIC,
                     0,
                     (uint16_t)(WS_METRIC_MEMORY_BASE + k),
                     last_call(loop),
                     loop->memory_bytes[k],
                     0,
                     now};
    push(loop, &rec);
  }
  return 0;
}

/* Records census result r of memory k as metrics (ws_loop_census): the
 * census ids shifted by k * WS_METRIC_CENSUS_STRIDE. */
static void record_census(ws_loop *loop, uint32_t k, ws_census *census,
                          const ws_census_result *r) {
  const uint16_t at = (uint16_t)(k * WS_METRIC_CENSUS_STRIDE);
  ws_loop_metric(loop, at + WS_METRIC_CENSUS_KIND, r->kind);
  ws_loop_metric(loop, at + WS_METRIC_CENSUS_WALK_NS, (double)r->elapsed_ns);
  if (r->kind == WS_CENSUS_NONE)
    return;
  ws_loop_metric(loop, at + WS_METRIC_CENSUS_LIVE, (double)r->tally.live);
  ws_loop_metric(loop, at + WS_METRIC_CENSUS_LIVE_GROSS, (double)r->tally.gross);
  ws_loop_metric(loop, at + WS_METRIC_CENSUS_FREE, (double)r->tally.free_bytes);
  ws_loop_metric(loop, at + WS_METRIC_CENSUS_FREE_CHUNKS, (double)r->tally.free_n);
  ws_loop_metric(loop, at + WS_METRIC_CENSUS_LARGEST_FREE, (double)r->tally.largest);
  ws_loop_metric(loop, at + WS_METRIC_CENSUS_TOP, (double)r->top_bytes);
  ws_loop_metric(loop, at + WS_METRIC_CENSUS_CHUNKS, (double)r->chunks);
  ws_loop_metric(loop, at + WS_METRIC_CENSUS_FRAGMENTATION, r->fragmentation);
  ws_loop_metric(loop, at + WS_METRIC_CENSUS_HEAP, (double)r->heap_bytes);
  ws_loop_metric(loop, at + WS_METRIC_CENSUS_STATE, (double)r->state);
  for (int c = 0; c < WS_CENSUS_CLASSES; c++) {
    if (r->tally.classes[c] != 0)
      census->classes_seen |= 1u << c;
    if (census->classes_seen & (1u << c))
      ws_loop_metric(loop, (uint16_t)(at + WS_METRIC_CENSUS_CLASS_BASE + c),
                     (double)r->tally.classes[c]);
  }
}

static uint64_t census_clock(const ws_loop *loop) {
  uint64_t cpu;
  if (loop->has_cpu && ws_thread_cpu_ns(&cpu) == 0)
    return cpu > loop->cpu0 ? cpu - loop->cpu0 : 0;
  return since_start(loop);
}

/* Returns the share of the run done so far, 0 to 1: of its calls or of its
 * duration, whichever is further along; 0 when neither bounds it. */
static double run_share(const ws_loop *loop) {
  uint64_t calls = loop->end - loop->first;
  double share = calls > 0 && loop->end != UINT64_MAX
                     ? (double)(loop->iteration - loop->first) / (double)calls
                     : 0;
  if (loop->deadline > loop->t0) {
    uint64_t now = ws_clock_ticks(&loop->clock);
    double t = (double)(now - loop->t0) / (double)(loop->deadline - loop->t0);
    if (t > share)
      share = t;
  }
  return share < 1 ? share : 1;
}

/* The linear memory k of the run as the engine sees it now, for a census
 * or a blocks walk: 0 with *data and *len set, WS_EINVAL for a memory the
 * census does not cover, or the engine's error. */
static int census_memory(ws_loop *loop, uint32_t k, uint8_t **data, size_t *len) {
  if (k >= loop->n_memories || k >= WS_CENSUS_MEMORIES)
    return WS_EINVAL;
  return loop->engine->ops->memory_view(loop->engine, k, data, len);
}

/* How long the census budget has a census wait after the last (ns of the
 * budget's clock): its cost times (1000 / budget - 1), 0 without a budget. */
static double census_wait_ns(const ws_census *census) {
  uint32_t budget = census->hints.budget_permille ? census->hints.budget_permille
                                                  : WS_CENSUS_BUDGET_DEFAULT;
  return budget >= 1000 ? 0 : (double)census->last_cost_ns * (1000.0 / budget - 1.0);
}

/* Whether the census budget skips a recorded census due at start
 * (census_clock) that would bring the run's census time to total: when it
 * is due sooner after the last one than its cost allows, or total is over
 * the budget (the floor's censuses spend it too); the floor's census only
 * when total is over the floor's cap and its free allowance. */
static int budget_skips(const ws_census *census, uint64_t total, uint64_t start,
                        int floor_due) {
  const ws_census_hints *h = &census->hints;
  if (floor_due) {
    uint32_t cap = h->floor_permille ? h->floor_permille : WS_CENSUS_FLOOR_CAP_DEFAULT;
    uint64_t free_ns = h->floor_free_ns ? h->floor_free_ns : WS_CENSUS_FLOOR_FREE_NS;
    return cap < 1000 && total > free_ns &&
           (double)total * 1000.0 > (double)cap * (double)start;
  }
  uint32_t budget = h->budget_permille ? h->budget_permille : WS_CENSUS_BUDGET_DEFAULT;
  if (budget >= 1000)
    return 0;
  double wait = census_wait_ns(census);
  uint64_t since = start > census->last_end_ns ? start - census->last_end_ns : 0;
  return (double)since < wait || (double)total * 1000.0 > (double)budget * (double)start;
}

int ws_loop_census(ws_loop *loop, uint32_t k, ws_census *census, int record,
                   ws_census_result *out) {
  if (k >= loop->n_memories || k >= WS_CENSUS_MEMORIES)
    return WS_EINVAL; /* before the budget: a memory it does not cover is no skip */
  uint64_t *spent =
      census->run_spent_ns != NULL ? census->run_spent_ns : &census->spent_ns;
  double share = run_share(loop);
  /* Due by the floor once the run has entered a stretch it has no census in. */
  int floor_due = (uint32_t)(share * WS_CENSUS_FLOOR) >
                  (uint32_t)(census->last_share * WS_CENSUS_FLOOR);
  /* Too soon by the wall clock is too soon by the thread's CPU time, which
   * never runs faster: skipped without reading the CPU clock (a system call,
   * about 1 us here, at each slow sample). */
  if (record && census->last_cost_ns > 0 && !floor_due &&
      (double)(since_start(loop) - census->last_end_wall_ns) < census_wait_ns(census))
    return WS_CENSUS_SKIPPED;
  uint64_t start = census_clock(loop);
  if (record && census->last_cost_ns > 0 &&
      budget_skips(census, *spent + census->last_cost_ns, start, floor_due))
    return WS_CENSUS_SKIPPED;
  uint8_t *data;
  size_t len;
  int rc = census_memory(loop, k, &data, &len);
  if (rc != 0)
    return rc;
  rc = ws_census_take(census, data, len, out);
  uint64_t end = census_clock(loop);
  out->elapsed_ns = end - start;
  if (record) {
    /* The budget's cost is the median of the last three censuses: one that
     * was preempted does not hold back the next ones. */
    uint64_t *c = census->recent_ns;
    c[0] = c[1];
    c[1] = c[2];
    c[2] = end - start;
    uint64_t lo = c[0] < c[1] ? c[0] : c[1], hi = c[0] < c[1] ? c[1] : c[0];
    census->last_end_ns = end;
    census->last_end_wall_ns = since_start(loop);
    census->spent_ns += end - start;
    if (spent != &census->spent_ns)
      *spent += end - start;
    census->last_share = share;
    census->last_cost_ns = c[2] < lo ? lo : c[2] > hi ? hi : c[2];
    if (c[0] == 0) /* fewer than three so far: the latest */
      census->last_cost_ns = c[2];
    record_census(loop, k, census, out);
  }
  return rc == 0 ? WS_CENSUS_TAKEN : rc;
}

/* Charges a walk that began at start (census_clock) to the census budget
 * of census: its own time and the run's. */
static void charge_census(const ws_loop *loop, ws_census *census, uint64_t start) {
  uint64_t end = census_clock(loop);
  uint64_t spent = end > start ? end - start : 0;
  census->spent_ns += spent;
  if (census->run_spent_ns != NULL)
    *census->run_spent_ns += spent;
}

/* One blocks walk of memory k with census, charged to its budget: the mark
 * into *marking when marking is not NULL, else the pick from *picking of
 * up to max blocks into out[0..*n). Returns the walk's code, or
 * census_memory's. */
static int blocks_walk(ws_loop *loop, uint32_t k, ws_census *census,
                       ws_blocks_mark *marking, const ws_blocks_mark *picking,
                       ws_block *out, uint32_t max, uint32_t *n) {
  uint64_t start = census_clock(loop);
  uint8_t *data;
  size_t len;
  int rc = census_memory(loop, k, &data, &len);
  if (rc != 0)
    return rc;
  rc = marking != NULL
           ? ws_blocks_mark_take(marking, census, data, len)
           : ws_blocks_pick(picking, census, data, len, loop->seed ^ k, out, max, n);
  charge_census(loop, census, start);
  return rc;
}

int ws_loop_blocks_mark(ws_loop *loop, uint32_t k, ws_census *census,
                        ws_blocks_mark *mark) {
  return blocks_walk(loop, k, census, mark, NULL, NULL, 0, NULL);
}

int ws_loop_blocks_pick(ws_loop *loop, uint32_t k, ws_census *census,
                        const ws_blocks_mark *mark, ws_block *out, uint32_t max,
                        uint32_t *n) {
  *n = 0;
  return blocks_walk(loop, k, census, NULL, mark, out, max, n);
}

int ws_loop_track_memory(ws_loop *loop, uint32_t *index) {
  uint64_t *grown = realloc(loop->memory_bytes, (loop->n_memories + 1) * sizeof *grown);
  if (grown == NULL)
    return WS_ENOMEM;
  loop->memory_bytes = grown;
  uint32_t k = loop->n_memories;
  int rc = loop->engine->ops->memory_sizes(loop->engine, grown, k + 1);
  if (rc != 0)
    return rc;
  loop->n_memories++;
  loop->total_bytes += grown[k];
  ws_record rec = {
      WS_REC_MARK, 0,        WS_MARK_MEMORY_TRACKED, (uint32_t)loop->iteration,
      k,           grown[k], since_start(loop)};
  push(loop, &rec);
  *index = k;
  return 0;
}

int ws_loop_end(ws_loop *loop) {
  ws_record rec = {WS_REC_MARK,     0, WS_MARK_END,      (uint32_t)loop->iteration,
                   loop->iteration, 0, since_start(loop)};
  push(loop, &rec);
  return 0;
}
