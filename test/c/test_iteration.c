/* Tests of runs past 2^32 iterations (docs/log-format.md, "Iterations"):
 * the unwrap of the records' 32-bit iteration field, and the loop, the log
 * reader, the decoded run, the thinning filter and the live copy driven
 * across the wrap without 2^32 calls: the loop's counter starts just below
 * it (the test hook of ws_loop_config.first_iteration). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "logfile.h"
#include "ws.h"
#include "ws_internal.h"

#define PATH "build/ctest/iteration.wslog"
#define WRAP (UINT64_C(1) << 32)
#define ANCHOR (UINT64_C(1) << WS_ITERATION_ANCHOR_SHIFT)

/* A module that returns at once; its one memory grows a page every 1000
 * calls. */
typedef struct {
  ws_engine base;
  uint8_t memory[4096];
  uint64_t calls;
} still_engine;

static int still_stage(ws_engine *e, uint32_t op, const ws_value *args, uint32_t n) {
  (void)e, (void)op, (void)args, (void)n;
  return 0;
}

static int still_call(ws_engine *e, uint32_t op) {
  (void)op;
  ((still_engine *)e)->calls++;
  return WS_CALL_RETURNED;
}

static int still_sizes(ws_engine *e, uint64_t *bytes, uint32_t n) {
  for (uint32_t k = 0; k < n; k++)
    bytes[k] = 65536 * (1 + ((still_engine *)e)->calls / 1000);
  return 0;
}

static int still_view(ws_engine *e, uint32_t k, uint8_t **data, size_t *len) {
  (void)k;
  *data = ((still_engine *)e)->memory;
  *len = sizeof((still_engine *)e)->memory;
  return 0;
}

static int still_alloc(ws_engine *e, uint32_t len, uint32_t *ptr) {
  (void)e, (void)len;
  *ptr = 16;
  return 0;
}

static int still_free(ws_engine *e, uint32_t ptr, uint32_t len) {
  (void)e, (void)ptr, (void)len;
  return 0;
}

static const ws_engine_ops still_ops = {still_stage, still_call, still_sizes, still_view,
                                        still_alloc, still_free, NULL,        NULL};

/* Runs calls calls of two ops from iteration first into a fresh ring, with a
 * slow sample every 500 calls and the end mark; stores the raw records in
 * *out (the caller frees it) and returns how many. */
static size_t run_from(uint64_t first, uint32_t calls, uint8_t **out) {
  uint32_t capacity = 1u << 14;
  size_t bytes = ws_ring_region_bytes(capacity);
  void *region = aligned_alloc(64, bytes);
  memset(region, 0, bytes);
  ((int32_t *)region)[WS_CTL_CAPACITY] = (int32_t)capacity;
  ws_ring ring;
  ws_ring_attach(&ring, region, bytes);
  still_engine engine = {.base = {.ops = &still_ops}};
  ws_op_spec ops[2] = {{1, 0, {{0}}}, {1, 0, {{0}}}};
  ws_loop_config c = {
      .seed = 5, .iterations = calls, .first_iteration = first, .memories = 1};
  ws_loop *loop = NULL;
  CHECK(ws_loop_create(&c, ops, 2, &ring, &engine.base, &loop) == 0);
  int st = WS_STATUS_YIELD;
  while (st == WS_STATUS_YIELD) {
    st = ws_loop_run(loop, 500, UINT64_MAX / 4);
    ws_loop_metric(loop, WS_METRIC_RSS, 1e6);
  }
  CHECK(st == WS_STATUS_DONE);
  CHECK(ws_loop_completed(loop) == first + calls);
  ws_loop_end(loop);
  ws_loop_destroy(loop);
  ws_record *recs = malloc(capacity * sizeof *recs);
  size_t n = ws_ring_pop(&ring, recs, capacity);
  *out = (uint8_t *)recs; /* little-endian: a record in memory is its bytes */
  free(region);
  return n;
}

/* Writes raw records into a version-2 log at PATH, in blocks of at most
 * WS_LOG_BLOCK_RECORDS. */
