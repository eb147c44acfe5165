/* Tests for the plotting decimation (addon/core/plot/ws_decimate.c): envelopes keep
 * spikes, rolling quantiles match a sorted reference, quantiles of odd
 * inputs, per-op windows and argument errors. */
#include "check.h"
#include "ws_decimate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_float(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

/* Nearest-rank quantile of a sorted copy, the reference for the fast paths. */
static double ref_quantile(const float *y, size_t n, double p) {
  float *c = malloc(n * sizeof *c);
  memcpy(c, y, n * sizeof *c);
  qsort(c, n, sizeof *c, cmp_float);
  double q = c[(size_t)floor(p * (double)(n - 1) + 0.5)];
  free(c);
  return q;
}

/* A deterministic pseudo-random value in [0, 1). */
static double next_unit(uint32_t *s) {
  *s = *s * 1664525u + 1013904223u;
  return (double)(*s >> 8) / 16777216.0;
}

static void test_bands_keep_spikes(void) {
  enum { N = 100000, B = 100 };
  float *y = malloc(N * sizeof *y);
  uint32_t s = 7;
  for (size_t i = 0; i < N; i++)
    y[i] = (float)(800 + 100 * next_unit(&s));
  y[54321] = 1e6f;
  double *out = malloc(B * WS_BAND_FIELDS * sizeof *out);
  CHECK(ws_decimate_bands(y, N, B, 2000, out) == 0);
  int found = 0;
  for (size_t b = 0; b < B; b++) {
    const double *o = out + b * WS_BAND_FIELDS;
    CHECK(o[WS_BAND_MIN] <= o[WS_BAND_P10]);
    CHECK(o[WS_BAND_P10] <= o[WS_BAND_MEDIAN]);
    CHECK(o[WS_BAND_MEDIAN] <= o[WS_BAND_P90]);
    CHECK(o[WS_BAND_FIRST] == (double)(b * (N / B)));
    CHECK(o[WS_BAND_LAST] == (double)((b + 1) * (N / B) - 1));
    if (o[WS_BAND_MAX] == 1e6) {
      found++;
      CHECK(o[WS_BAND_IMAX] == 54321);
    }
  }
  CHECK(found == 1);
  /* The rolling window of bucket 50 is centred on its middle, 2000 wide. */
  const double *mid = out + 50 * WS_BAND_FIELDS;
  size_t start = 50 * (N / B) + (N / B) / 2 - 1000;
  CHECK(mid[WS_BAND_MEDIAN] == ref_quantile(y + start, 2000, 0.5));
  CHECK(mid[WS_BAND_P10] == ref_quantile(y + start, 2000, 0.1));
  CHECK(mid[WS_BAND_P90] == ref_quantile(y + start, 2000, 0.9));
  /* The first bucket's window is shifted to start at 0. */
  CHECK(out[WS_BAND_MEDIAN] == ref_quantile(y, 2000, 0.5));
  free(out);
  free(y);
}

/* Every bucket's p10, median and p90 match the sorted reference of its
 * window, on a series whose stretches crowd into one bin of the selection,
 * spread over many, repeat a few values, or hold infinities. */
static void test_bands_every_bucket(void) {
  enum { N = 24000, B = 40, W = 900 };
  float *y = malloc(N * sizeof *y);
  uint32_t s = 5;
  for (size_t i = 0; i < N; i++) {
    double u = next_unit(&s);
    int part = (int)(i / (N / 4));
    y[i] = part == 0   ? (float)(64 + u / 8)
           : part == 1 ? (float)(u * u * 1e7 - 5)
           : part == 2 ? (float)(60 + (int)(u * 4))
                       : (u < 0.15 ? INFINITY : (float)u);
  }
  double *out = malloc(B * WS_BAND_FIELDS * sizeof *out);
  CHECK(ws_decimate_bands(y, N, B, W, out) == 0);
  int same = 1;
  for (size_t b = 0; b < B; b++) {
    const double *o = out + b * WS_BAND_FIELDS;
    size_t centre = b * (N / B) + (N / B) / 2;
    size_t start = centre < W / 2 ? 0 : centre + W - W / 2 > N ? N - W : centre - W / 2;
    same &= o[WS_BAND_P10] == ref_quantile(y + start, W, 0.1) &&
            o[WS_BAND_MEDIAN] == ref_quantile(y + start, W, 0.5) &&
            o[WS_BAND_P90] == ref_quantile(y + start, W, 0.9);
  }
  CHECK(same);
  free(out);
  free(y);
}

static void test_bands_small_and_uneven(void) {
  float y[7] = {5, 1, 4, 2, 3, NAN, 0};
  double out[3 * WS_BAND_FIELDS];
  CHECK(ws_decimate_bands(y, 7, 3, 1, out) == 0);
  /* Buckets [0,2), [2,4), [4,7): the window widens to the widest bucket (3). */
  CHECK(out[WS_BAND_MIN] == 1 && out[WS_BAND_MAX] == 5 && out[WS_BAND_IMAX] == 0);
  CHECK(out[2 * WS_BAND_FIELDS + WS_BAND_FIRST] == 4);
  CHECK(out[2 * WS_BAND_FIELDS + WS_BAND_LAST] == 6);
  CHECK(isinf(out[2 * WS_BAND_FIELDS + WS_BAND_MAX]));
  CHECK(out[2 * WS_BAND_FIELDS + WS_BAND_MIN] == 0);
  /* Constant input: every quantile is the constant. */
  float c[1000];
  for (size_t i = 0; i < 1000; i++)
    c[i] = 3;
  double oc[10 * WS_BAND_FIELDS];
  CHECK(ws_decimate_bands(c, 1000, 10, 50, oc) == 0);
  CHECK(oc[9 * WS_BAND_FIELDS + WS_BAND_P10] == 3 &&
        oc[9 * WS_BAND_FIELDS + WS_BAND_P90] == 3);
}

