/* Tests of the iteration loop (ws_loop.h) through a fake engine, no Node,
 * once calling each op and once driving the batches (ws_engine_ops.drive):
 * the arguments that reach the module, buffer lifetimes, records and flags,
 * memory growth, throws, async calls, back-pressure, stop and deadline, the
 * counting pass's allocation records, failed grows and the slow-cadence
 * metrics. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ws.h"

#define FAKE_MEMORY (1u << 16)
#define MAX_CALLS 4096

/* A module in C: one memory, a bump allocator, and a log of what it got. */
typedef struct {
  ws_engine base;
  uint8_t memory[FAKE_MEMORY];
  uint64_t memory_bytes; /* what memory_bytes reports */
  uint32_t grow_every;   /* the reported size grows a page every this many calls */
  uint32_t bump, frees, freed_len;
  int alloc_fails;     /* alloc returns 0 */
  uint32_t throw_at;   /* the call (1-based) that throws, 0: none */
  uint32_t pending_at; /* the call (1-based) that returns a promise, 0: none */
  uint32_t calls;
  ws_loop *loop;          /* the loop, for calls that report failed grows */
  uint32_t grow_fails_at; /* the call (1-based) whose grows fail, 0: none */
  uint32_t grow_fails;    /* how many of its grows fail */
  const int32_t *ctl;     /* the ring's control words, when the test watches them */
  int32_t call_word;      /* WS_CTL_CALL as the last call saw it */
  ws_value staged[2 * WS_MAX_PARAMS];
  uint32_t n_staged;
  ws_value seen[MAX_CALLS][4]; /* the first arguments of each call */
  uint32_t seen_op[MAX_CALLS];
  uint8_t first_byte[MAX_CALLS]; /* the first byte of a buffer argument */
} fake_engine;

static int fake_stage(ws_engine *e, uint32_t op, const ws_value *args, uint32_t n) {
  fake_engine *f = (fake_engine *)e;
  (void)op;
  memcpy(f->staged, args, n * sizeof *args);
  f->n_staged = n;
  return 0;
}

static int fake_call(ws_engine *e, uint32_t op) {
  fake_engine *f = (fake_engine *)e;
  if (f->calls < MAX_CALLS) {
    memcpy(f->seen[f->calls], f->staged, 4 * sizeof *f->staged);
    f->seen_op[f->calls] = op;
    if (f->n_staged >= 2 && f->staged[0].i > 0 && f->staged[0].i < FAKE_MEMORY)
      f->first_byte[f->calls] = f->memory[f->staged[0].i];
  }
  f->calls++;
  if (f->ctl != NULL)
    f->call_word = f->ctl[WS_CTL_CALL];
  if (f->grow_every != 0 && f->calls % f->grow_every == 0)
    f->memory_bytes += 65536;
  for (uint32_t i = 0; f->calls == f->grow_fails_at && i < f->grow_fails; i++)
    ws_loop_grow_failed(f->loop, 65536.0 * (i + 1), (double)f->memory_bytes,
                        (double)f->memory_bytes);
  if (f->calls == f->throw_at)
    return WS_CALL_THREW;
  if (f->calls == f->pending_at)
    return WS_CALL_PENDING;
  return WS_CALL_RETURNED;
}

static int fake_memory_sizes(ws_engine *e, uint64_t *bytes, uint32_t n) {
  fake_engine *f = (fake_engine *)e;
  for (uint32_t k = 0; k < n; k++)
    bytes[k] = k == 0 ? f->memory_bytes : 1000 + k;
  return 0;
}

static int fake_memory_view(ws_engine *e, uint32_t k, uint8_t **data, size_t *len) {
  fake_engine *f = (fake_engine *)e;
  (void)k;
  *data = f->memory;
  *len = FAKE_MEMORY;
  return 0;
}

static int fake_alloc(ws_engine *e, uint32_t len, uint32_t *ptr) {
  fake_engine *f = (fake_engine *)e;
  if (f->alloc_fails || f->bump + len > FAKE_MEMORY) {
    *ptr = 0;
    return 0;
  }
  *ptr = f->bump;
  f->bump += len;
  return 0;
}