static void write_log(const uint8_t *raw, size_t n) {
  FILE *f = ws_test_log_start(PATH, "{}", WS_LOG_VERSION);
  uint32_t seq = 0;
  for (size_t i = 0; i < n; i += WS_LOG_BLOCK_RECORDS) {
    uint32_t k = (uint32_t)(n - i < WS_LOG_BLOCK_RECORDS ? n - i : WS_LOG_BLOCK_RECORDS);
    uint8_t head[WS_RECORD_SIZE];
    ws_log_block_header(head, raw + i * WS_RECORD_SIZE, k, i, seq++);
    fwrite(head, 1, sizeof head, f);
    fwrite(raw + i * WS_RECORD_SIZE, WS_RECORD_SIZE, k, f);
  }
  fclose(f);
}

/* Decodes PATH into run (per-call arrays of cap calls; a log thinned at
 * shift with seed when shift > 0, read in the one pass); returns
 * ws_run_decode's result. */
static int decode(ws_run *run, size_t cap, unsigned shift, uint64_t seed) {
  memset(run, 0, sizeof *run);
  run->elapsed = malloc(cap * sizeof *run->elapsed);
  run->op = malloc(cap * sizeof *run->op);
  run->flags = malloc(cap * sizeof *run->flags);
  run->cap_calls = cap;
  ws_log *log = NULL;
  run->thinnable = shift > 0;
  run->thin_seed = seed;
  int rc = ws_log_open(PATH, &log);
  if (rc == 0)
    rc = ws_run_decode(log, run);
  if (rc == 0)
    CHECK(run->thin_shift == shift);
  ws_log_close(log);
  return rc;
}

static void free_decoded(ws_run *run) {
  ws_run_free(run);
  free(run->elapsed);
  free(run->op);
  free(run->flags);
}

/* The unwrap: nearest to near, never below 0, across the wrap both ways. */
static void test_near(void) {
  CHECK(ws_iteration_near(0, 0) == 0);
  CHECK(ws_iteration_near(0, 5) == 5);
  CHECK(ws_iteration_near(WRAP - 3, 2) == WRAP + 2);
  CHECK(ws_iteration_near(WRAP + 2, 0xfffffffdu) == WRAP - 3);
  CHECK(ws_iteration_near(7 * WRAP + 100, 40) == 7 * WRAP + 40);
  CHECK(ws_iteration_near(100, 0xfffffff0u) == 0xfffffff0u); /* not below 0 */
  CHECK(ws_iteration_near(WRAP, (uint32_t)(WRAP + ((UINT64_C(1) << 31) - 1))) ==
        WRAP + (UINT64_C(1) << 31) - 1);
  /* An iteration mark sets the track; a summary record does not move it. */
  ws_iteration_track tr = {0};
  ws_record mark = {WS_REC_MARK, 0, WS_MARK_ITERATION, 7, 9 * WRAP + 7, 0, 0};
  CHECK(ws_iteration_next(&tr, &mark) == 9 * WRAP + 7 && tr.last == 9 * WRAP + 7);
  ws_record sum = {WS_REC_SUMMARY, 0, 0, 3, 0, 0, 0};
  CHECK(ws_iteration_next(&tr, &sum) == 9 * WRAP + 3 && tr.last == 9 * WRAP + 7);
  ws_record call = {WS_REC_CALL, 0, 0, 20, 0, 0, 0};
  CHECK(ws_iteration_next(&tr, &call) == 9 * WRAP + 20 && tr.last == 9 * WRAP + 20);
}

/* A loop started 1000 calls below 2^32 (an anchor multiple: 2^32 is one)
 * writes an iteration mark first and one at 2^32; the log reads back with
 * every call's full iteration, the run starts at its first iteration with
 * no call lost, and the end mark counts the counter. */
