/* Classification, its practical-significance threshold for the JS heap, the
 * one definition of the early and late windows, and the whole-run analysis
 * that applies them (ws_classify.c, ws_windows.c, ws_verdict.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "synth.h"
#include "ws_internal.h"
#include "ws_stats.h"

/* A signal with nothing undecided and no limit reached. */
#define SIG(role, pattern, peak, grown)                                                  \
  { role, pattern, peak, grown, 0, 0, -1, 0, 0 }

/* ws_classify with a time signal that is flagged or not and nothing left
 * open by time. */
static int classify(const ws_signal *s, size_t k, int flagged, double threshold,
                    ws_finding *f, size_t *n, int *below) {
  ws_time_signal t = {flagged, 0, 0};
  ws_undecided und[WS_MAX_SERIES + 1];
  size_t nund;
  return ws_classify(s, k, &t, threshold, f, n, below, und, &nund);
}

/* Kinds are severity-ordered and named from the one list. */
static void test_kinds(void) {
  CHECK(WS_KIND_MEMORY_EXHAUSTED < WS_KIND_STACK_DRIFT);
  CHECK(WS_KIND_STACK_DRIFT < WS_KIND_LEAK && WS_KIND_LEAK < WS_KIND_FRAGMENTATION);
  CHECK(strcmp(ws_kind_name(WS_KIND_INCONCLUSIVE), "inconclusive") == 0);
  CHECK(WS_KIND_GROWTH < WS_KIND_JS_HEAP_GROWTH && WS_KIND_SLOWDOWN < WS_KIND_BUDGET);
  CHECK(strcmp(ws_kind_name(WS_KIND_STABLE), "stable") == 0);
  CHECK(strcmp(ws_kind_name(WS_KIND_JS_HEAP_GROWTH), "js-heap-growth") == 0);
  CHECK(strcmp(ws_kind_name(WS_KIND_BUDGET), "budget") == 0);
  CHECK(strcmp(ws_kind_name(WS_KIND_COUNT), "unknown") == 0);
}

/* A sustained retained JS heap is a finding only from the threshold up;
 * below it the series is reported as dismissed, and the verdict stays. */
static void test_js_heap_threshold(void) {
  ws_signal s[2] = {SIG(WS_ROLE_LINEAR, WS_PATTERN_FLAT, 0, 0),
                    SIG(WS_ROLE_JS_HEAP, WS_PATTERN_SUSTAINED, 1, 80 * 1024.0)};
  ws_finding f[WS_MAX_FINDINGS];
  size_t n = 9;
  int below = 7;
  CHECK(classify(s, 2, 0, WS_JS_HEAP_THRESHOLD, f, &n, &below) == WS_KIND_STABLE);
  CHECK(n == 0 && below == 1);
  s[1].grown = WS_JS_HEAP_THRESHOLD;
  CHECK(classify(s, 2, 0, WS_JS_HEAP_THRESHOLD, f, &n, &below) == WS_KIND_JS_HEAP_GROWTH);
  CHECK(n == 1 && f[0].kind == WS_KIND_JS_HEAP_GROWTH && f[0].series == 1 && below == -1);
  /* The threshold is an option: 0 takes every sustained trend. */
  s[1].grown = 1;
  CHECK(classify(s, 2, 0, 0, f, &n, &below) == WS_KIND_JS_HEAP_GROWTH);
  /* A flat JS heap is never "below the threshold". */
  s[1].pattern = WS_PATTERN_FLAT;
  CHECK(classify(s, 2, 1, WS_JS_HEAP_THRESHOLD, f, &n, &below) == WS_KIND_SLOWDOWN);
  CHECK(n == 1 && f[0].series == -1 && below == -1);
  /* The threshold applies to the JS heap only: memory growth of a few bytes
   * is judged by its trend tests and the memory floor (ws_analyze_run's,
   * ws_signal.below_floor). */
  ws_signal m[1] = {SIG(WS_ROLE_LINEAR, WS_PATTERN_SUSTAINED, 1, 10)};
  CHECK(classify(m, 1, 0, WS_JS_HEAP_THRESHOLD, f, &n, &below) == WS_KIND_GROWTH);
}

/* Two JS heaps (the worker's, the target's threads' summed) are judged
 * each on its own: each one grown past the threshold is a finding of its
 * own series, and the first sustained one below it is the one dismissed. */
static void test_js_heaps_apart(void) {
  ws_signal s[3] = {SIG(WS_ROLE_LINEAR, WS_PATTERN_FLAT, 0, 0),
                    SIG(WS_ROLE_JS_HEAP, WS_PATTERN_SUSTAINED, 1, 80 * 1024.0),
                    SIG(WS_ROLE_JS_HEAP, WS_PATTERN_SUSTAINED, 1, 4e6)};
  ws_finding f[WS_MAX_FINDINGS];
  size_t n = 9;
  int below = 7;
  CHECK(classify(s, 3, 0, WS_JS_HEAP_THRESHOLD, f, &n, &below) == WS_KIND_JS_HEAP_GROWTH);
  CHECK(n == 1 && f[0].series == 2 && below == 1);
  s[1].grown = 1e6;
  CHECK(classify(s, 3, 1, WS_JS_HEAP_THRESHOLD, f, &n, &below) == WS_KIND_JS_HEAP_GROWTH);
  CHECK(n == 3 && f[0].series == 1 && f[1].series == 2 && below == -1);
  CHECK(f[2].kind == WS_KIND_SLOWDOWN);
  s[2].pattern = WS_PATTERN_FLAT;
  CHECK(classify(s, 3, 0, WS_JS_HEAP_THRESHOLD, f, &n, &below) == WS_KIND_JS_HEAP_GROWTH);
  CHECK(n == 1 && f[0].series == 1);
}

/* Findings come most severe first, one memory finding at most. */
static void test_order(void) {
  ws_signal s[5] = {SIG(WS_ROLE_LINEAR, WS_PATTERN_SUSTAINED, 1, 1e6),
                    SIG(WS_ROLE_HEAP, WS_PATTERN_SUSTAINED, 1, 1e6),
                    SIG(WS_ROLE_LIVE, WS_PATTERN_FLAT, 0, 0),
                    SIG(WS_ROLE_JS_HEAP, WS_PATTERN_SUSTAINED, 1, 1e6),
                    SIG(WS_ROLE_STACK, WS_PATTERN_SUSTAINED, 1, 4096)};
  ws_finding f[WS_MAX_FINDINGS];
  size_t n;
  int below;
  CHECK(classify(s, 5, 1, WS_JS_HEAP_THRESHOLD, f, &n, &below) == WS_KIND_STACK_DRIFT);
  CHECK(n == 4);
  CHECK(f[1].kind == WS_KIND_FRAGMENTATION && f[1].series == 1);
  CHECK(f[2].kind == WS_KIND_JS_HEAP_GROWTH && f[3].kind == WS_KIND_SLOWDOWN);
  for (size_t i = 1; i < n; i++)
    CHECK(f[i - 1].kind < f[i].kind);
}

/* Memory growth with flat live bytes is fragmentation only when the holes
 * between blocks (where observed) account for it; else the cause says why it
 * is growth: no live bytes, rising live peaks, or growth at the heap's end. */