static int fake_free(ws_engine *e, uint32_t ptr, uint32_t len) {
  fake_engine *f = (fake_engine *)e;
  f->frees++;
  f->freed_len += len;
  f->bump = ptr < f->bump ? ptr : f->bump; /* a stack: the last block goes first */
  return 0;
}

/* Drives a batch as the V8 engine's driver does (ws_engine_ops.drive):
 * the ops ws_loop_next asks for, until it says the batch ends or a call
 * does not return. */
static int fake_drive(ws_engine *e, struct ws_loop *loop) {
  int op;
  while ((op = ws_loop_next(loop)) >= 0) {
    int outcome = fake_call(e, (uint32_t)op);
    if (outcome != WS_CALL_RETURNED)
      return outcome;
  }
  return WS_CALL_RETURNED;
}

static const ws_engine_ops fake_ops = {
    fake_stage, fake_call, fake_memory_sizes, fake_memory_view, fake_alloc, fake_free,
    NULL,       NULL};

static const ws_engine_ops driven_ops = {
    fake_stage, fake_call, fake_memory_sizes, fake_memory_view, fake_alloc,
    fake_free,  NULL,      fake_drive};

/* Whether new engines drive their batches: every test runs both ways. */
static int driven;

static fake_engine *new_engine(void) {
  fake_engine *f = calloc(1, sizeof *f);
  f->base.ops = driven ? &driven_ops : &fake_ops;
  f->memory_bytes = 131072;
  f->bump = 16;
  return f;
}

typedef struct {
  void *region;
  ws_ring ring;
} test_ring;

static void new_ring(test_ring *r, uint32_t capacity) {
  size_t bytes = ws_ring_region_bytes(capacity);
  r->region = aligned_alloc(64, bytes);
  memset(r->region, 0, bytes);
  ((int32_t *)r->region)[WS_CTL_CAPACITY] = (int32_t)capacity;
  ws_ring_attach(&r->ring, r->region, bytes);
}

static ws_op_spec op_with(uint64_t weight, uint32_t n, const ws_arg_spec *args) {
  ws_op_spec op = {weight, n, {{0}}};
  if (n > 0)
    memcpy(op.args, args, n * sizeof *args);
  return op;
}

static ws_loop_config config_for(uint32_t iterations) {
  ws_loop_config c = {.seed = 7, .iterations = iterations, .memories = 1};
  return c;
}

/* The values every argument kind and type delivers. */
static void test_argument_values(void) {
  fake_engine *f = new_engine();
  test_ring r;
  new_ring(&r, 1u << 14);
  ws_arg_spec args[] = {{WS_ARG_CONST, WS_VAL_I32, 42, 42},
                        {WS_ARG_ITERATION, WS_VAL_I64, 0, 0},
                        {WS_ARG_RANDOM, WS_VAL_I32, -5, 5},
                        {WS_ARG_RANDOM, WS_VAL_F64, 1000000, 1000003}};
  ws_op_spec op = op_with(1, 4, args);
  ws_loop_config c = config_for(500);
  ws_loop *loop;
  CHECK(ws_loop_create(&c, &op, 1, &r.ring, &f->base, &loop) == 0);
  CHECK(ws_loop_run(loop, 1000, UINT64_MAX / 4) == WS_STATUS_DONE);
  int ok = 1, low = 0, high = 0;
  for (uint32_t i = 0; i < 500; i++) {
    ws_value *v = f->seen[i];
    ok &= v[0].type == WS_VAL_I32 && v[0].i == 42;
    ok &= v[1].type == WS_VAL_I64 && v[1].i == (int64_t)i;
    ok &= v[2].i >= -5 && v[2].i <= 5;
    low |= v[2].i == -5;
    high |= v[2].i == 5;
    ok &= v[3].type == WS_VAL_F64 && v[3].f >= 1000000 && v[3].f <= 1000003;
  }
  CHECK(ok);
  CHECK(low && high);
  CHECK(ws_loop_completed(loop) == 500);
  ws_loop_destroy(loop);
  free(r.region);
  free(f);
}

/* Buffers: allocated in the module, filled with seeded bytes, freed with
 * their length after the call; an allocator that fails is WS_EALLOC. */