static void test_loop_and_log(void) {
  const uint64_t first = WRAP - 1000;
  uint8_t *raw = NULL;
  size_t n = run_from(first, 3000, &raw);
  int marks_ok = 0, anchors = 0;
  for (size_t k = 0; k < n; k++) {
    ws_record rec;
    ws__record_decode(raw + k * WS_RECORD_SIZE, &rec);
    if (rec.type == WS_REC_MARK && rec.op == WS_MARK_ITERATION) {
      anchors++;
      marks_ok += (anchors == 1 && k == 0 && rec.a == first) ||
                  (anchors == 2 && rec.a == WRAP && rec.iteration == 0);
    }
    if (rec.type == WS_REC_MARK && rec.op == WS_MARK_END)
      CHECK(rec.a == first + 3000 && rec.iteration == 2000);
  }
  CHECK(anchors == 2 && marks_ok == 2);
  CHECK(WRAP % ANCHOR == 0);

  write_log(raw, n);
  ws_log *log = NULL;
  CHECK(ws_log_open(PATH, &log) == 0);
  ws_record rec;
  uint64_t expect = first;
  int calls_ok = 1;
  while (ws_log_next(log, &rec) == 1) {
    if (rec.type != WS_REC_CALL)
      continue;
    calls_ok &= ws_log_iteration(log) == expect;
    expect++;
  }
  CHECK(calls_ok && expect == WRAP + 2000);
  ws_log_close(log);

  ws_run run;
  CHECK(decode(&run, n, 0, 0) == 0);
  CHECK(run.calls == 3000 && run.lost_calls == 0 && run.complete);
  CHECK(run.first_iteration == first);
  CHECK(run.n_gaps == 1 && run.gap_index[0] == 0 && run.gap_iter[0] == (double)first);
  /* The memory grows a page every 1000 calls: steps at the full iterations. */
  CHECK(run.n_mem == 4 && run.mem_iter[0] == (double)first);
  CHECK(run.mem_iter[1] == (double)(first + 999) &&
        run.mem_iter[2] == (double)(WRAP + 999));
  /* The RSS samples the test wrote (the loop's own control samples aside). */
  size_t rss = run.n_metrics;
  for (size_t m = 0; m < run.n_metrics; m++)
    if (run.metrics[m].id == WS_METRIC_RSS)
      rss = m;
  CHECK(rss < run.n_metrics && run.metrics[rss].n == 6);
  CHECK(run.metrics[rss].iter[5] == (double)(WRAP + 1999));
  free_decoded(&run);

  /* The live copy counts every call across the wrap. */
  ws_live *l = NULL;
  CHECK(ws_live_create(1024, &l) == 0);
  CHECK(ws_live_add(l, raw, n) == 0);
  ws_live_view v;
  ws_live_get(l, &v);
  CHECK(v.calls == 3000 && v.stride == 4 && v.memory.n == 4);
  CHECK(v.memory.iter[2] == 1999.0 / 4);
  ws_live_free(l);

  /* The writer's tracking: the first and last calls of a stretch. */
  ws_iteration_track tr = {0};
  int64_t first_call, last_call;
  ws_iteration_scan(&tr, raw, n / 2, &first_call, &last_call);
  CHECK(first_call == (int64_t)first);
  ws_iteration_scan(&tr, raw + n / 2 * WS_RECORD_SIZE, n - n / 2, &first_call,
                    &last_call);
  CHECK(last_call == (int64_t)(WRAP + 1999) && first_call > (int64_t)WRAP);
  free(raw);
}

/* Thinning from just below 2^32 at stride 2^4: the survivors are the full
 * iterations' (ws_thin_survivor), the summaries count every call, and the
 * decoded thinned run keeps one call per block across the wrap. */