static void test_growth_causes(void) {
  ws_signal s[3] = {SIG(WS_ROLE_HEAP, WS_PATTERN_SUSTAINED, 1, 4e6),
                    SIG(WS_ROLE_LIVE, WS_PATTERN_FLAT, 0, 0),
                    SIG(WS_ROLE_HOLES, WS_PATTERN_SUSTAINED, 0, 2e6)};
  ws_finding f[WS_MAX_FINDINGS];
  size_t n;
  int below;
  CHECK(classify(s, 3, 0, WS_JS_HEAP_THRESHOLD, f, &n, &below) == WS_KIND_FRAGMENTATION);
  CHECK(n == 1 && f[0].series == 0 && f[0].cause == 0);
  /* A quarter of the growth in holes is still fragmentation; less is not. */
  s[2].grown = 1e6;
  CHECK(classify(s, 3, 0, WS_JS_HEAP_THRESHOLD, f, &n, &below) == WS_KIND_FRAGMENTATION);
  s[2].grown = 0.9e6;
  s[2].pattern = WS_PATTERN_FLAT;
  CHECK(classify(s, 3, 0, WS_JS_HEAP_THRESHOLD, f, &n, &below) == WS_KIND_GROWTH);
  CHECK(n == 1 && f[0].series == 0 && f[0].cause == WS_GROWTH_HEAP_END);
  /* Holes too short to test say nothing: fragmentation as before. */
  s[2].pattern = WS_PATTERN_UNTESTED;
  CHECK(classify(s, 3, 0, WS_JS_HEAP_THRESHOLD, f, &n, &below) == WS_KIND_FRAGMENTATION);
  /* Live peaks rising come first; no live bytes at all is unobserved. */
  s[1].peak_grows = 1;
  CHECK(classify(s, 3, 0, WS_JS_HEAP_THRESHOLD, f, &n, &below) == WS_KIND_GROWTH);
  CHECK(f[0].cause == WS_GROWTH_LIVE_PEAKS);
  /* Rising peaks over live levels that rose in steps: not flat levels. */
  s[1].pattern = WS_PATTERN_STEP;
  CHECK(classify(s, 3, 0, WS_JS_HEAP_THRESHOLD, f, &n, &below) == WS_KIND_GROWTH);
  CHECK(f[0].cause == WS_GROWTH_LIVE_RISING);
  s[1].pattern = WS_PATTERN_FLAT;
  s[1].pattern = WS_PATTERN_UNTESTED;
  CHECK(classify(s, 3, 0, WS_JS_HEAP_THRESHOLD, f, &n, &below) == WS_KIND_GROWTH);
  CHECK(f[0].cause == WS_GROWTH_UNOBSERVED);
  /* A leak has no cause; holes growing alone are no finding. */
  s[1].pattern = WS_PATTERN_SUSTAINED;
  CHECK(classify(s, 3, 0, WS_JS_HEAP_THRESHOLD, f, &n, &below) == WS_KIND_LEAK);
  CHECK(f[0].series == 1 && f[0].cause == 0);
  ws_signal holes[1] = {SIG(WS_ROLE_HOLES, WS_PATTERN_SUSTAINED, 1, 1e6)};
  CHECK(classify(holes, 1, 0, WS_JS_HEAP_THRESHOLD, f, &n, &below) == WS_KIND_STABLE);
}

/* The windows: first and last fifth of the batches, never overlapping. */
static void test_windows(void) {
  ws_windows w;
  ws_time_windows(1800, 20000, &w);
  CHECK(w.batches == 60 && w.batch_size == 303 && w.window_batches == 12);
  CHECK(w.early_to == 1800 + 12 * 303 && w.late_from == 1800 + 48 * 303 && w.to == 20000);
  ws_time_windows(0, 60, &w); /* 6 batches of 10 */
  CHECK(w.batches == 6 && w.window_batches == 1 && w.early_to == 10 && w.late_from == 50);
  ws_time_windows(10, 17, &w); /* under 50 calls: one call a batch */
  CHECK(w.batch_size == 1 && w.window_batches == 1 && w.early_to == 11 &&
        w.late_from == 16);
  ws_time_windows(5, 6, &w);
  CHECK(w.early_to == 6 && w.late_from == 5);
  ws_time_windows(9, 4, &w);
  CHECK(w.from == 4 && w.to == 4 && w.early_to == 4 && w.late_from == 4);
  for (size_t n = 2; n < 5000; n += 7) {
    ws_time_windows(100, 100 + n, &w);
    CHECK(w.from < w.early_to && w.early_to <= w.late_from && w.late_from < w.to);
  }
}

/* The time test and the windows agree: the drift's windows are
 * ws_time_windows's, tested or not. */
static void test_drift_uses_windows(void) {
  float *x = malloc(20000 * sizeof *x);
  if (x == NULL)
    return;
  ws_synth_time t;
  ws_synth_time_defaults(&t, 20000, 3);
  ws_synth_time_fill(&t, x);
  ws_drift_opts o = {WS_TIME_THRESHOLD, WS_ALPHA, 1};
  size_t cases[][2] = {{1800, 20000}, {0, 20000}, {0, 70}, {100, 130}};
  for (size_t c = 0; c < 4; c++) {
    ws_drift_result r;
    ws_windows w;
    CHECK(ws_drift_analyze(x, cases[c][1], cases[c][0], &o, NULL, &r) == 0);
    ws_time_windows(cases[c][0], cases[c][1], &w);
    CHECK(r.tested == (c < 2));
    CHECK(r.from == w.from && r.to == w.to && r.early_to == w.early_to);
    CHECK(r.late_from == w.late_from && r.window_batches == w.window_batches);
  }
  free(x);
}

/* A long run's batches (reduced on two threads) give the values one thread
 * gives, batch by batch (here: the mean of ln of each batch's middle half,
 * its preempted calls left out), so the same trend; every preempted call
 * left out is counted, from both halves of the batches. */
static void test_drift_long(void) {
  enum { CALLS = 1200000, FROM = 1000 };
  float *x = malloc(CALLS * sizeof *x);
  uint8_t *flags = calloc(CALLS, 1);
  ws_synth_time t;
  ws_synth_time_defaults(&t, CALLS, 7);
  ws_synth_time_fill(&t, x);
  size_t preempted = 0;
  for (size_t i = FROM; i < CALLS; i += 997, preempted++)
    flags[i] = WS_FLAG_PREEMPTED;
  ws_time_control ctl = {NULL, NULL, 0, flags};
  ws_drift_opts o = {WS_TIME_THRESHOLD, WS_ALPHA, 1};
  ws_drift_result r;
  CHECK(ws_drift_analyze(x, CALLS, FROM, &o, &ctl, &r) == 0 && r.tested);
  CHECK(r.preempted == preempted && r.disturbed == 0);
  ws_windows w;
  ws_time_windows(FROM, CALLS, &w);
  double *bx = malloc(w.batches * sizeof *bx), *by = malloc(w.batches * sizeof *by);
  float *b = malloc(CALLS * sizeof *b);
  for (size_t j = 0; j < w.batches; j++) {
    size_t lo = w.from + j * w.batch_size,
           hi = j + 1 == w.batches ? CALLS : lo + w.batch_size;
    size_t n = 0;
    for (size_t i = lo; i < hi; i++)
      if (!flags[i])
        b[n++] = x[i];
    size_t k1 = n / 4, k2 = n - n / 4 - 1;
    ws__select_f32(b, n, k1);
    ws__select_f32(b + k1, n - k1, k2 - k1);
    double sum = 0;
    for (size_t i = k1; i <= k2; i++)
      sum += log(b[i] > 1.0f ? (double)b[i] : 1.0);
    by[j] = sum / (double)(k2 - k1 + 1);
    bx[j] = 0.5 * ((double)lo + (double)hi);
  }
  ws_trend one;
  CHECK(ws_trend_fit(bx, by, w.batches, &one) == 0);
  CHECK(one.slope == r.trend.slope && one.low == r.trend.low && one.high == r.trend.high);
  free(b);
  free(bx);
  free(by);
  free(flags);
  free(x);
}