static void test_buffers(void) {
  fake_engine *f = new_engine();
  test_ring r;
  new_ring(&r, 1u << 12);
  ws_arg_spec args[] = {{WS_ARG_BUF, WS_VAL_I32, 16, 64}};
  ws_op_spec op = op_with(1, 1, args);
  ws_loop_config c = config_for(100);
  ws_loop *loop;
  CHECK(ws_loop_create(&c, &op, 1, &r.ring, &f->base, &loop) == 0);
  CHECK(ws_loop_run(loop, 1000, UINT64_MAX / 4) == WS_STATUS_DONE);
  int ok = 1, nonzero = 0;
  for (uint32_t i = 0; i < 100; i++) {
    ok &= f->seen[i][0].i == 16 && f->seen[i][1].i >= 16 && f->seen[i][1].i <= 64;
    nonzero |= f->first_byte[i] != 0;
  }
  CHECK(ok);
  CHECK(nonzero);
  CHECK(f->frees == 100);
  ws_loop_destroy(loop);

  f->alloc_fails = 1;
  c.iterations = 10;
  CHECK(ws_loop_create(&c, &op, 1, &r.ring, &f->base, &loop) == 0);
  CHECK(ws_loop_run(loop, 1000, UINT64_MAX / 4) == WS_EALLOC);
  ws_loop_destroy(loop);
  free(r.region);
  free(f);
}

/* Returns whether rec is one of the machine's control samples, which the
 * loop writes on its own cadence (test_control checks them). */
static int is_control(const ws_record *rec) {
  return rec->type == WS_REC_METRIC &&
         (rec->op == WS_METRIC_CONTROL_NS || rec->op == WS_METRIC_THREAD_CPU_NS ||
          rec->op == WS_METRIC_PREEMPTIONS);
}

/* Reads every record out of the ring into out, the control samples left
 * out; returns the count. */
static size_t drain(test_ring *r, ws_record *out, size_t max) {
  ws_record rec;
  size_t n = 0;
  while (ws_ring_pop(&r->ring, &rec, 1) == 1)
    if (!is_control(&rec) && n < max)
      out[n++] = rec;
  return n;
}

/* The machine's control: the first run of the loop times the reference
 * workload (a positive time) and reads the thread's usage before any call;
 * later ones only when due, so a run of many short batches writes far fewer
 * control samples than batches. */
static void test_control(void) {
  fake_engine *f = new_engine();
  test_ring r;
  new_ring(&r, 1u << 14);
  ws_op_spec op = op_with(1, 0, NULL);
  ws_loop_config c = config_for(2000);
  ws_loop *loop = NULL;
  CHECK(ws_loop_create(&c, &op, 1, &r.ring, &f->base, &loop) == 0);
  int batches = 0;
  while (ws_loop_run(loop, 1, UINT64_MAX / 4) == WS_STATUS_YIELD)
    batches++;
  ws_record rec;
  int first = 1, first_ok = 0, controls = 0, usage = 0;
  while (ws_ring_pop(&r.ring, &rec, 1) == 1) {
    if (first)
      first_ok = rec.type == WS_REC_METRIC && rec.op == WS_METRIC_CONTROL_NS &&
                 rec.a > 0 && rec.iteration == 0;
    first = 0;
    controls += rec.type == WS_REC_METRIC && rec.op == WS_METRIC_CONTROL_NS;
    usage += rec.type == WS_REC_METRIC && rec.op == WS_METRIC_PREEMPTIONS;
  }
  CHECK(first_ok);
  CHECK(batches == 1999 && controls >= 1 && controls < batches / 10);
  CHECK(usage == controls);
  ws_loop_destroy(loop);
  free(r.region);
  free(f);
}

/* Call records: in order, with memory after the call, the grew flag when it
 * grew, and weights respected by the op choice; the same seed repeats. */