static void test_thin_across(void) {
  const uint64_t first = WRAP - 3000;
  uint8_t *raw = NULL;
  size_t n = run_from(first, 6000, &raw);
  ws_thin *t = NULL;
  CHECK(ws_thin_create(5, 2, &t) == 0);
  ws_thin_set_shift(t, 4, first);
  uint8_t *out = malloc(ws_thin_out_records(t, n) * WS_RECORD_SIZE + WS_RECORD_SIZE * 4);
  size_t w = ws_thin_filter(t, raw, n, out);
  w += ws_thin_finish(t, out + w * WS_RECORD_SIZE);
  ws_iteration_track tr = {first};
  uint64_t kept = 0, summed = 0, past_wrap = 0;
  int survivors_ok = 1, end_ok = 0;
  for (size_t k = 0; k < w; k++) {
    ws_record rec;
    ws__record_decode(out + k * WS_RECORD_SIZE, &rec);
    uint64_t it = ws_iteration_next(&tr, &rec);
    if (rec.type == WS_REC_CALL) {
      kept++;
      past_wrap += it >= WRAP;
      survivors_ok &=
          it == ws_thin_survivor(5, 4, it >> 4) && it >= first && it < first + 6000;
    } else if (rec.type == WS_REC_SUMMARY) {
      summed += (uint32_t)rec.a;
    } else if (rec.type == WS_REC_MARK && rec.op == WS_MARK_END) {
      end_ok = it == WRAP + 3000 && rec.a == WRAP + 3000;
    }
  }
  CHECK(survivors_ok && end_ok);
  CHECK(summed == 6000);
  CHECK(kept >= 6000 / 16 - 2 && kept <= 6000 / 16 + 2);
  CHECK(past_wrap >= 3000 / 16 - 2 && past_wrap <= 3000 / 16 + 2);

  write_log(out, w);
  ws_run run;
  CHECK(decode(&run, w, 4, 5) == 0);
  CHECK(run.thin_from == first && run.first_iteration == first);
  CHECK(run.calls == kept && run.complete);
  CHECK(run.n_op_totals == 2 && run.op_calls[0] + run.op_calls[1] == 6000);
  CHECK(run.n_gaps == kept && run.gap_iter[kept - 1] >= (double)WRAP);
  free_decoded(&run);
  free(out);
  free(raw);
  ws_thin_free(t);
}

/* Stretches longer than 2^31 iterations without a record (past the log's
 * cap only marks are written): the iteration marks carry the reader over,
 * and the end mark is read at its full iteration. */
static void test_long_gap(void) {
  enum { N = 16 };
  uint8_t raw[N * WS_RECORD_SIZE];
  size_t n = 0;
  ws_record thinned = {WS_REC_MARK, 0, WS_MARK_THINNED, 0, 30, 0, 0};
  memcpy(raw + n++ * WS_RECORD_SIZE, &thinned, sizeof thinned);
  for (uint32_t i = 0; i < 4; i++) {
    ws_record rec = {WS_REC_CALL, 0, 0, i, 100, 65536, i};
    memcpy(raw + n++ * WS_RECORD_SIZE, &rec, sizeof rec);
  }
  for (uint64_t k = 1; k <= 9; k++) {
    ws_record rec = {
        WS_REC_MARK, 0, WS_MARK_ITERATION, (uint32_t)(k * ANCHOR), k * ANCHOR, 0, k};
    memcpy(raw + n++ * WS_RECORD_SIZE, &rec, sizeof rec);
  }
  const uint64_t end = 9 * ANCHOR + 12345;
  ws_record rec = {WS_REC_MARK, 0, WS_MARK_END, (uint32_t)end, end, 0, 99};
  memcpy(raw + n++ * WS_RECORD_SIZE, &rec, sizeof rec);
  write_log(raw, n);
  ws_log *log = NULL;
  CHECK(ws_log_open(PATH, &log) == 0);
  uint64_t last = 0;
  while (ws_log_next(log, &rec) == 1)
    last = ws_log_iteration(log);
  CHECK(rec.op == WS_MARK_END && last == end && end > 2 * WRAP);
  ws_log_close(log);
  /* Thinned at stride 2^30, none of the four calls survives: the iteration
   * mark that follows them is no start of the run. */
  CHECK(ws_thin_survivor(7, 30, 0) > 3);
  ws_run run;
  CHECK(decode(&run, n, 30, 7) == 0);
  CHECK(run.calls == 0 && run.first_iteration == 0 && run.complete);
  free_decoded(&run);
}

/* A log thinned part-way, at a stride that rises (2^2 from iteration
 * 1000, 2^4 from 2500), read in the one pass: the calls before the first
 * mark, decoded in full until it came, end up thinned like the rest to the
 * largest stride (one survivor per block of 16, each noted as a gap at its
 * iteration), every call counted per op, and one metric sample kept per
 * block of 16 strides (its first: one every 10 calls). */