/* The whole-run analysis takes the threshold from its options and reports
 * the dismissed series: a retained heap rising ~100 KiB over the window. */
static void test_analyze_threshold(void) {
  enum { CALLS = 20000, POINTS = 16 };
  float *x = malloc(CALLS * sizeof *x);
  if (x == NULL)
    return;
  ws_synth_time t;
  ws_synth_time_defaults(&t, CALLS, 5);
  ws_synth_time_fill(&t, x);
  double lin_iter[1] = {0}, lin_bytes[1] = {1 << 20};
  double js_iter[POINTS], js[POINTS];
  for (int i = 0; i < POINTS; i++) {
    js_iter[i] = (i + 1) * (CALLS / (POINTS + 1));
    js[i] = 6e6 + 6400.0 * i + (i % 3) * 300.0; /* ~100 KiB over the run */
  }
  ws_series_in s[2] = {{WS_ROLE_LINEAR, 1, lin_iter, lin_bytes, 1, 0},
                       {WS_ROLE_JS_HEAP, 0, js_iter, js, POINTS, 0}};
  ws_memtrend_result res[2];
  ws_verdict v = {.series = res};
  ws_verdict_opts o;
  ws_verdict_opts_default(&o);
  CHECK(o.js_heap_threshold == WS_JS_HEAP_THRESHOLD &&
        o.time_threshold == WS_TIME_THRESHOLD);
  o.warmup = 0;
  CHECK(ws_analyze_run(x, CALLS, s, 2, &o, &v) == 0);
  CHECK(res[1].pattern == WS_PATTERN_SUSTAINED);
  CHECK(res[1].grown > 64 * 1024.0 && res[1].grown < WS_JS_HEAP_THRESHOLD);
  CHECK(ws_verdict_of(&v) == WS_KIND_STABLE && v.below_threshold == 1);
  o.js_heap_threshold = 64 * 1024;
  CHECK(ws_analyze_run(x, CALLS, s, 2, &o, &v) == 0);
  CHECK(ws_verdict_of(&v) == WS_KIND_JS_HEAP_GROWTH && v.below_threshold == -1);
  o.js_heap_threshold = -1;
  CHECK(ws_analyze_run(x, CALLS, s, 2, &o, &v) == WS_EINVAL);
  free(x);
}

/* Runs the whole-run analysis with options o (NULL: the defaults) on clean
 * synthetic times and the given series; stores the verdict in *v (results
 * in res) and returns ws_analyze_run's code (WS_ENOMEM when no times). */
static int analyse_with(size_t calls, const ws_series_in *s, size_t k,
                        ws_memtrend_result *res, ws_verdict *v,
                        const ws_verdict_opts *o) {
  float *x = malloc(calls * sizeof *x);
  if (x == NULL)
    return WS_ENOMEM;
  ws_synth_time t;
  ws_synth_time_defaults(&t, calls, 11);
  ws_synth_time_fill(&t, x);
  *v = (ws_verdict){.series = res};
  ws_verdict_opts d;
  ws_verdict_opts_default(&d);
  int rc = ws_analyze_run(x, calls, s, k, o != NULL ? o : &d, v);
  free(x);
  return rc;
}

/* Runs the whole-run analysis at defaults (analyse_with), which must
 * succeed. */
static void analyse(size_t calls, const ws_series_in *s, size_t k,
                    ws_memtrend_result *res, ws_verdict *v) {
  CHECK(analyse_with(calls, s, k, res, v, NULL) == 0);
}

/* Returns 1 when v left reason open about series (-1: time). */
static int left_open(const ws_verdict *v, int reason, int series) {
  for (size_t i = 0; i < v->nundecided; i++)
    if (v->undecided[i].reason == reason && v->undecided[i].series == series)
      return 1;
  return 0;
}

/* The staircase seen on a real module: linear memory 61 -> 162 MiB in six
 * steps spread over 20 000 calls after warm-up is growth, not a step. */
static void test_staircase(void) {
  double mib = 1 << 20;
  double iter[] = {0, 40, 900, 3800, 7100, 10300, 13600, 16900};
  double bytes[] = {16 * mib, 40 * mib,  61 * mib,  78 * mib,
                    95 * mib, 112 * mib, 129 * mib, 162 * mib};
  ws_series_in s = {WS_ROLE_LINEAR, 1, iter, bytes, 8, WS_WASM32_MAX_BYTES};
  ws_memtrend_result r;
  ws_verdict v;
  analyse(20000, &s, 1, &r, &v);
  CHECK(r.pattern == WS_PATTERN_SUSTAINED && r.events.staircase && r.events.large >= 5);
  CHECK(ws_verdict_of(&v) == WS_KIND_GROWTH);
  /* One step followed by a long plateau is not growth. */
  double one_iter[] = {0, 40, 900, 3800},
         one_bytes[] = {16 * mib, 40 * mib, 61 * mib, 78 * mib};
  ws_series_in one = {WS_ROLE_LINEAR, 1, one_iter, one_bytes, 4, WS_WASM32_MAX_BYTES};
  analyse(20000, &one, 1, &r, &v);
  CHECK(r.pattern != WS_PATTERN_SUSTAINED && !r.events.late);
  CHECK(ws_verdict_of(&v) == WS_KIND_STABLE && v.nundecided == 0);
}

/* A doubling policy (TinyGo, AssemblyScript): a linear leak leaves one or two
 * steps in the second half, each as large as everything before. */
static void test_doubling(void) {
  double kib = 1024;
  double iter[] = {0, 10, 300, 700, 1300, 2600, 5200, 10400, 19800};
  double bytes[9];
  for (int i = 0; i < 9; i++)
    bytes[i] = 64 * kib * (double)(1u << (i + 3)); /* 512 KiB -> 128 MiB */
  ws_series_in s = {WS_ROLE_LINEAR, 1, iter, bytes, 9, WS_WASM32_MAX_BYTES};
  ws_memtrend_result r;
  ws_verdict v;
  analyse(20000, &s, 1, &r, &v);
  CHECK(r.events.doubling && ws_verdict_of(&v) == WS_KIND_GROWTH);
  /* A single doubling late in the run, no live bytes: inconclusive, with the
   * calls a plateau as long as the run before the step needs. */
  double late_iter[] = {0, 300, 15000},
         late_bytes[] = {256 * kib, 4096 * kib, 8192 * kib};
  ws_series_in late = {WS_ROLE_LINEAR, 1, late_iter, late_bytes, 3, WS_WASM32_MAX_BYTES};
  analyse(20000, &late, 1, &r, &v);
  CHECK(r.events.late && ws_verdict_of(&v) == WS_KIND_INCONCLUSIVE);
  CHECK(left_open(&v, WS_UNDECIDED_LATE_STEP, 0) && v.undecided[0].more_calls == 10000);
  /* With live bytes tested (flat), the step is a plateau: stable. */
  double li[20], lv[20];
  for (int i = 0; i < 20; i++) {
    li[i] = 999 + 1000 * i;
    lv[i] = 3e6 + (i % 3) * 1000;
  }
  ws_series_in both[2] = {late, {WS_ROLE_LIVE, 0, li, lv, 20, 0}};
  ws_memtrend_result r2[2];
  analyse(20000, both, 2, r2, &v);
  CHECK(ws_verdict_of(&v) == WS_KIND_STABLE && v.nundecided == 0);
}

/* 4 MiB per call to the 4 GiB wasm32 limit: memory exhausted at the call
 * that reached it, and the growth is not start-up cost. */
