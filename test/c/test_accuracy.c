/* Accuracy of the verdict engine on synthetic runs (test/c/synth.c) at default
 * settings, run by `make -s -f test/c/Makefile check` (docs/verdicts.md,
 * "Accuracy"). Seeded and deterministic; SEED_SHIFT (default 0) moves every
 * seed, to measure the rates on other draws:
 *   cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -DSEED_SHIFT=100000 -Iaddon \
 *     -Itest/c test/c/test_accuracy.c addon/ws_*.c -lm -o /tmp/accuracy
 * Prints the measured false-alarm and detection rates and fails when a
 * target is missed: false alarms <= 1 % over 500 stationary runs (time and
 * memory, plateau steps included); detection >= 95 % for a +20 % time drift
 * (twice the threshold: the gate needs the drift shown, test_time_accuracy.c),
 * a 16 B/call leak with live bytes visible and sustained linear-memory
 * growth of one 64 KiB page per 1 500 calls, each over 20 000 calls; the
 * smallest leak of 1, 2, 4, 8 and 16 B/call detected in >= 95 % of runs at
 * most 16 B/call; and a tiny drift below the memory floor (55 B per 1 000
 * calls on a smooth 400 KiB live heap) no finding but a below-floor note in
 * >= 99 % of runs. Also prints how often stationary runs carry each note,
 * and fails when more than 1 % of them show a sawtooth. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "synth.h"
#include "ws_stats.h"

#define CALLS 20000
#define STATIONARY 500
#define DETECT 200
/* Leaks whose detection is measured, bytes per call, smallest first; the
 * last is the target (the smallest detected must be at most it). */
#define LEAK_SIZES 5
static const double leak_bytes[LEAK_SIZES] = {1, 2, 4, 8, 16};
#ifndef SEED_SHIFT
#define SEED_SHIFT 0
#endif

typedef struct {
  float *elapsed;
  double *lin_iter, *lin_bytes, *s_iter, *live, *heap, *js;
} buffers;

/* Which series a synthetic run exposes to the analysis. */
enum { WITH_LIVE = 1, WITH_HEAP = 2, WITH_JS = 4 };

/* Runs the analysis on one synthetic run and returns its verdict; stores a
 * bit per finding kind in *kinds and a bit per note kind (WS_NOTE_*) in
 * *notes. */
static int analyse(buffers *b, const ws_synth_time *t, const ws_synth_mem *m, int with,
                   unsigned *kinds, unsigned *notes) {
  ws_synth_mem_out out = {b->lin_iter, b->lin_bytes, 0,     b->s_iter,
                          b->live,     b->heap,      b->js, 0};
  ws_synth_time_fill(t, b->elapsed);
  ws_synth_mem_fill(m, &out);
  ws_series_in s[4];
  size_t k = 0;
  s[k++] = (ws_series_in){WS_ROLE_LINEAR, 1, out.lin_iter, out.lin_bytes, out.lin_n, 0};
  if (with & WITH_LIVE)
    s[k++] = (ws_series_in){WS_ROLE_LIVE, 0, out.s_iter, out.live, out.s_n, 0};
  if (with & WITH_HEAP)
    s[k++] = (ws_series_in){WS_ROLE_HEAP, 0, out.s_iter, out.heap, out.s_n, 0};
  if (with & WITH_JS)
    s[k++] = (ws_series_in){WS_ROLE_JS_HEAP, 0, out.s_iter, out.js, out.s_n, 0};
  ws_memtrend_result res[4];
  ws_verdict v = {.series = res};
  ws_verdict_opts o;
  ws_verdict_opts_default(&o);
  int rc = ws_analyze_run(b->elapsed, t->calls, s, k, &o, &v);
  CHECK(rc == 0);
  *kinds = 0;
  for (size_t i = 0; i < v.nfindings; i++)
    *kinds |= 1u << v.findings[i].kind;
  *notes = 0;
  for (size_t i = 0; i < v.nnotes; i++)
    *notes |= 1u << v.notes[i].kind;
  return ws_verdict_of(&v);
}

