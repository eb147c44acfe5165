/* Accuracy of the growth-event rules (docs/verdicts.md, "Growth events") on
 * synthetic linear memory under realistic growth policies (test/c/synth.c:
 * 64 KiB pages, 20 % geometric steps, doubling, 32 MiB segments), judged on
 * linear memory alone as for a module whose allocator nothing recognises.
 * Seeded and deterministic; run by `make -s -f test/c/Makefile check`.
 * Prints, per policy, the false-alarm and inconclusive rates on stationary
 * workloads (a late plateau step in half of them) and the detection rate of
 * staircase and doubling leaks; fails when a target is missed: false alarms
 * <= 1 %, detection (a growth finding) >= 95 %, and a leak never `stable`. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "synth.h"
#include "ws_stats.h"

#define CALLS 20000
#define STATIONARY 250
#define DETECT 100
#ifndef SEED_SHIFT
#define SEED_SHIFT 0
#endif

static float *elapsed;
static double *lin_iter, *lin_bytes, *s_iter, *live, *heap, *js;

/* A workload: a growth policy with a working set of its scale. */
typedef struct {
  const char *name;
  int policy;
  double initial, live_base, live_sd;
} workload;

static const workload workloads[] = {
    {"64 KiB pages", WS_SYNTH_PAGES, 131072, 1 << 20, 48 << 10},
    {"64 KiB pages, small heap", WS_SYNTH_PAGES, 65536, 192 << 10, 12 << 10},
    {"20 % geometric", WS_SYNTH_GEOMETRIC, 1 << 20, 40 << 20, 2 << 20},
    {"doubling", WS_SYNTH_DOUBLING, 65536, 1 << 20, 48 << 10},
    {"32 MiB segments", WS_SYNTH_SEGMENTS, 1 << 20, 40 << 20, 2 << 20},
};
#define NWORKLOADS (sizeof workloads / sizeof workloads[0])

/* Runs the whole-run analysis on linear memory alone and returns the
 * verdict; *undecided says whether it is inconclusive. */
static int judge(const ws_synth_mem *m, uint64_t time_seed, int *undecided) {
  ws_synth_time t;
  ws_synth_time_defaults(&t, m->calls, time_seed);
  ws_synth_time_fill(&t, elapsed);
  ws_synth_mem_out out = {lin_iter, lin_bytes, 0, s_iter, live, heap, js, 0};
  ws_synth_mem_fill(m, &out);
  ws_series_in s = {WS_ROLE_LINEAR, 1, out.lin_iter, out.lin_bytes, out.lin_n, 0};
  ws_memtrend_result res;
  ws_verdict v = {.series = &res};
  ws_verdict_opts o;
  ws_verdict_opts_default(&o);
  CHECK(ws_analyze_run(elapsed, m->calls, &s, 1, &o, &v) == 0);
  *undecided = 0;
  for (size_t i = 0; i < v.nundecided; i++)
    *undecided |= v.undecided[i].series >= 0;
  /* Time is not this test's subject: judge memory alone. */
  for (size_t i = 0; i < v.nfindings; i++)
    if (v.findings[i].kind != WS_KIND_SLOWDOWN)
      return v.findings[i].kind;
  return WS_KIND_STABLE;
}

static void model(ws_synth_mem *m, const workload *w, uint64_t seed) {
  ws_synth_mem_defaults(m, CALLS, seed);
  m->policy = w->policy;
  m->initial = w->initial;
  m->live_base = w->live_base;
  m->live_sd = w->live_sd;
}

/* False alarms and inconclusive runs of one stationary workload. */
static void stationary(const workload *w, unsigned wi) {
  unsigned alarms = 0, undecided[2] = {0, 0};
  for (unsigned i = 0; i < STATIONARY; i++) {
    ws_synth_mem m;
    model(&m, w, SEED_SHIFT + 70000 + 1000 * wi + i);
    m.plateau = i % 2;
    int u;
    alarms += judge(&m, SEED_SHIFT + 90000 + i, &u) != WS_KIND_STABLE;
    undecided[i % 2] += u;
  }
  printf("growth events: %-26s stationary: false alarms %.1f %% (target <= 1 %%), "
         "inconclusive %.1f %% without and %.1f %% with a late plateau step (%d runs)\n",
         w->name, 100.0 * alarms / STATIONARY, 200.0 * undecided[0] / STATIONARY,
         200.0 * undecided[1] / STATIONARY, STATIONARY);
  CHECK(100 * alarms <= STATIONARY);
}

/* Detection of a leak of leak bytes per call under workload w: found (a
 * growth finding) in at least target % of the runs, never stable. */
static void leak(const char *what, const workload *w, double leak_bytes, unsigned wi,
                 unsigned target) {
  unsigned found = 0, undecided = 0, stable = 0;
  for (unsigned i = 0; i < DETECT; i++) {
    ws_synth_mem m;
    model(&m, w, SEED_SHIFT + 110000 + 1000 * wi + i);
    m.leak = leak_bytes;
    int u;
    int kind = judge(&m, SEED_SHIFT + 130000 + i, &u);
    found += kind == WS_KIND_GROWTH;
    undecided += kind == WS_KIND_STABLE && u;
    stable += kind == WS_KIND_STABLE && !u;
  }
  printf("growth events: %-40s detected %.1f %%, inconclusive %.1f %%, stable %.1f %% "
         "(%d runs; target >= %u %%, never stable)\n",
         what, 100.0 * found / DETECT, 100.0 * undecided / DETECT,
         100.0 * stable / DETECT, DETECT, target);
  CHECK(100 * found >= target * DETECT);
  CHECK(stable == 0);
}

int main(void) {
  elapsed = malloc(CALLS * sizeof *elapsed);
  double *d = malloc(6 * (CALLS + 1) * sizeof *d);
  if (elapsed == NULL || d == NULL)
    return 1;
  lin_iter = d;
  lin_bytes = d + (CALLS + 1);
  s_iter = d + 2 * (CALLS + 1);
  live = d + 3 * (CALLS + 1);
  heap = d + 4 * (CALLS + 1);
  js = d + 5 * (CALLS + 1);
  for (unsigned w = 0; w < NWORKLOADS; w++)
    stationary(&workloads[w], w);
  /* The staircase seen on a real module: 61 -> 162 MiB in six 20 % steps
   * over 20 000 calls; half that rate leaves three or four steps. */
  leak("staircase, 20 % geometric, 5 KB/call", &workloads[2], 5000, 10, 95);
  leak("staircase, 32 MiB segments, 8 KB/call", &workloads[4], 8000, 12, 95);
  /* Doubling: 1 MiB -> 256 MiB. */
  leak("doubling, 13 KB/call (to 256 MiB)", &workloads[3], 13000, 13, 95);
  /* Slower leaks leave two or three steps, and sometimes only one in the
   * window: inconclusive then, never stable. */
  leak("staircase, 20 % geometric, 2 KB/call", &workloads[2], 2000, 11, 85);
  leak("doubling, 200 B/call (about 4x)", &workloads[3], 200, 14, 85);
  free(elapsed);
  free(d);
  return check_report("growth events");
}