static void test_exhausted_4gib(void) {
  enum { STEPS = 1024 };
  double *iter = malloc(STEPS * sizeof *iter), *bytes = malloc(STEPS * sizeof *bytes);
  if (iter == NULL || bytes == NULL)
    return;
  for (int i = 0; i < STEPS; i++) {
    iter[i] = i;
    bytes[i] = 65536.0 + 4194304.0 * i; /* one page, then 64 pages a call */
  }
  ws_series_in s = {WS_ROLE_LINEAR, 1, iter, bytes, STEPS, WS_WASM32_MAX_BYTES};
  ws_memtrend_result r;
  ws_verdict v;
  analyse(20000, &s, 1, &r, &v);
  CHECK(ws_verdict_of(&v) == WS_KIND_MEMORY_EXHAUSTED && v.nfindings >= 1);
  CHECK(v.findings[0].iteration == STEPS - 1);
  CHECK(v.findings[0].bytes == WS_WASM32_MAX_BYTES - 63 * WS_PAGE_BYTES);
  CHECK(v.warmup_memory == 0 && v.warmup <= 20000 / WS_WARMUP_CAP_DIVISOR);
  free(iter);
  free(bytes);
}

/* A small declared maximum: memory stops at it while the module keeps
 * asking; a memory under its maximum is no finding. */
static void test_exhausted_declared(void) {
  double iter[] = {0, 5, 9, 14}, bytes[] = {65536, 131072, 196608, 262144};
  ws_series_in s = {WS_ROLE_LINEAR, 1, iter, bytes, 4, 262144};
  ws_memtrend_result r;
  ws_verdict v;
  analyse(20000, &s, 1, &r, &v);
  CHECK(ws_verdict_of(&v) == WS_KIND_MEMORY_EXHAUSTED && v.findings[0].iteration == 14);
  CHECK(v.findings[0].series == 0 && v.nundecided == 0);
  s.limit = 327680;
  analyse(20000, &s, 1, &r, &v);
  CHECK(ws_verdict_of(&v) == WS_KIND_STABLE);
  /* A memory declared at its maximum that never grows is not exhausted. */
  double fixed_iter[] = {0}, fixed_bytes[] = {16777216};
  ws_series_in fixed = {WS_ROLE_LINEAR, 1, fixed_iter, fixed_bytes, 1, 16777216};
  analyse(20000, &fixed, 1, &r, &v);
  CHECK(ws_verdict_of(&v) == WS_KIND_STABLE);
}

/* A short leaking run: live bytes 347 -> 475 KiB over 5 000 calls sampled
 * every 1 000 calls: too few samples to test, so inconclusive (with the
 * calls 12 samples need), never stable or flat. */
static void test_short_leak(void) {
  double li[5], lv[5], iter[1] = {0}, bytes[1] = {1 << 20};
  for (int i = 0; i < 5; i++) {
    li[i] = 999 + 1000 * i;
    lv[i] = 347 * 1024 + 32 * 1024 * i;
  }
  ws_series_in s[2] = {{WS_ROLE_LINEAR, 1, iter, bytes, 1, WS_WASM32_MAX_BYTES},
                       {WS_ROLE_LIVE, 0, li, lv, 5, 0}};
  ws_memtrend_result r[2];
  ws_verdict v;
  analyse(5000, s, 2, r, &v);
  CHECK(r[1].pattern == WS_PATTERN_UNTESTED && r[1].points < WS_MEM_MIN_POINTS);
  CHECK(ws_verdict_of(&v) == WS_KIND_INCONCLUSIVE &&
        left_open(&v, WS_UNDECIDED_FEW_SAMPLES, 1));
  CHECK(v.undecided[0].more_calls >= 7000);
}

/* Sparse samples never read as flat: ten points spread over the run, or
 * enough points packed into fewer than 8 segments, are untested. */
static void test_sparse_untested(void) {
  double it[40], va[40];
  for (int i = 0; i < 10; i++) {
    it[i] = 1000 + 1900 * i;
    va[i] = 1e6;
  }
  ws_memtrend_result r;
  CHECK(ws_memtrend_analyze(it, va, 10, 0, 0, 20000, WS_ALPHA, &r) == 0);
  CHECK(r.pattern == WS_PATTERN_UNTESTED);
  for (int i = 0; i < 40; i++) {
    it[i] = 100 + 10 * i; /* all in the first segment */
    va[i] = 1e6;
  }
  CHECK(ws_memtrend_analyze(it, va, 40, 0, 0, 20000, WS_ALPHA, &r) == 0);
  CHECK(r.pattern == WS_PATTERN_UNTESTED);
}

/* A clean run of 1 000 000 calls is not a slowdown. */
static void test_clean_long(void) {
  double iter[1] = {0}, bytes[1] = {1 << 20};
  ws_series_in s = {WS_ROLE_LINEAR, 1, iter, bytes, 1, WS_WASM32_MAX_BYTES};
  ws_memtrend_result r;
  ws_verdict v;
  analyse(1000000, &s, 1, &r, &v);
  CHECK(v.time.tested && !v.time.flagged && ws_verdict_of(&v) == WS_KIND_STABLE);
}

/* The time warm-up (ws_warmup_time) cuts a start-up transient, not a drift:
 * on quiet calls (sigma 0.05, like work.wasm's), a run slowing by 20 % from
 * its first call to its last keeps nearly all of it (plain MSER, around the
 * mean, cut 42-50 % of these runs), and a tier-up in the first 4 % of the
 * calls is cut at its end. */
static void test_warmup_time(void) {
  enum { CALLS = 100000 };
  float *x = malloc(CALLS * sizeof *x);
  if (x == NULL)
    return;
  for (uint64_t seed = 1; seed <= 5; seed++) {
    ws_synth_time t;
    ws_synth_time_defaults(&t, CALLS, seed);
    t.sigma = 0.05;
    t.tierup_at = 0;
    t.drift = 0.2;
    ws_synth_time_fill(&t, x);
    size_t end;
    CHECK(ws_warmup_time(x, CALLS, &end) == 0 && end < CALLS / 20);
    ws_synth_time_defaults(&t, CALLS, seed);
    t.sigma = 0.05;
    ws_synth_time_fill(&t, x);
    CHECK(ws_warmup_time(x, CALLS, &end) == 0);
    CHECK(end >= t.tierup_at && end < t.tierup_at + CALLS / 50);
  }
  free(x);
}

/* Time against the machine (ws_drift_analyze with a control): a machine that
 * slows by half across the run slows the calls as much; alone they are a
 * slowdown, against the control machine noise. A module that slows by 30 %
 * on a steady machine stays a slowdown, its interval the one against the
 * machine. Calls flagged preempted leave their batch's value. */