int main(void) {
  buffers b;
  b.elapsed = malloc(CALLS * sizeof *b.elapsed);
  double *d = malloc(7 * (CALLS + 1) * sizeof *d);
  if (b.elapsed == NULL || d == NULL)
    return 1;
  b.lin_iter = d;
  b.lin_bytes = d + (CALLS + 1);
  b.s_iter = d + 2 * (CALLS + 1);
  b.live = d + 3 * (CALLS + 1);
  b.heap = d + 4 * (CALLS + 1);
  b.js = d + 5 * (CALLS + 1);

  unsigned time_fa = 0, mem_fa = 0, any_fa = 0, undecided = 0;
  unsigned note_runs[WS_NOTE_SAWTOOTH + 1] = {0};
  for (unsigned i = 0; i < STATIONARY; i++) {
    ws_synth_time t;
    ws_synth_mem m;
    ws_synth_time_defaults(&t, CALLS, SEED_SHIFT + 1000 + i);
    ws_synth_mem_defaults(&m, CALLS, SEED_SHIFT + 5000 + i);
    ws_synth_time_vary(&t, i);
    m.plateau = i % 2;
    unsigned kinds, notes;
    int verdict = analyse(&b, &t, &m, (int)(i % 8), &kinds, &notes);
    for (int k = WS_NOTE_BELOW_FLOOR; k <= WS_NOTE_SAWTOOTH; k++)
      note_runs[k] += (notes >> k) & 1;
    time_fa += (kinds >> WS_KIND_SLOWDOWN) & 1;
    mem_fa += (kinds & ~(1u << WS_KIND_SLOWDOWN)) != 0;
    any_fa += verdict > WS_KIND_STABLE;
    undecided += verdict == WS_KIND_INCONCLUSIVE;
  }

  unsigned drift = 0, growth = 0, frag = 0, leaks[LEAK_SIZES] = {0};
  unsigned tiny_clean = 0, tiny_noted = 0;
  for (unsigned i = 0; i < DETECT; i++) {
    ws_synth_time t;
    ws_synth_mem m;
    unsigned kinds, notes;
    ws_synth_time_defaults(&t, CALLS, SEED_SHIFT + 20000 + i);
    ws_synth_mem_defaults(&m, CALLS, SEED_SHIFT + 30000 + i);
    ws_synth_time_vary(&t, i);
    t.drift = 2 * WS_TIME_THRESHOLD;
    analyse(&b, &t, &m, 0, &kinds, &notes);
    drift += (kinds >> WS_KIND_SLOWDOWN) & 1;

    ws_synth_time_defaults(&t, CALLS, SEED_SHIFT + 40000 + i);
    ws_synth_mem_defaults(&m, CALLS, SEED_SHIFT + 50000 + i);
    for (size_t j = 0; j < LEAK_SIZES; j++) {
      m.leak = leak_bytes[j];
      analyse(&b, &t, &m, WITH_LIVE | (int)(i % 2) * WITH_HEAP, &kinds, &notes);
      leaks[j] += (kinds >> WS_KIND_LEAK) & 1;
    }

    /* The measured clean module: a smooth 400 KiB live heap (realloc churn,
     * a bounded cache) drifting by 55 B per 1 000 calls: sustained, far
     * below the floor. */
    ws_synth_mem_defaults(&m, CALLS, SEED_SHIFT + 70000 + i);
    m.live_base = 400 << 10;
    m.live_sd = 0;
    m.live_noise = 64;
    m.leak = 0.055;
    analyse(&b, &t, &m, WITH_LIVE | (int)(i % 2) * WITH_HEAP, &kinds, &notes);
    tiny_clean += (kinds & ~(1u << WS_KIND_SLOWDOWN)) == 0;
    tiny_noted += (notes >> WS_NOTE_BELOW_FLOOR) & 1;

    ws_synth_mem_defaults(&m, CALLS, SEED_SHIFT + 60000 + i);
    m.frag = 65536.0 / 1500;
    analyse(&b, &t, &m, 0, &kinds, &notes);
    growth += (kinds >> WS_KIND_GROWTH) & 1;
    analyse(&b, &t, &m, WITH_LIVE, &kinds, &notes);
    frag += (kinds >> WS_KIND_FRAGMENTATION) & 1;
  }

  printf("accuracy: false alarms over %d stationary runs: time %.1f %%, memory %.1f %%, "
         "any %.1f %% (target <= 1 %%); inconclusive %.1f %%\n",
         STATIONARY, 100.0 * time_fa / STATIONARY, 100.0 * mem_fa / STATIONARY,
         100.0 * any_fa / STATIONARY, 100.0 * undecided / STATIONARY);
  printf("accuracy: notes on the stationary runs: below-floor %.1f %%, sawtooth %.1f %%, "
         "start-up growth %.1f %% (the generator's start-up ramp)\n",
         100.0 * note_runs[WS_NOTE_BELOW_FLOOR] / STATIONARY,
         100.0 * note_runs[WS_NOTE_SAWTOOTH] / STATIONARY,
         100.0 * note_runs[WS_NOTE_STARTUP_GROWTH] / STATIONARY);
  unsigned leak = leaks[LEAK_SIZES - 1];
  printf("accuracy: detection over %d runs: +20 %% time drift (2x threshold) %.1f %%, 16 "
         "B/call leak "
         "(live bytes) %.1f %%, 1 page/1500 calls growth %.1f %%, as fragmentation with "
         "flat live bytes %.1f %% (target >= 95 %%)\n",
         DETECT, 100.0 * drift / DETECT, 100.0 * leak / DETECT, 100.0 * growth / DETECT,
         100.0 * frag / DETECT);
  double smallest = 0;
  printf("accuracy: leaks detected (live bytes, %d runs each):", DETECT);
  for (size_t j = 0; j < LEAK_SIZES; j++) {
    printf(" %g B/call %.1f %%%s", leak_bytes[j], 100.0 * leaks[j] / DETECT,
           j + 1 < LEAK_SIZES ? "," : "");
    if (smallest == 0 && 100 * leaks[j] >= 95 * DETECT)
      smallest = leak_bytes[j];
  }
  printf("; smallest detected in >= 95 %% of runs: %g B/call (target <= %g)\n", smallest,
         leak_bytes[LEAK_SIZES - 1]);
  printf(
      "accuracy: 55 B per 1 000 calls on a 400 KiB live heap, %d runs: no memory finding "
      "%.1f %%, below-floor note %.1f %% (target >= 99 %%)\n",
      DETECT, 100.0 * tiny_clean / DETECT, 100.0 * tiny_noted / DETECT);
  CHECK(100 * time_fa <= STATIONARY);
  CHECK(100 * mem_fa <= STATIONARY);
  CHECK(100 * any_fa <= STATIONARY);
  CHECK(100 * drift >= 95 * DETECT);
  CHECK(100 * leak >= 95 * DETECT);
  CHECK(smallest > 0 && smallest <= leak_bytes[LEAK_SIZES - 1]);
  CHECK(100 * tiny_clean >= 99 * DETECT);
  CHECK(100 * tiny_noted >= 99 * DETECT);
  CHECK(100 * note_runs[WS_NOTE_SAWTOOTH] <= STATIONARY);
  CHECK(100 * growth >= 95 * DETECT);
  CHECK(100 * frag >= 95 * DETECT);
  free(b.elapsed);
  free(d);
  return check_report("accuracy");
}