static void test_records(void) {
  fake_engine *f = new_engine();
  f->grow_every = 100;
  test_ring r;
  new_ring(&r, 1u << 12);
  ws_op_spec ops[] = {op_with(3, 0, NULL), op_with(1, 0, NULL)};
  ws_loop_config c = config_for(1000);
  ws_loop *loop;
  CHECK(ws_loop_create(&c, ops, 2, &r.ring, &f->base, &loop) == 0);
  CHECK(ws_loop_run(loop, 1000, UINT64_MAX / 4) == WS_STATUS_DONE);
  static ws_record recs[4096];
  size_t n = drain(&r, recs, 4096);
  CHECK(n == 1000);
  int ordered = 1, grew_ok = 1, in_turn = 1;
  uint32_t op0 = 0, grew = 0;
  for (size_t i = 0; i < n; i++) {
    ordered &= recs[i].type == WS_REC_CALL && recs[i].iteration == i;
    /* A call starts after the last one ended (a driven call's estimated
     * start too), within the nanosecond the two roundings may lose. */
    if (i > 0)
      in_turn &= recs[i].t + 1 >= recs[i - 1].t + recs[i - 1].a;
    /* Every call has a time (an estimated start never swallows a call). */
    in_turn &= recs[i].a > 0;
    op0 += recs[i].op == 0;
    int should_grow = (i + 1) % 100 == 0;
    grew += (recs[i].flags & WS_FLAG_GREW) != 0;
    grew_ok &= ((recs[i].flags & WS_FLAG_GREW) != 0) == should_grow;
    grew_ok &= recs[i].b == 131072 + 65536 * ((i + 1) / 100);
  }
  CHECK(ordered && in_turn);
  CHECK(grew == 10 && grew_ok);
  CHECK(op0 > 650 && op0 < 850);
  uint32_t first_ops[16];
  memcpy(first_ops, f->seen_op, sizeof first_ops);
  ws_loop_destroy(loop);
  fake_engine *g = new_engine();
  CHECK(ws_loop_create(&c, ops, 2, &r.ring, &g->base, &loop) == 0);
  CHECK(ws_loop_run(loop, 16, UINT64_MAX / 4) == WS_STATUS_YIELD);
  CHECK(memcmp(first_ops, g->seen_op, sizeof first_ops) == 0);
  ws_loop_destroy(loop);
  free(r.region);
  free(f);
  free(g);
}

/* A throw ends the batch with its record written; a promise ends it until
 * settled, and the settled record is flagged async. */
static void test_throw_and_async(void) {
  fake_engine *f = new_engine();
  f->throw_at = 5;
  test_ring r;
  new_ring(&r, 1u << 10);
  ws_op_spec op = op_with(1, 0, NULL);
  ws_loop_config c = config_for(100);
  ws_loop *loop;
  ws_record recs[64];
  CHECK(ws_loop_create(&c, &op, 1, &r.ring, &f->base, &loop) == 0);
  CHECK(ws_loop_run(loop, 1000, UINT64_MAX / 4) == WS_STATUS_THREW);
  CHECK(drain(&r, recs, 64) == 5);
  CHECK(recs[4].flags & WS_FLAG_THREW);
  ws_loop_destroy(loop);

  /* The CALL control word is 1 + op during a call and while its promise is
   * pending (the watchdog reads it), 0 otherwise. */
  fake_engine *g = new_engine();
  g->pending_at = 3;
  g->ctl = r.ring.ctl;
  CHECK(ws_loop_create(&c, &op, 1, &r.ring, &g->base, &loop) == 0);
  CHECK(ws_loop_settle(loop, 0) == WS_EINVAL);
  CHECK(ws_loop_run(loop, 1000, UINT64_MAX / 4) == WS_STATUS_ASYNC);
  CHECK(g->call_word == 1);
  CHECK(r.ring.ctl[WS_CTL_CALL] == 1);
  CHECK(r.ring.ctl[WS_CTL_ITERATION] == 2);
  CHECK(ws_loop_run(loop, 1000, UINT64_MAX / 4) == WS_EINVAL);
  CHECK(ws_loop_completed(loop) == 2);
  CHECK(ws_loop_settle(loop, 1) == 0);
  CHECK(r.ring.ctl[WS_CTL_CALL] == 0);
  CHECK(ws_loop_completed(loop) == 3);
  CHECK(drain(&r, recs, 64) == 3);
  CHECK(recs[2].flags == (WS_FLAG_ASYNC | WS_FLAG_THREW));
  CHECK(ws_loop_run(loop, 1000, UINT64_MAX / 4) == WS_STATUS_DONE);
  ws_loop_destroy(loop);
  free(r.region);
  free(f);
  free(g);
}