static void test_against_machine(void) {
  enum { CALLS = 20000, EVERY = 40, SAMPLES = CALLS / EVERY };
  float *x = malloc(CALLS * sizeof *x);
  double *ci = malloc(SAMPLES * sizeof *ci), *cn = malloc(SAMPLES * sizeof *cn);
  uint8_t *flags = calloc(CALLS, 1);
  if (x == NULL || ci == NULL || cn == NULL || flags == NULL) {
    free(x), free(ci), free(cn), free(flags);
    return;
  }
  ws_synth_time t;
  ws_synth_time_defaults(&t, CALLS, 11);
  ws_synth_time_fill(&t, x);
  for (size_t i = 0; i < CALLS; i++)
    x[i] *= (float)(1.0 + 0.5 * (double)i / CALLS);
  for (size_t k = 0; k < SAMPLES; k++) {
    ci[k] = (double)(k * EVERY);
    cn[k] = 5600.0 * (1.0 + 0.5 * ci[k] / CALLS) * (1.0 + 0.01 * (double)(k % 3));
  }
  ws_drift_opts o = {WS_TIME_THRESHOLD, WS_ALPHA, 1};
  ws_drift_result alone, machine;
  CHECK(ws_drift_analyze(x, CALLS, 1000, &o, NULL, &alone) == 0 && alone.flagged);
  ws_time_control ctl = {ci, cn, SAMPLES, NULL};
  CHECK(ws_drift_analyze(x, CALLS, 1000, &o, &ctl, &machine) == 0);
  CHECK(machine.controlled && machine.control_batches == machine.batches);
  CHECK(!machine.flagged && machine.machine_noise && !machine.spans);
  CHECK(machine.control_low98 > 0.3 && machine.adjusted_high98 < WS_TIME_THRESHOLD);
  CHECK(machine.more_calls > 0 && machine.decided_effect == machine.adjusted_effect);

  /* The module's own +30 % on a steady machine. */
  ws_synth_time_fill(&t, x);
  for (size_t i = 0; i < CALLS; i++)
    x[i] *= (float)(1.0 + 0.3 * (double)i / CALLS);
  for (size_t k = 0; k < SAMPLES; k++)
    cn[k] = 5600.0 * (1.0 + 0.01 * (double)(k % 3));
  CHECK(ws_drift_analyze(x, CALLS, 1000, &o, &ctl, &machine) == 0);
  CHECK(machine.flagged && !machine.machine_noise && machine.adjusted_tested);
  CHECK(machine.decided_low98 >= WS_TIME_THRESHOLD);

  /* A flat module whose second half is preempted every third call (a 3 ms
   * wait each): flagged, those calls leave their batches, and nothing is
   * found; unflagged, the same times climb. */
  ws_synth_time_fill(&t, x);
  for (size_t i = CALLS / 2; i < CALLS; i += 3) {
    x[i] += 3e6f;
    flags[i] = WS_FLAG_PREEMPTED;
  }
  ws_time_control pre = {ci, cn, SAMPLES, flags};
  CHECK(ws_drift_analyze(x, CALLS, 1000, &o, &pre, &machine) == 0);
  CHECK(!machine.flagged && !machine.spans && machine.preempted > 3000 &&
        !machine.disturbed);
  CHECK(ws_drift_analyze(x, CALLS, 1000, &o, NULL, &alone) == 0 && alone.effect > 0.1);

  /* A +20 % module on a machine that wanders by a sine of 3 periods, which
   * the control sees: by 10 %, the calls' own trend only spans the
   * threshold that the trend against the machine clears, and the control
   * decides: a slowdown, its interval the one against the machine; by 20 %,
   * their own trend does not rise at all, and the tests disagree: machine
   * noise, not stable. */
  for (int big = 0; big <= 1; big++) {
    double amp = big ? 0.2 : 0.1;
    t.sigma = 0.05;
    ws_synth_time_fill(&t, x);
    for (size_t i = 0; i < CALLS; i++)
      x[i] *= (float)((1.0 + 0.2 * (double)i / CALLS) *
                      (1.0 + amp * sin(6.283185 * 3.0 * (double)i / CALLS)));
    for (size_t k = 0; k < SAMPLES; k++)
      cn[k] = 5600.0 * (1.0 + amp * sin(6.283185 * 3.0 * ci[k] / CALLS));
    CHECK(ws_drift_analyze(x, CALLS, 1000, &o, &ctl, &machine) == 0);
    CHECK(machine.adjusted_low98 >= WS_TIME_THRESHOLD &&
          machine.decided_low98 == machine.adjusted_low98);
    if (!big)
      CHECK(machine.flagged && machine.effect_low98 < WS_TIME_THRESHOLD);
    else
      CHECK(!machine.flagged && machine.machine_noise && !machine.spans);
  }

  /* Samples in too few batches: judged on the calls alone. */
  ws_time_control few = {ci, cn, 5, NULL};
  CHECK(ws_drift_analyze(x, CALLS, 1000, &o, &few, &machine) == 0);
  CHECK(!machine.controlled && machine.decided_effect == machine.effect);
  free(x), free(ci), free(cn), free(flags);
}

/* A flagged slowdown must recur in a second pass of the same calls: a
 * first pass that rose +30 % against a replica that stays flat is
 * not-replicated (inconclusive, no finding); against a replica that rises
 * +30 % too it stays a slowdown; a replica given to an unflagged run is not
 * tested. So must growth held by peaks. */
static void test_replica(void) {
  enum { CALLS = 20000 };
  float *x = malloc(CALLS * sizeof *x), *y = malloc(CALLS * sizeof *y);
  if (x == NULL || y == NULL) {
    free(x), free(y);
    return;
  }
  ws_synth_time t;
  ws_synth_time_defaults(&t, CALLS, 17);
  ws_synth_time_fill(&t, x);
  for (size_t i = 0; i < CALLS; i++)
    x[i] *= (float)(1.0 + 0.3 * (double)i / CALLS);
  ws_synth_time_defaults(&t, CALLS, 18);
  ws_synth_time_fill(&t, y);
  double lin_iter[1] = {0}, lin_bytes[1] = {1 << 20};
  ws_series_in s[1] = {{WS_ROLE_LINEAR, 1, lin_iter, lin_bytes, 1, 0}};
  ws_memtrend_result res[1];
  ws_verdict v = {.series = res};
  ws_verdict_opts o;
  ws_verdict_opts_default(&o);
  CHECK(ws_analyze_run(x, CALLS, s, 1, &o, &v) == 0);
  CHECK(v.time.flagged && !v.replica_tested && ws_verdict_of(&v) == WS_KIND_SLOWDOWN);

  ws_replica level_run = {y, CALLS, {NULL, NULL, 0, NULL}, NULL, 0};
  o.replica = &level_run;
  CHECK(ws_analyze_run(x, CALLS, s, 1, &o, &v) == 0);
  CHECK(v.replica_tested && !v.replica.flagged && !v.time.flagged && v.time.unreplicated);
  CHECK(v.time.more_calls == (double)(v.time.to - v.time.from));
  CHECK(left_open(&v, WS_UNDECIDED_NOT_REPLICATED, -1));
  CHECK(ws_verdict_of(&v) == WS_KIND_INCONCLUSIVE);

  for (size_t i = 0; i < CALLS; i++)
    y[i] *= (float)(1.0 + 0.3 * (double)i / CALLS);
  CHECK(ws_analyze_run(x, CALLS, s, 1, &o, &v) == 0);
  CHECK(v.replica_tested && v.time.flagged && !v.time.unreplicated);
  CHECK(v.replica.decided_low98 >= WS_TIME_THRESHOLD);
  CHECK(ws_verdict_of(&v) == WS_KIND_SLOWDOWN);

  ws_synth_time_defaults(&t, CALLS, 19);
  ws_synth_time_fill(&t, x);
  CHECK(ws_analyze_run(x, CALLS, s, 1, &o, &v) == 0);
  CHECK(!v.time.flagged && !v.replica_tested && !v.time.unreplicated);

  /* Growth held by peaks: the heap grows at its end while live bytes and
   * the holes stay flat; in the first pass only, it is not-replicated; in
   * both, it stays growth. */
  enum { POINTS = 200 };
  double si[POINTS], heap[POINTS], flat[POINTS], level[POINTS], holes[POINTS];
  for (int i = 0; i < POINTS; i++) {
    si[i] = (i + 1) * (CALLS / POINTS) - 1;
    double noise = (double)((i * 7919) % 97); /* 0 .. 96, no trend */
    heap[i] = 1.2e6 + 0.8e6 * si[i] / CALLS + 40 * noise;
    flat[i] = 1.2e6 + 40 * noise;
    level[i] = 8e5 + 80 * noise;
    holes[i] = 2e5 + 20 * noise;
  }
  ws_series_in mem[3] = {{WS_ROLE_HEAP, 0, si, heap, POINTS, 0},
                         {WS_ROLE_LIVE, 0, si, level, POINTS, 0},
                         {WS_ROLE_HOLES, 0, si, holes, POINTS, 0}};
  ws_series_in again[3] = {{WS_ROLE_HEAP, 0, si, flat, POINTS, 0}, mem[1], mem[2]};
  ws_memtrend_result three[3];
  v = (ws_verdict){.series = three};
  ws_replica peaks = {x, CALLS, {NULL, NULL, 0, NULL}, again, 3};
  o.replica = NULL;
  CHECK(ws_analyze_run(x, CALLS, mem, 3, &o, &v) == 0);
  CHECK(v.nfindings == 1 && v.findings[0].cause == WS_GROWTH_HEAP_END);
  o.replica = &peaks;
  CHECK(ws_analyze_run(x, CALLS, mem, 3, &o, &v) == 0);
  CHECK(v.nfindings == 0 && v.nreplica_series == 1 && v.replica_series[0] == 0);
  CHECK(left_open(&v, WS_UNDECIDED_NOT_REPLICATED, 0));
  CHECK(ws_verdict_of(&v) == WS_KIND_INCONCLUSIVE);
  again[0].value = heap;
  CHECK(ws_analyze_run(x, CALLS, mem, 3, &o, &v) == 0);
  CHECK(v.nfindings == 1 && v.findings[0].kind == WS_KIND_GROWTH);
  CHECK(v.replica_results[0].pattern == WS_PATTERN_SUSTAINED);
  free(x), free(y);
}