static void test_quantiles(void) {
  enum { N = 50001 };
  float *y = malloc(N * sizeof *y);
  uint32_t s = 3;
  for (size_t i = 0; i < N; i++)
    y[i] = (float)((next_unit(&s) - 0.3) * 1e4);
  y[10] = -0.0f;
  y[11] = INFINITY;
  double p[5] = {0, 0.01, 0.5, 0.99, 1}, q[5];
  CHECK(ws_quantiles(y, N, p, 5, q) == 0);
  for (size_t i = 0; i < 4; i++)
    CHECK(q[i] == ref_quantile(y, N, p[i]));
  CHECK(isinf(q[4]));
  float one = 42;
  CHECK(ws_quantiles(&one, 1, p, 5, q) == 0);
  CHECK(q[0] == 42 && q[4] == 42);
  double bad = 1.5;
  CHECK(ws_quantiles(&one, 1, &bad, 1, q) == WS_EINVAL);
  free(y);
}

/* Every quantile of a dense list of p matches the sorted reference, on
 * values crowded into one bin of the selection's high half (more values than
 * a bin sorts: resolved by the low half's histogram), values spread over many
 * small bins, and repeated values with NaN among them. */
static void test_quantiles_many(void) {
  enum { N = 30011, NP = 404 };
  float *y = malloc(N * sizeof *y), *c = malloc(N * sizeof *c);
  double p[NP], q[NP];
  for (size_t i = 0; i < NP; i++)
    p[i] = (double)((i * 7919) % NP) / (NP - 1); /* every rank, out of order */
  uint32_t s = 11;
  for (int shape = 0; shape < 3; shape++) {
    for (size_t i = 0; i < N; i++) {
      double u = next_unit(&s);
      y[i] = shape == 0   ? (float)(64 + u / 4)
             : shape == 1 ? (float)(u * u * 1e6 - 10)
                          : (float)(60 + (int)(u * 9));
    }
    if (shape == 2)
      y[5] = NAN;
    CHECK(ws_quantiles(y, N, p, NP, q) == 0);
    for (size_t i = 0; i < N; i++)
      c[i] = isnan(y[i]) ? INFINITY : y[i];
    qsort(c, N, sizeof *c, cmp_float);
    int same = 1;
    for (size_t i = 0; i < NP; i++)
      same &= q[i] == c[(size_t)floor(p[i] * (double)(N - 1) + 0.5)];
    CHECK(same);
  }
  free(y);
  free(c);
}

static void test_ops(void) {
  enum { N = 9000, W = 3, K = 3 };
  float *y = malloc(N * sizeof *y);
  uint16_t *op = malloc(N * sizeof *op);
  for (size_t i = 0; i < N; i++) {
    op[i] = (uint16_t)(i % 2); /* op 2 never runs */
    y[i] = op[i] == 0 ? (float)(100 + i % 7) : (float)(1000 + (i / 3000) * 500);
  }
  op[4] = 9; /* out of range: skipped */
  double out[W * K * WS_OPS_FIELDS];
  CHECK(ws_decimate_ops(y, op, N, K, W, out) == 0);
  CHECK(out[(0 * K + 0) * WS_OPS_FIELDS + WS_OPS_COUNT] == 1499);
  CHECK(out[(0 * K + 1) * WS_OPS_FIELDS + WS_OPS_COUNT] == 1500);
  CHECK(out[(0 * K + 1) * WS_OPS_FIELDS + WS_OPS_MEDIAN] == 1000);
  CHECK(out[(2 * K + 1) * WS_OPS_FIELDS + WS_OPS_MEDIAN] == 2000);
  CHECK(out[(1 * K + 0) * WS_OPS_FIELDS + WS_OPS_MEDIAN] == 103);
  CHECK(out[(1 * K + 0) * WS_OPS_FIELDS + WS_OPS_P90] == 106);
  CHECK(out[(1 * K + 2) * WS_OPS_FIELDS + WS_OPS_COUNT] == 0);
  CHECK(isnan(out[(1 * K + 2) * WS_OPS_FIELDS + WS_OPS_MEDIAN]));
  free(y);
  free(op);
}

static void test_invalid(void) {
  float y[4] = {1, 2, 3, 4};
  uint16_t op[4] = {0};
  double out[64];
  CHECK(ws_decimate_bands(y, 4, 5, 1, out) == WS_EINVAL);
  CHECK(ws_decimate_bands(y, 0, 1, 1, out) == WS_EINVAL);
  CHECK(ws_decimate_bands(NULL, 4, 1, 1, out) == WS_EINVAL);
  CHECK(ws_decimate_ops(y, op, 4, 0, 1, out) == WS_EINVAL);
  CHECK(ws_decimate_ops(y, op, 4, 1, 5, out) == WS_EINVAL);
  CHECK(ws_quantiles(y, 0, (double[]){0.5}, 1, out) == WS_EINVAL);
}

int main(void) {
  test_bands_keep_spikes();
  test_bands_every_bucket();
  test_bands_small_and_uneven();
  test_quantiles();
  test_quantiles_many();
  test_ops();
  test_invalid();
  return check_report("decimate");
}
