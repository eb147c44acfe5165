/* Classification, its practical-significance threshold for the JS heap, the
 * one definition of the early and late windows, and the whole-run analysis
 * that applies them (ws_classify.c, ws_windows.c, ws_verdict.c). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "synth.h"
#include "ws_stats.h"

/* Kinds are severity-ordered and named from the one list. */
static void test_kinds(void) {
  CHECK(WS_KIND_STACK_DRIFT < WS_KIND_LEAK && WS_KIND_LEAK < WS_KIND_FRAGMENTATION);
  CHECK(WS_KIND_GROWTH < WS_KIND_JS_HEAP_GROWTH && WS_KIND_SLOWDOWN < WS_KIND_BUDGET);
  CHECK(strcmp(ws_kind_name(WS_KIND_STABLE), "stable") == 0);
  CHECK(strcmp(ws_kind_name(WS_KIND_JS_HEAP_GROWTH), "js-heap-growth") == 0);
  CHECK(strcmp(ws_kind_name(WS_KIND_BUDGET), "budget") == 0);
  CHECK(strcmp(ws_kind_name(WS_KIND_COUNT), "unknown") == 0);
}

/* A sustained retained JS heap is a finding only from the threshold up;
 * below it the series is reported as dismissed, and the verdict stays. */
static void test_js_heap_threshold(void) {
  ws_signal s[2] = {{WS_ROLE_LINEAR, WS_PATTERN_FLAT, 0, 0},
                    {WS_ROLE_JS_HEAP, WS_PATTERN_SUSTAINED, 1, 80 * 1024.0}};
  ws_finding f[WS_MAX_FINDINGS];
  size_t n = 9;
  int below = 7;
  CHECK(ws_classify(s, 2, 0, WS_JS_HEAP_THRESHOLD, f, &n, &below) == WS_KIND_STABLE);
  CHECK(n == 0 && below == 1);
  s[1].grown = WS_JS_HEAP_THRESHOLD;
  CHECK(ws_classify(s, 2, 0, WS_JS_HEAP_THRESHOLD, f, &n, &below) ==
        WS_KIND_JS_HEAP_GROWTH);
  CHECK(n == 1 && f[0].kind == WS_KIND_JS_HEAP_GROWTH && f[0].series == 1 && below == -1);
  /* The threshold is an option: 0 takes every sustained trend. */
  s[1].grown = 1;
  CHECK(ws_classify(s, 2, 0, 0, f, &n, &below) == WS_KIND_JS_HEAP_GROWTH);
  /* A flat JS heap is never "below the threshold". */
  s[1].pattern = WS_PATTERN_FLAT;
  CHECK(ws_classify(s, 2, 1, WS_JS_HEAP_THRESHOLD, f, &n, &below) == WS_KIND_SLOWDOWN);
  CHECK(n == 1 && f[0].series == -1 && below == -1);
  /* The threshold applies to the JS heap only: memory growth of a few bytes
   * is judged by its trend tests. */
  ws_signal m[1] = {{WS_ROLE_LINEAR, WS_PATTERN_SUSTAINED, 1, 10}};
  CHECK(ws_classify(m, 1, 0, WS_JS_HEAP_THRESHOLD, f, &n, &below) == WS_KIND_GROWTH);
}

/* Findings come most severe first, one memory finding at most. */
static void test_order(void) {
  ws_signal s[5] = {{WS_ROLE_LINEAR, WS_PATTERN_SUSTAINED, 1, 1e6},
                    {WS_ROLE_HEAP, WS_PATTERN_SUSTAINED, 1, 1e6},
                    {WS_ROLE_LIVE, WS_PATTERN_FLAT, 0, 0},
                    {WS_ROLE_JS_HEAP, WS_PATTERN_SUSTAINED, 1, 1e6},
                    {WS_ROLE_STACK, WS_PATTERN_SUSTAINED, 1, 4096}};
  ws_finding f[WS_MAX_FINDINGS];
  size_t n;
  int below;
  CHECK(ws_classify(s, 5, 1, WS_JS_HEAP_THRESHOLD, f, &n, &below) == WS_KIND_STACK_DRIFT);
  CHECK(n == 4);
  CHECK(f[1].kind == WS_KIND_FRAGMENTATION && f[1].series == 1);
  CHECK(f[2].kind == WS_KIND_JS_HEAP_GROWTH && f[3].kind == WS_KIND_SLOWDOWN);
  for (size_t i = 1; i < n; i++)
    CHECK(f[i - 1].kind < f[i].kind);
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
    CHECK(ws_drift_analyze(x, cases[c][1], cases[c][0], &o, &r) == 0);
    ws_time_windows(cases[c][0], cases[c][1], &w);
    CHECK(r.tested == (c < 2));
    CHECK(r.from == w.from && r.to == w.to && r.early_to == w.early_to);
    CHECK(r.late_from == w.late_from && r.window_batches == w.window_batches);
  }
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
  ws_series_in s[2] = {{WS_ROLE_LINEAR, 1, lin_iter, lin_bytes, 1},
                       {WS_ROLE_JS_HEAP, 0, js_iter, js, POINTS}};
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
  CHECK(v.verdict == WS_KIND_STABLE && v.below_threshold == 1);
  o.js_heap_threshold = 64 * 1024;
  CHECK(ws_analyze_run(x, CALLS, s, 2, &o, &v) == 0);
  CHECK(v.verdict == WS_KIND_JS_HEAP_GROWTH && v.below_threshold == -1);
  o.js_heap_threshold = -1;
  CHECK(ws_analyze_run(x, CALLS, s, 2, &o, &v) == WS_EINVAL);
  free(x);
}

int main(void) {
  test_kinds();
  test_js_heap_threshold();
  test_order();
  test_windows();
  test_drift_uses_windows();
  test_analyze_threshold();
  return check_report("verdict");
}