/* Fills value[0..POINTS) with live bytes sampled at iter (every 100 calls
 * of a 20 000-call run): a level of 300 kB, `grow` bytes more at the run's
 * end by shape (0: a line; 1: a 60 kB step at 30 % of the run, then the
 * line) and 30 kB of xorshift32 noise from seed. */
enum { WANDER_POINTS = 200, WANDER_CALLS = 20000 };
static void wander_series(double *iter, double *value, double grow, int shape,
                          uint32_t seed) {
  uint32_t x = seed;
  for (int i = 0; i < WANDER_POINTS; i++) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    iter[i] = (i + 1) * 100 - 1;
    double t = iter[i] / WANDER_CALLS;
    double step = shape == 1 && t > 0.3 ? 60000 : 0;
    value[i] = 3e5 + step + grow * t + 30000 * (x / 4294967296.0 - 0.5);
  }
}

/* A memory finding or question a working set's own wander could explain
 * must recur in a second run (another seed) before it stands: a leak short
 * of beyond doubt whose replica stays flat is not-replicated; one whose
 * replica rises significantly stands; a leak beyond doubt needs no second
 * run. A still-rising series whose replica is flat is settled (stable, with
 * a rise-not-repeated note); one that still rises there stays open. */
static void test_replica_wander(void) {
  float *x = calloc(WANDER_CALLS, sizeof *x);
  if (x == NULL)
    return;
  for (size_t i = 0; i < WANDER_CALLS; i++)
    x[i] = 1000;
  double iter[WANDER_POINTS], first[WANDER_POINTS], second[WANDER_POINTS];
  ws_series_in live[1] = {{WS_ROLE_LIVE, 0, iter, first, WANDER_POINTS, 0}};
  ws_series_in again[1] = {{WS_ROLE_LIVE, 0, iter, second, WANDER_POINTS, 0}};
  ws_replica replica = {x, WANDER_CALLS, {NULL, NULL, 0, NULL}, again, 1};
  ws_memtrend_result res[1];
  ws_verdict v = {.series = res};
  ws_verdict_opts o;
  ws_verdict_opts_default(&o);
  o.warmup = 2000;

  wander_series(iter, first, 20000, 0, 2);
  CHECK(ws_analyze_run(x, WANDER_CALLS, live, 1, &o, &v) == 0);
  CHECK(v.nfindings == 1 && v.findings[0].kind == WS_KIND_LEAK);
  CHECK(res[0].trend.p_up > WS_BEYOND_DOUBT_P && v.must_recur);
  o.replica = &replica;
  wander_series(iter, second, 0, 0, 1);
  CHECK(ws_analyze_run(x, WANDER_CALLS, live, 1, &o, &v) == 0);
  CHECK(v.nfindings == 0 && left_open(&v, WS_UNDECIDED_NOT_REPLICATED, 0));
  CHECK(v.nreplica_series == 1 && !v.replica_recurred[0]);
  CHECK(ws_verdict_of(&v) == WS_KIND_INCONCLUSIVE);
  wander_series(iter, second, 20000, 0, 7); /* a significant step there */
  CHECK(ws_analyze_run(x, WANDER_CALLS, live, 1, &o, &v) == 0);
  CHECK(v.replica_results[0].pattern == WS_PATTERN_STEP && v.replica_recurred[0]);
  CHECK(ws_verdict_of(&v) == WS_KIND_LEAK);

  /* Beyond doubt: no second run is asked for, and a flat one changes nothing. */
  wander_series(iter, first, 20000, 0, 5);
  wander_series(iter, second, 0, 0, 1);
  o.replica = NULL;
  CHECK(ws_analyze_run(x, WANDER_CALLS, live, 1, &o, &v) == 0);
  CHECK(res[0].trend.p_up <= WS_BEYOND_DOUBT_P && !v.must_recur);
  o.replica = &replica;
  CHECK(ws_analyze_run(x, WANDER_CALLS, live, 1, &o, &v) == 0);
  CHECK(v.nreplica_series == 0 && ws_verdict_of(&v) == WS_KIND_LEAK);

  /* Still rising: settled by a flat second run, open while it still rises. */
  wander_series(iter, first, 20000, 1, 5);
  o.replica = NULL;
  CHECK(ws_analyze_run(x, WANDER_CALLS, live, 1, &o, &v) == 0);
  CHECK(left_open(&v, WS_UNDECIDED_STILL_RISING, 0) && v.must_recur);
  o.replica = &replica;
  CHECK(ws_analyze_run(x, WANDER_CALLS, live, 1, &o, &v) == 0);
  CHECK(ws_verdict_of(&v) == WS_KIND_STABLE && v.nnotes == 1);
  CHECK(v.notes[0].kind == WS_NOTE_NOT_REPEATED && v.notes[0].series == 0);
  CHECK(v.notes[0].from == res[0].start && v.notes[0].to == res[0].end);
  wander_series(iter, second, 20000, 1, 6);
  CHECK(ws_analyze_run(x, WANDER_CALLS, live, 1, &o, &v) == 0);
  CHECK(left_open(&v, WS_UNDECIDED_STILL_RISING, 0) && v.replica_recurred[0]);
  CHECK(v.nnotes == 0 && ws_verdict_of(&v) == WS_KIND_INCONCLUSIVE);
  free(x);
}

/* A sustained series below the memory floor grows for no finding; the
 * floor's numbers: bytes per call and share of the level at the window's
 * start, and the calls until the relative floor. */