static void test_thin_rising(void) {
  enum { N = 4000, SEED = 11 };
  uint8_t *raw = malloc((size_t)N * 2 * WS_RECORD_SIZE);
  size_t n = 0;
  for (uint32_t i = 0; i < N; i++) {
    ws_record call = {WS_REC_CALL, 0, (uint16_t)(i % 2), i, i, 65536, i};
    memcpy(raw + n++ * WS_RECORD_SIZE, &call, sizeof call);
    if (i % 10 == 0) {
      ws_record metric = {WS_REC_METRIC, 0, WS_METRIC_RSS, i, i, 0, i};
      memcpy(raw + n++ * WS_RECORD_SIZE, &metric, sizeof metric);
    }
  }
  ws_thin *t = NULL;
  CHECK(ws_thin_create(SEED, 2, &t) == 0);
  uint8_t *out = malloc((ws_thin_out_records(t, n) + 8) * WS_RECORD_SIZE);
  /* Records of calls 0-999, 1000-2499 and the rest (11 records per 10 calls). */
  const size_t cut[3] = {1100, 2750, n};
  size_t w = ws_thin_filter(t, raw, cut[0], out);
  ws_thin_set_shift(t, 2, 1000);
  w += ws_thin_filter(t, raw + cut[0] * WS_RECORD_SIZE, cut[1] - cut[0],
                      out + w * WS_RECORD_SIZE);
  ws_thin_set_shift(t, 4, 2500);
  w += ws_thin_filter(t, raw + cut[1] * WS_RECORD_SIZE, cut[2] - cut[1],
                      out + w * WS_RECORD_SIZE);
  w += ws_thin_finish(t, out + w * WS_RECORD_SIZE);
  write_log(out, w);
  ws_run run;
  CHECK(decode(&run, w, 4, SEED) == 0);
  CHECK(run.thin_from == 1000 && run.lost_calls == 0);
  size_t kept = 0;
  int kept_ok = 1;
  for (uint64_t it = 0; it < N; it++) {
    if (it != ws_thin_survivor(SEED, 4, it >> 4))
      continue;
    kept_ok &= kept < run.calls && run.gap_iter[kept] == (double)it &&
               run.gap_index[kept] == (double)kept && run.elapsed[kept] == (float)it &&
               run.op[kept] == it % 2;
    kept++;
  }
  CHECK(kept_ok && run.calls == kept && run.n_gaps == kept && kept == N / 16);
  CHECK(run.n_op_totals == 2 && run.op_calls[0] == N / 2 && run.op_calls[1] == N / 2);
  CHECK(run.n_metrics == 1 && run.metrics[0].n == (N + 255) / 256);
  int metrics_ok = 1;
  for (size_t k = 0; k < run.metrics[0].n; k++)
    metrics_ok &= run.metrics[0].iter[k] == (double)((k * 256 + 9) / 10 * 10);
  CHECK(metrics_ok);
  /* The same log, not taken for a thinnable one (no seed): every call
   * written is read, none dropped. */
  size_t written = 0;
  for (size_t k = 0; k < w; k++)
    written += out[k * WS_RECORD_SIZE] == WS_REC_CALL;
  ws_run full;
  CHECK(decode(&full, w, 0, 0) == 0);
  CHECK(full.calls == written && written > kept && full.thin_shift == 0);
  free_decoded(&run);
  free_decoded(&full);
  ws_thin_free(t);
  free(out);
  free(raw);
}

/* The cached survivor is ws_thin_survivor's, whatever the order of the
 * blocks and shifts asked for: runs of one block, blocks in turn, a shift
 * raised and lowered, shift 0. */
static void test_survivor_cached(void) {
  ws_survivor_cache c = {0};
  int same = 1;
  uint64_t x = 12345;
  for (int i = 0; i < 20000; i++) {
    x = x * 6364136223846793005u + 1442695040888963407u;
    unsigned shift = i < 10000 ? 5 : (unsigned)(x >> 60) % 8;
    uint64_t block = i < 10000 ? (uint64_t)i / 7 : (x >> 33) % 64;
    same &=
        ws_thin_survivor_cached(&c, 9, shift, block) == ws_thin_survivor(9, shift, block);
  }
  CHECK(same);
}

int main(void) {
  test_survivor_cached();
  test_near();
  test_loop_and_log();
  test_thin_across();
  test_long_gap();
  test_thin_rising();
  return check_report("iteration");
}
