/* Moving-block bootstrap of the early-vs-late window change (ws_bootstrap.c)
 * and its use in ws_drift_analyze: argument checks, determinism for a fixed
 * seed, and the coverage of the 95 % interval on seeded synthetic series
 * (test/c/synth.c noise: lognormal body, AR(1) log noise, spikes, GC pauses),
 * stationary and with a known +10 % step. Prints the measured coverage. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "synth.h"
#include "ws_stats.h"

#define CALLS 6000
#define SERIES 300
#ifndef SEED_SHIFT
#define SEED_SHIFT 0
#endif

/* Checks the argument contract and the trivial cases. */
static void test_contract(void) {
  double a[12], b[12];
  for (int i = 0; i < 12; i++) {
    a[i] = 1.0;
    b[i] = 1.0 + log(1.25);
  }
  ws_window_change w;
  CHECK(ws_bootstrap_change(a, 3, b, 12, 1000, 0.95, 1, &w) == WS_EINVAL);
  CHECK(ws_bootstrap_change(a, 12, b, 3, 1000, 0.95, 1, &w) == WS_EINVAL);
  CHECK(ws_bootstrap_change(a, 12, b, 12, 1, 0.95, 1, &w) == WS_EINVAL);
  CHECK(ws_bootstrap_change(a, 12, b, 12, 1000, 1.0, 1, &w) == WS_EINVAL);
  CHECK(ws_bootstrap_change(a, 12, b, 12, 1000, NAN, 1, &w) == WS_EINVAL);
  /* Constant windows: the change is exact and the interval has no width. */
  CHECK(ws_bootstrap_change(a, 12, b, 12, 1000, 0.95, 1, &w) == 0);
  CHECK(fabs(w.change - 0.25) < 1e-12);
  CHECK(fabs(w.low - 0.25) < 1e-12 && fabs(w.high - 0.25) < 1e-12);
  CHECK(w.replicates == 1000);
  /* Blocks of ceil(m^(1/3)) values. */
  CHECK(w.block == 3);
  CHECK(ws_bootstrap_change(a, 8, b, 8, 100, 0.95, 1, &w) == 0 && w.block == 2);
  CHECK(ws_bootstrap_change(a, 4, b, 4, 100, 0.95, 1, &w) == 0 && w.block == 2);
  double c[28] = {0};
  CHECK(ws_bootstrap_change(c, 27, c, 27, 100, 0.95, 1, &w) == 0 && w.block == 3);
  CHECK(ws_bootstrap_change(c, 28, c, 28, 100, 0.95, 1, &w) == 0 && w.block == 4);
}

/* The same seed gives the same interval; another seed another one. */
static void test_determinism(void) {
  double a[12], b[12];
  ws_rng rng;
  ws_rng_seed(&rng, 99);
  for (int i = 0; i < 12; i++) {
    a[i] = (double)(ws_rng_next(&rng) >> 11) / 9007199254740992.0;
    b[i] = (double)(ws_rng_next(&rng) >> 11) / 9007199254740992.0;
  }
  ws_window_change w1, w2, w3;
  CHECK(ws_bootstrap_change(a, 12, b, 12, 2000, 0.95, 42, &w1) == 0);
  CHECK(ws_bootstrap_change(a, 12, b, 12, 2000, 0.95, 42, &w2) == 0);
  CHECK(ws_bootstrap_change(a, 12, b, 12, 2000, 0.95, 43, &w3) == 0);
  CHECK(memcmp(&w1, &w2, sizeof w1) == 0);
  CHECK(w1.low != w3.low || w1.high != w3.high);
  CHECK(w1.change == w3.change);
  CHECK(w1.low < w1.change && w1.change < w1.high);
}

/* Fills out[0..CALLS) with synthetic per-call times for series i (no
 * tier-up, no ramp; the noise model varies with i like the accuracy test's)
 * and multiplies the second half by step; stepped series draw other seeds. */
static void synth(float *out, unsigned i, double step) {
  unsigned seed = SEED_SHIFT + 70000 + i + (step != 1 ? SERIES : 0);
  static const double sigma[] = {0.1, 0.2, 0.3};
  static const double ar[] = {0.0, 0.5, 0.8};
  static const size_t gc[] = {0, 300, 1000};
  ws_synth_time t;
  ws_synth_time_defaults(&t, CALLS, seed);
  t.sigma = sigma[i % 3];
  t.ar = ar[(i / 3) % 3];
  t.gc_every = gc[(i / 9) % 3];
  t.tierup_at = 0;
  ws_synth_time_fill(&t, out);
  for (size_t k = CALLS / 2; k < CALLS; k++)
    out[k] = (float)(out[k] * step);
}

/* Returns how many of SERIES synthetic series with a step of true relative
 * size truth have truth inside the drift's window interval, and adds the
 * intervals' widths to *width. */