static void test_floor(void) {
  ws_signal s[2] = {SIG(WS_ROLE_LINEAR, WS_PATTERN_FLAT, 0, 0),
                    SIG(WS_ROLE_LIVE, WS_PATTERN_SUSTAINED, 0, 1000)};
  ws_finding f[WS_MAX_FINDINGS];
  size_t n;
  int below;
  CHECK(classify(s, 2, 0, WS_JS_HEAP_THRESHOLD, f, &n, &below) == WS_KIND_LEAK);
  s[1].below_floor = 1;
  CHECK(classify(s, 2, 0, WS_JS_HEAP_THRESHOLD, f, &n, &below) == WS_KIND_STABLE);
  CHECK(n == 0);
  /* 55 B per 1 000 calls on a 400 KiB live heap over 18 000 calls. */
  ws_memtrend_result r = {.pattern = WS_PATTERN_SUSTAINED, .from = 2000, .to = 20000};
  r.start = 400 * 1024.0;
  r.grown = 0.055 * 18000;
  ws_floor x = ws_mem_floor(&r, 0, WS_MEM_FLOOR_PER_CALL, WS_MEM_FLOOR_RELATIVE);
  CHECK(x.below && x.grown == r.grown && x.per_call > 0.054 && x.per_call < 0.056);
  CHECK(x.relative > 0.0023 && x.relative < 0.0025);
  CHECK(x.more_calls > 350000 && x.more_calls < 360000);
  /* Either floor reached makes it a finding: 1 B per call, or 5 %. */
  r.grown = 18000;
  CHECK(!ws_mem_floor(&r, 0, WS_MEM_FLOOR_PER_CALL, WS_MEM_FLOOR_RELATIVE).below);
  r.grown = 0.9 * 18000;
  CHECK(ws_mem_floor(&r, 0, WS_MEM_FLOOR_PER_CALL, WS_MEM_FLOOR_RELATIVE).below);
  r.start = 100 * 1024.0;
  CHECK(!ws_mem_floor(&r, 0, WS_MEM_FLOOR_PER_CALL, WS_MEM_FLOOR_RELATIVE).below);
  r.start = 0; /* nothing live at the start: any growth is relatively large */
  CHECK(!ws_mem_floor(&r, 0, WS_MEM_FLOOR_PER_CALL, WS_MEM_FLOOR_RELATIVE).below);
  /* A step series counts its growth across the window when its trend is
   * flat between a few large steps. */
  r = (ws_memtrend_result){.pattern = WS_PATTERN_SUSTAINED, .from = 0, .to = 20000};
  r.start = 1 << 20;
  r.events.grown = 3 << 20;
  CHECK(!ws_mem_floor(&r, 1, WS_MEM_FLOOR_PER_CALL, WS_MEM_FLOOR_RELATIVE).below);
  CHECK(ws_mem_floor(&r, 0, WS_MEM_FLOOR_PER_CALL, WS_MEM_FLOOR_RELATIVE).below);
}

/* Linear memory that grows 1.4 -> 36 MiB in start-up, then keeps climbing
 * after warm-up, in bursts every 1 500 calls (a GC that runs late) and ever
 * more slowly, to 70 MiB in 100 000 calls, each step one or two pages: the
 * shape tests call a climb that slows a step, but it keeps setting new highs
 * (the record test), so it has not levelled off: inconclusive, still rising,
 * never stable. One step in start-up, then a plateau, is stable with its
 * start-up note; so is one page more late in the run (a plateau step). */
static void test_still_rising_mark(void) {
  enum { CALLS = 100000, MAX = 400 };
  double mib = 1 << 20, page = WS_PAGE_BYTES;
  double *iter = malloc(MAX * sizeof *iter), *bytes = malloc(MAX * sizeof *bytes);
  CHECK(iter != NULL && bytes != NULL);
  size_t n = 0;
  iter[n] = 0;
  bytes[n++] = 1.4 * mib;
  for (int i = 1; i <= 40; i++, n++) {
    iter[n] = i * 2549.0 / 40;
    bytes[n] = 1.4 * mib + (36.3 - 1.4) * mib * i / 40;
  }
  double cur = bytes[n - 1];
  for (size_t c = 8000; c < CALLS; c += 1500) {
    double target = 38 * mib + 31.7 * mib * pow((double)(c - 8000) / 92000, 0.2);
    for (size_t j = 0; target > cur + page && n < MAX; j++, n++) {
      cur += 2 * page;
      iter[n] = (double)(c + j);
      bytes[n] = cur;
    }
  }
  CHECK(n < MAX && cur > 69 * mib);
  ws_series_in s = {WS_ROLE_LINEAR, 1, iter, bytes, n, WS_WASM32_MAX_BYTES};
  ws_memtrend_result r;
  ws_verdict v;
  analyse(CALLS, &s, 1, &r, &v);
  CHECK(r.pattern == WS_PATTERN_STEP && r.never_falls && r.events.large == 0);
  CHECK(r.still_rising && r.end > 65 * mib && r.events.count > 200);
  CHECK(ws_verdict_of(&v) == WS_KIND_INCONCLUSIVE && v.nfindings == 0);
  CHECK(left_open(&v, WS_UNDECIDED_STILL_RISING, 0) &&
        v.undecided[0].more_calls == (double)(CALLS - v.warmup));
  CHECK(v.nnotes == 1 && v.notes[0].kind == WS_NOTE_STARTUP_GROWTH);
  /* The same start-up, then a plateau. */
  double one_iter[] = {0, 300}, one_bytes[] = {1.4 * mib, 36.3 * mib};
  ws_series_in one = {WS_ROLE_LINEAR, 1, one_iter, one_bytes, 2, WS_WASM32_MAX_BYTES};
  analyse(CALLS, &one, 1, &r, &v);
  CHECK(r.pattern == WS_PATTERN_FLAT && !r.still_rising);
  CHECK(ws_verdict_of(&v) == WS_KIND_STABLE && v.nundecided == 0);
  CHECK(v.nnotes == 1 && v.notes[0].kind == WS_NOTE_STARTUP_GROWTH);
  /* wasi-libc's dlmalloc on a bounded working set: one 64 KiB step at
   * 14 000 calls of 20 000, then flat. */
  double page_iter[] = {0, 200, 14000}, page_bytes[] = {mib, 2 * mib, 2 * mib + page};
  ws_series_in late = {WS_ROLE_LINEAR, 1, page_iter, page_bytes, 3, WS_WASM32_MAX_BYTES};
  analyse(20000, &late, 1, &r, &v);
  CHECK(!r.still_rising && !r.events.late);
  CHECK(ws_verdict_of(&v) == WS_KIND_STABLE && v.nundecided == 0);
  free(iter), free(bytes);
}

/* Live bytes that step up by 900 B mid-run and creep on (0.03 B per call):
 * the step's second half still rises, but by 0.09 B per call, 0.8 % of a
 * 200 KiB level (the clean fixture's case, 0.07 B per call): below the
 * floor, a note and no question; with both floors at 0, still rising. */
