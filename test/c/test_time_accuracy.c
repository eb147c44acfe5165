/* Accuracy of the time gate (docs/verdicts.md, "Time drift") on synthetic
 * per-call times (test/c/synth.c: lognormal body, AR(1) noise up to 0.8,
 * Pareto spikes, GC pauses, an early tier-up) at default settings: false
 * slowdowns on clean runs of 20 000 and 100 000 calls, and with
 * WS_ACCURACY_LONG=1 in the environment (`npm run bench`, built with -O2)
 * of 1 000 000 calls too; detection of a drift of twice the threshold at
 * 20 000 calls. Prints the rates and how often a clean run was left
 * inconclusive; fails when a target is missed: false slowdowns <= 1 %,
 * detection >= 95 %. Seeded and deterministic. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "synth.h"
#include "ws_stats.h"

#define MAX_CALLS 1000000

static float *elapsed;

/* Analyses one synthetic run with flat memory; stores whether time was
 * flagged and whether it was left undecided. */
static void judge(const ws_synth_time *t, int *flagged, int *undecided) {
  ws_synth_time_fill(t, elapsed);
  double iter[1] = {0}, bytes[1] = {1 << 20};
  ws_series_in s = {WS_ROLE_LINEAR, 1, iter, bytes, 1, WS_WASM32_MAX_BYTES};
  ws_memtrend_result res;
  ws_verdict v = {.series = &res};
  ws_verdict_opts o;
  ws_verdict_opts_default(&o);
  CHECK(ws_analyze_run(elapsed, t->calls, &s, 1, &o, &v) == 0);
  *flagged = v.time.flagged;
  *undecided = v.time.spans;
}

/* Returns how many of runs synthetic runs of calls calls with a linear drift
 * of drift across the run (seeds from seed) were flagged; stores how many
 * were left undecided in *undecided. */
static unsigned flagged_runs(size_t calls, double drift, unsigned runs, uint64_t seed,
                             unsigned *undecided) {
  unsigned found = 0;
  *undecided = 0;
  for (unsigned i = 0; i < runs; i++) {
    ws_synth_time t;
    ws_synth_time_defaults(&t, calls, seed + 7919 * i);
    ws_synth_time_vary(&t, i);
    t.drift = drift;
    int f, u;
    judge(&t, &f, &u);
    found += f;
    *undecided += u;
  }
  return found;
}

/* False slowdowns over runs clean runs of calls calls. */
static void clean(size_t calls, unsigned runs) {
  unsigned undecided,
      alarms = flagged_runs(calls, 0, runs, 200000 + calls / 1000, &undecided);
  printf("time gate: %7zu calls, %3u clean runs: false slowdowns %.1f %% "
         "(target <= 1 %%) %s, inconclusive %.1f %%\n",
         calls, runs, 100.0 * alarms / runs, 100 * alarms <= runs ? "ok" : "MISSED",
         100.0 * undecided / runs);
  CHECK(100 * alarms <= runs);
}

int main(void) {
  const char *env = getenv("WS_ACCURACY_LONG");
  int long_runs = env != NULL && env[0] == '1';
  elapsed = malloc(MAX_CALLS * sizeof *elapsed);
  if (elapsed == NULL)
    return 1;
  clean(20000, 300);
  clean(100000, long_runs ? 300 : 100);
  if (long_runs)
    clean(1000000, 200);
  unsigned undecided,
      found = flagged_runs(20000, 2 * WS_TIME_THRESHOLD, 200, 300000, &undecided);
  printf("time gate:   20000 calls, 200 runs with a +20 %% drift (twice the threshold): "
         "detected %.1f %% (target >= 95 %%) %s, inconclusive %.1f %%\n",
         found / 2.0, found >= 190 ? "ok" : "MISSED", undecided / 2.0);
  CHECK(found >= 190);
  /* For the record: a drift of exactly the threshold is rarely shown, since
   * its interval's low end sits below its estimate, the threshold, in about
   * 99 % of runs; no target. */
  found = flagged_runs(20000, WS_TIME_THRESHOLD, 100, 400000, &undecided);
  printf(
      "time gate:   20000 calls, 100 runs with a +10 %% drift (the threshold): detected "
      "%u %%, inconclusive %u %% (no target)\n",
      found, undecided);
  free(elapsed);
  return check_report("time gate");
}