static unsigned coverage(float *x, double truth, double *width) {
  unsigned covered = 0;
  for (unsigned i = 0; i < SERIES; i++) {
    synth(x, i, 1 + truth);
    ws_drift_opts o = {0.10, 0.01, SEED_SHIFT + i};
    ws_drift_result r;
    CHECK(ws_drift_analyze(x, CALLS, 0, &o, NULL, &r) == 0 && r.tested);
    covered += r.windows_low <= truth && truth <= r.windows_high;
    *width += r.windows_high - r.windows_low;
  }
  return covered;
}

/* ws_drift_analyze reports the windows, and its interval is reproducible. */
static void test_drift_windows(float *x) {
  synth(x, 5, 1.10);
  ws_drift_opts o = {0.10, 0.01, 7};
  ws_drift_result r1, r2;
  CHECK(ws_drift_analyze(x, CALLS, 0, &o, NULL, &r1) == 0 && r1.tested);
  CHECK(ws_drift_analyze(x, CALLS, 0, &o, NULL, &r2) == 0);
  CHECK(memcmp(&r1, &r2, sizeof r1) == 0);
  CHECK(r1.batches == 60 && r1.window_batches == 12 && r1.windows_block == 3);
  CHECK(r1.early_to == 1200 && r1.late_from == 4800);
  CHECK(fabs(r1.late_ns / r1.early_ns - 1 - r1.windows_change) < 1e-9);
  CHECK(r1.windows_low < r1.windows_change && r1.windows_change < r1.windows_high);
  /* Too few batches per window for an interval: NaN bounds, a change still. */
  CHECK(ws_drift_analyze(x, 150, 0, &o, NULL, &r1) == 0 && r1.tested);
  CHECK(r1.window_batches == 3 && r1.windows_block == 0);
  CHECK(isnan(r1.windows_low) && isnan(r1.windows_high) && isfinite(r1.windows_change));
}

/* The paired bootstrap: the contract, an exact constant ratio, and the
 * coverage of its 95 % interval for 8 pairs of lognormal block medians with
 * a known +20 % ratio (seeded; prints the measured coverage). */
static void test_paired(void) {
  double d[8];
  ws_window_change w;
  for (int i = 0; i < 8; i++)
    d[i] = log(1.2);
  CHECK(ws_bootstrap_paired(d, 3, 1000, 0.95, 1, &w) == WS_EINVAL);
  CHECK(ws_bootstrap_paired(d, 8, 1, 0.95, 1, &w) == WS_EINVAL);
  CHECK(ws_bootstrap_paired(d, 8, 1000, 0.0, 1, &w) == WS_EINVAL);
  CHECK(ws_bootstrap_paired(d, 8, 1000, 0.95, 1, &w) == 0);
  CHECK(fabs(w.change - 0.2) < 1e-12 && fabs(w.low - 0.2) < 1e-12 &&
        fabs(w.high - 0.2) < 1e-12);
  CHECK(w.block == 2 && w.replicates == 1000);
  d[3] = NAN;
  CHECK(ws_bootstrap_paired(d, 8, 1000, 0.95, 1, &w) == WS_EINVAL);
  ws_rng rng;
  ws_rng_seed(&rng, 2024);
  int covered = 0, trials = 400;
  for (int t = 0; t < trials; t++) {
    for (int i = 0; i < 8; i++) {
      /* Box-Muller: a normal log difference of sd 0.05 around log(1.2). */
      double u1 = ((double)(ws_rng_next(&rng) >> 11) + 1) / 9007199254740993.0;
      double u2 = (double)(ws_rng_next(&rng) >> 11) / 9007199254740992.0;
      d[i] = log(1.2) + 0.05 * sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2);
    }
    CHECK(ws_bootstrap_paired(d, 8, 2000, 0.95, (uint64_t)t, &w) == 0);
    CHECK(w.low <= w.change && w.change <= w.high);
    covered += w.low <= 0.2 && 0.2 <= w.high;
  }
  printf("paired bootstrap: 95 %% interval covered +20 %% in %d of %d\n", covered,
         trials);
  CHECK(covered >= trials * 88 / 100);
}

int main(void) {
  float *x = malloc(CALLS * sizeof *x);
  if (x == NULL)
    return 1;
  test_contract();
  test_determinism();
  test_paired();
  test_drift_windows(x);
  double w0 = 0, w10 = 0;
  unsigned c0 = coverage(x, 0.0, &w0), c10 = coverage(x, 0.10, &w10);
  printf("bootstrap: 95 %% window-change interval covers the truth in %.1f %% of %d "
         "stationary series (mean width %.1f %%) and %.1f %% of %d series with a +10 %% "
         "step (mean width %.1f %%); target >= 90 %%\n",
         100.0 * c0 / SERIES, SERIES, 100 * w0 / SERIES, 100.0 * c10 / SERIES, SERIES,
         100 * w10 / SERIES);
  CHECK(100 * c0 >= 90 * SERIES);
  CHECK(100 * c10 >= 90 * SERIES);
  free(x);
  return check_report("bootstrap");
}