/* A full ring stops the loop before a call, and the wait becomes a
 * back-pressure mark; a stop request and a deadline end the run. */
static void test_backpressure_stop_deadline(void) {
  fake_engine *f = new_engine();
  test_ring r;
  new_ring(&r, 16);
  ws_op_spec op = op_with(1, 0, NULL);
  ws_loop_config c = config_for(100);
  ws_loop *loop;
  ws_record recs[64];
  CHECK(ws_loop_create(&c, &op, 1, &r.ring, &f->base, &loop) == 0);
  /* 16 slots: the machine's control first (3 records, test_control), then
   * 4 free before each call (call, allocation, failed-grow and
   * back-pressure records): 10 calls fit, fewer on a machine slow enough
   * that the control falls due again between them (every 0.5 ms). The loop
   * stops with fewer than 4 slots free, whatever the count. */
  CHECK(ws_loop_run(loop, 1000, UINT64_MAX / 4) == WS_STATUS_FULL);
  CHECK(ws_ring_free_slots(&r.ring) < 4);
  uint64_t fitted = ws_loop_completed(loop);
  CHECK(fitted >= 4 && fitted <= 10);
  CHECK(drain(&r, recs, 64) == fitted);
  CHECK(ws_loop_run(loop, 1, UINT64_MAX / 4) == WS_STATUS_YIELD);
  CHECK(drain(&r, recs, 64) == 2);
  CHECK(recs[0].type == WS_REC_MARK && recs[0].op == WS_MARK_BACKPRESSURE);
  CHECK(recs[1].type == WS_REC_CALL && recs[1].iteration == fitted);
  r.ring.ctl[WS_CTL_STOP] = 1;
  CHECK(ws_loop_run(loop, 1000, UINT64_MAX / 4) == WS_STATUS_STOPPED);
  r.ring.ctl[WS_CTL_STOP] = 0;
  ws_loop_destroy(loop);

  c.duration_ns = 1;
  CHECK(ws_loop_create(&c, &op, 1, &r.ring, &f->base, &loop) == 0);
  CHECK(ws_loop_run(loop, 1000, UINT64_MAX / 4) == WS_STATUS_DEADLINE);
  CHECK(ws_loop_completed(loop) == 1);
  ws_loop_destroy(loop);
  free(r.region);
  free(f);
}

/* The counting pass's records, metrics, memory samples, a memory tracked
 * late, and the end mark. */
static void test_counting_and_metrics(void) {
  fake_engine *f = new_engine();
  test_ring r;
  new_ring(&r, 1u << 10);
  double counters[WS_COUNT_FIELDS] = {0};
  ws_op_spec op = op_with(1, 0, NULL);
  ws_loop_config c = config_for(3);
  c.counters = counters;
  ws_loop *loop;
  ws_record recs[64];
  CHECK(ws_loop_create(&c, &op, 1, &r.ring, &f->base, &loop) == 0);
  counters[WS_COUNT_LIVE] = 100;
  CHECK(ws_loop_run(loop, 1, UINT64_MAX / 4) == WS_STATUS_YIELD);
  CHECK(counters[WS_COUNT_PEAK] == 100);
  CHECK(drain(&r, recs, 64) == 2);
  CHECK(recs[1].type == WS_REC_ALLOC && (recs[1].t & 0xffffffffu) == 100);
  CHECK(ws_loop_metric(loop, WS_METRIC_JS_HEAP, 1234.4) == 0);
  CHECK(ws_loop_metric(loop, WS_METRIC_JS_HEAP, -1) == 0);
  CHECK(drain(&r, recs, 64) == 1);
  CHECK(recs[0].type == WS_REC_METRIC && recs[0].a == 1234 && recs[0].iteration == 0);
  uint32_t index = 0;
  CHECK(ws_loop_track_memory(loop, &index) == 0 && index == 1);
  CHECK(drain(&r, recs, 64) == 1);
  CHECK(recs[0].op == WS_MARK_MEMORY_TRACKED && recs[0].a == 1 && recs[0].b == 1001);
  CHECK(ws_loop_sample_memories(loop) == 0);
  size_t n = drain(&r, recs, 64);
  CHECK(n >= 2);
  CHECK(recs[n - 1].op == WS_METRIC_MEMORY_BASE + 1 && recs[n - 1].a == 1001);
  CHECK(ws_loop_run(loop, 10, UINT64_MAX / 4) == WS_STATUS_DONE);
  n = drain(&r, recs, 64);
  CHECK(n == 4 && recs[2].b == 131072 + 1001);
  CHECK(ws_loop_end(loop) == 0);
  CHECK(drain(&r, recs, 64) == 1 && recs[0].op == WS_MARK_END && recs[0].a == 3);
  ws_loop_destroy(loop);
  free(r.region);
  free(f);
}