static void test_floor_undecided(void) {
  enum { CALLS = 20000, N = 200 };
  double li[N], lv[N], mi[] = {0, 300}, mb[] = {1 << 20, 2 << 20};
  ws_rng rng;
  ws_rng_seed(&rng, 5);
  for (int i = 0; i < N; i++) {
    li[i] = 100.0 * i + 99;
    lv[i] = 200 * 1024.0 + (li[i] > 9000 ? 900 : 0) + 0.03 * li[i] +
            (double)(ws_rng_next(&rng) % 64);
  }
  ws_series_in s[2] = {{WS_ROLE_LINEAR, 1, mi, mb, 2, WS_WASM32_MAX_BYTES},
                       {WS_ROLE_LIVE, 0, li, lv, N, 0}};
  ws_memtrend_result res[2];
  ws_verdict v;
  analyse(CALLS, s, 2, res, &v);
  CHECK(res[1].pattern == WS_PATTERN_STEP && res[1].still_rising);
  CHECK(ws_verdict_of(&v) == WS_KIND_STABLE && v.nundecided == 0 && v.nfindings == 0);
  CHECK(v.nnotes == 1 && v.notes[0].kind == WS_NOTE_BELOW_FLOOR &&
        v.notes[0].series == 1);
  CHECK(v.notes[0].per_call > 0.05 && v.notes[0].per_call < 0.1);
  CHECK(v.notes[0].relative > 0.005 && v.notes[0].relative < 0.01);
  ws_verdict_opts o;
  ws_verdict_opts_default(&o);
  o.mem_floor_per_call = 0;
  o.mem_floor_relative = 0;
  CHECK(analyse_with(CALLS, s, 2, res, &v, &o) == 0);
  CHECK(ws_verdict_of(&v) == WS_KIND_INCONCLUSIVE && v.nnotes == 0);
  CHECK(left_open(&v, WS_UNDECIDED_STILL_RISING, 1));
}

/* Sharp, repeated falls are a sawtooth; noise, a ramp or a single fall are
 * not. */
static void test_sawtooth(void) {
  enum { N = 200 };
  double iter[N], v[N];
  ws_rng rng;
  ws_rng_seed(&rng, 7);
  for (int i = 0; i < N; i++) {
    iter[i] = 1000.0 * i + 999;
    v[i] = 1e6 + 5e4 * (i % 25) + (double)(ws_rng_next(&rng) % 2000); /* teeth of 25 */
  }
  ws_sawtooth_result r;
  CHECK(ws_sawtooth(iter, v, N, 0, 1000 * N, &r) == 0);
  CHECK(r.sawtooth && r.falls == 7 && r.points == N);
  CHECK(r.largest > 1.1e6 && r.largest < 1.25e6 && r.first == 25999 && r.last == 175999);
  /* From iteration 100 000 on: 3 falls are left. */
  CHECK(ws_sawtooth(iter, v, N, 100000, 1000 * N, &r) == 0);
  CHECK(r.sawtooth && r.falls == 3 && r.points == 100);
  /* A fall spread over two samples is one fall. */
  v[49] = v[48] - 6e5;
  CHECK(ws_sawtooth(iter, v, N, 0, 1000 * N, &r) == 0 && r.falls == 7);
  /* White noise: no fall is much larger than its typical change. */
  for (int i = 0; i < N; i++)
    v[i] = 1e6 + (double)(ws_rng_next(&rng) % 100000);
  CHECK(ws_sawtooth(iter, v, N, 0, 1000 * N, &r) == 0 && r.falls == 0 && !r.sawtooth);
  /* A ramp with a single reset; a constant series; too few samples. */
  for (int i = 0; i < N; i++)
    v[i] = 1e6 + 1e4 * (i % 120);
  CHECK(ws_sawtooth(iter, v, N, 0, 1000 * N, &r) == 0 && r.falls == 1 && !r.sawtooth);
  for (int i = 0; i < N; i++)
    v[i] = 1e6;
  CHECK(ws_sawtooth(iter, v, N, 0, 1000 * N, &r) == 0 && r.falls == 0);
  CHECK(ws_sawtooth(iter, v, 11, 0, 1000 * N, &r) == 0 && r.points == 11 && !r.sawtooth);
}

/* The whole-run analysis: live bytes that drift by 55 B per 1 000 calls on
 * a 400 KiB heap are sustained but below the floor (a note, stable); linear
 * memory that grew 8x in warm-up is a start-up note; live bytes freed in
 * bursts are a sawtooth note. */
static void test_analyze_notes(void) {
  enum { CALLS = 20000, POINTS = 200 };
  double mib = 1 << 20;
  double lin_iter[] = {0, 100, 200, 300}, lin_bytes[] = {mib, 3 * mib, 6 * mib, 8 * mib};
  double s_iter[POINTS], live[POINTS];
  ws_rng rng;
  ws_rng_seed(&rng, 3);
  for (int i = 0; i < POINTS; i++) {
    s_iter[i] = 100.0 * i + 99;
    live[i] = 400 * 1024.0 + 0.055 * s_iter[i] + (double)(ws_rng_next(&rng) % 64);
  }
  ws_series_in s[2] = {{WS_ROLE_LINEAR, 1, lin_iter, lin_bytes, 4, WS_WASM32_MAX_BYTES},
                       {WS_ROLE_LIVE, 0, s_iter, live, POINTS, 0}};
  ws_memtrend_result res[2];
  ws_verdict v;
  analyse(CALLS, s, 2, res, &v);
  CHECK(res[1].pattern == WS_PATTERN_SUSTAINED);
  CHECK(ws_verdict_of(&v) == WS_KIND_STABLE && v.nfindings == 0 && v.nnotes == 2);
  const ws_note *fl = &v.notes[0], *up = &v.notes[1];
  CHECK(fl->kind == WS_NOTE_BELOW_FLOOR && fl->series == 1);
  CHECK(fl->per_call > 0.04 && fl->per_call < 0.07 && fl->relative < 0.01);
  CHECK(up->kind == WS_NOTE_STARTUP_GROWTH && up->series == 0);
  CHECK(up->from == mib && up->to == 8 * mib && up->relative == 8);
  CHECK(up->grown == 7 * mib && up->at == (double)v.warmup && v.warmup > 300);
  /* Zero floors: the same drift is a leak, and no note says otherwise. */
  ws_verdict_opts o;
  ws_verdict_opts_default(&o);
  CHECK(o.mem_floor_per_call == WS_MEM_FLOOR_PER_CALL &&
        o.mem_floor_relative == WS_MEM_FLOOR_RELATIVE);
  o.mem_floor_per_call = 0;
  o.mem_floor_relative = 0;
  CHECK(analyse_with(CALLS, s, 2, res, &v, &o) == 0);
  CHECK(ws_verdict_of(&v) == WS_KIND_LEAK && v.nnotes == 1 &&
        v.notes[0].kind == WS_NOTE_STARTUP_GROWTH);
  o.mem_floor_relative = -1;
  CHECK(analyse_with(CALLS, s, 2, res, &v, &o) == WS_EINVAL);
  /* Live bytes freed in bursts every 2 000 calls: a sawtooth, no finding. */
  for (int i = 0; i < POINTS; i++)
    live[i] = 400 * 1024.0 + 300.0 * (i % 20) * 100 + (double)(ws_rng_next(&rng) % 4096);
  analyse(CALLS, s, 2, res, &v);
  CHECK(ws_verdict_of(&v) == WS_KIND_STABLE && v.nnotes == 2);
  CHECK(v.notes[1].kind == WS_NOTE_SAWTOOTH && v.notes[1].series == 1);
  CHECK(v.notes[1].count >= 7 && v.notes[1].at == 2000 && v.notes[1].grown > 500000);
}

int main(void) {
  test_kinds();
  test_js_heap_threshold();
  test_js_heaps_apart();
  test_order();
  test_growth_causes();
  test_windows();
  test_drift_uses_windows();
  test_drift_long();
  test_analyze_threshold();
  test_staircase();
  test_doubling();
  test_exhausted_4gib();
  test_exhausted_declared();
  test_short_leak();
  test_sparse_untested();
  test_clean_long();
  test_floor();
  test_floor_undecided();
  test_still_rising_mark();
  test_sawtooth();
  test_analyze_notes();
  test_against_machine();
  test_replica();
  test_replica_wander();
  test_warmup_time();
  return check_report("verdict");
}