/* A call whose memory.grow fails is followed by one GROW_FAILED record with
 * its op and iteration, its first failure's bytes and reason, and the run's
 * running count; a failure outside a call is written at once, with no op;
 * the reasons follow the limits; the decoded summary keeps the first and
 * the count. */
static void test_grow_failed(void) {
  fake_engine *f = new_engine();
  f->grow_fails_at = 3;
  f->grow_fails = 2;
  test_ring r;
  new_ring(&r, 1u << 10);
  ws_op_spec ops[] = {op_with(1, 0, NULL), op_with(1, 0, NULL)};
  ws_loop_config c = config_for(5);
  ws_loop *loop;
  CHECK(ws_loop_create(&c, ops, 2, &r.ring, &f->base, &loop) == 0);
  f->loop = loop;
  f->ctl = r.ring.ctl;
  CHECK(ws_loop_run(loop, 100, UINT64_MAX / 4) == WS_STATUS_DONE);
  ws_loop_grow_failed(loop, 65536, 131072, 0);
  ws_record recs[64];
  CHECK(drain(&r, recs, 64) == 7);
  CHECK(recs[2].type == WS_REC_CALL && recs[3].type == WS_REC_GROW_FAILED);
  CHECK(recs[3].iteration == 2 && recs[3].op == recs[2].op);
  CHECK(recs[3].a == 65536 && recs[3].b == 131072 && recs[3].t == 2);
  CHECK(recs[3].flags == WS_GROW_DECLARED_MAXIMUM);
  CHECK(recs[6].type == WS_REC_GROW_FAILED && recs[6].op == WS_NO_OP);
  CHECK(recs[6].iteration == 4 && recs[6].t == 3 && recs[6].flags == WS_GROW_REFUSED);
  ws_grow_failures g = {0};
  ws_grow_failures_add(&g, &recs[3], recs[3].iteration);
  ws_grow_failures_add(&g, &recs[6], recs[6].iteration);
  CHECK(g.total == 3 && g.records == 2 && g.first_iteration == 2);
  CHECK(g.first_op == recs[2].op && g.first_asked == 65536 && g.first_bytes == 131072);
  CHECK(ws_grow_reason(WS_WASM32_MAX_BYTES - 65536, 131072, 0) == WS_GROW_WASM32_LIMIT);
  CHECK(ws_grow_reason(65536, 65536, -1) == WS_GROW_DECLARED_MAXIMUM);
  CHECK(ws_grow_reason(65536, 65536, 1 << 20) == WS_GROW_REFUSED);
  ws_loop_destroy(loop);
  free(r.region);
  free(f);
}

/* A census budget that would skip nearly every census still leaves one per
 * 1 / WS_CENSUS_FLOOR of the run: the floor does not depend on time. */
static void test_census_floor(void) {
  fake_engine *f = new_engine();
  test_ring r;
  new_ring(&r, 1u << 12);
  ws_op_spec op = op_with(1, 0, NULL);
  ws_loop_config c = config_for(WS_CENSUS_FLOOR * 10);
  ws_loop *loop;
  ws_record recs[1024];
  CHECK(ws_loop_create(&c, &op, 1, &r.ring, &f->base, &loop) == 0);
  ws_census_hints hints = {0};
  hints.budget_permille = 1;
  ws_census census;
  ws_census_init(&census, &hints);
  ws_census_result out;
  uint32_t taken = 0, attempts = 0, last_taken_at = 0, widest_gap = 0;
  int status;
  do {
    status = ws_loop_run(loop, 5, UINT64_MAX / 4);
    int rc = ws_loop_census(loop, 0, &census, 1, &out);
    CHECK(rc == WS_CENSUS_SKIPPED || rc == WS_ENOHEAP);
    attempts++;
    if (rc != WS_CENSUS_SKIPPED) {
      uint32_t at = ws_loop_completed(loop);
      widest_gap = at - last_taken_at > widest_gap ? at - last_taken_at : widest_gap;
      last_taken_at = at;
      taken++;
    }
    drain(&r, recs, 1024);
  } while (status == WS_STATUS_YIELD);
  CHECK(status == WS_STATUS_DONE && attempts == 2 * WS_CENSUS_FLOOR);
  CHECK(taken >= WS_CENSUS_FLOOR);
  CHECK(widest_gap <= 10);
  ws_loop_destroy(loop);
  free(r.region);
  free(f);
}

/* The floor's censuses wait past the floor's cap: with walks that cost far
 * more than the calls, a cap of 1 per mille and no free allowance leave the
 * first recorded census (whose cost nothing measured yet) and no other. */
static void test_census_floor_cap(void) {
  fake_engine *f = new_engine();
  test_ring r;
  new_ring(&r, 1u << 12);
  ws_op_spec op = op_with(1, 0, NULL);
  ws_loop_config c = config_for(WS_CENSUS_FLOOR * 10);
  ws_loop *loop;
  ws_record recs[1024];
  CHECK(ws_loop_create(&c, &op, 1, &r.ring, &f->base, &loop) == 0);
  ws_census_hints hints = {0};
  hints.floor_permille = 1;
  hints.floor_free_ns = 1;
  ws_census census;
  ws_census_init(&census, &hints);
  ws_census_result out;
  uint32_t taken = 0;
  int status;
  do {
    status = ws_loop_run(loop, 10, UINT64_MAX / 4);
    if (ws_loop_census(loop, 0, &census, 1, &out) != WS_CENSUS_SKIPPED)
      taken++;
    drain(&r, recs, 1024);
  } while (status == WS_STATUS_YIELD);
  CHECK(status == WS_STATUS_DONE && taken == 1);
  ws_loop_destroy(loop);
  free(r.region);
  free(f);
}

/* Specs the loop cannot build are refused up front. */
static void test_bad_specs(void) {
  fake_engine *f = new_engine();
  test_ring r;
  new_ring(&r, 64);
  ws_loop *loop = NULL;
  ws_loop_config c = config_for(10);
  ws_op_spec zero = op_with(0, 0, NULL);
  CHECK(ws_loop_create(&c, &zero, 1, &r.ring, &f->base, &loop) == WS_EINVAL);
  ws_arg_spec backwards[] = {{WS_ARG_RANDOM, WS_VAL_I32, 5, -5}};
  ws_op_spec bad = op_with(1, 1, backwards);
  CHECK(ws_loop_create(&c, &bad, 1, &r.ring, &f->base, &loop) == WS_EINVAL);
  CHECK(ws_loop_create(&c, &bad, 0, &r.ring, &f->base, &loop) == WS_EINVAL);
  c.buffer_memory = 1;
  ws_op_spec ok = op_with(1, 0, NULL);
  CHECK(ws_loop_create(&c, &ok, 1, &r.ring, &f->base, &loop) == WS_EINVAL);
  CHECK(loop == NULL);
  free(r.region);
  free(f);
}

/* Every test, with the engine that new_engine makes now. */
static void run_all(void) {
  test_argument_values();
  test_buffers();
  test_records();
  test_control();
  test_throw_and_async();
  test_backpressure_stop_deadline();
  test_counting_and_metrics();
  test_grow_failed();
  test_census_floor();
  test_census_floor_cap();
  test_bad_specs();
}

int main(void) {
  for (driven = 0; driven < 2; driven++)
    run_all();
  return check_report("loop");
}
