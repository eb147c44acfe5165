/* Tests ws_quantiles_f32 against a sorted reference (type 7 quantiles), and
 * ws_window_stats' rows of all calls and of each op. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "ws_protocol.h"
#include "ws_stats.h"

static int cmp_float(const void *pa, const void *pb) {
  float a = *(const float *)pa, b = *(const float *)pb;
  return (a > b) - (a < b);
}

/* Type 7 quantile of an already sorted array. */
static double ref_quantile(const float *s, size_t n, double p) {
  double h = (double)(n - 1) * p;
  size_t r = (size_t)floor(h);
  if (r + 1 >= n)
    return s[n - 1];
  return s[r] + (h - (double)r) * (s[r + 1] - s[r]);
}

/* A window of one op only: its row is the row of all calls (copied, not
 * selected again); with a second op present, each op's row has its own. */
static void test_window_stats(void) {
  enum { N = 1001, F = WS_WINDOW_STAT_FIELDS };
  float y[N];
  uint16_t op[N] = {0};
  for (size_t i = 0; i < N; i++)
    y[i] = (float)((i * 37) % N);
  double out[3 * F];
  CHECK(ws_window_stats(y, op, 1, N, 2, out) == 0);
  for (size_t f = 0; f < F; f++)
    CHECK(out[F + f] == out[f]);
  CHECK(out[WS_WSTAT_N] == N - 1 && out[WS_WSTAT_MEDIAN] == 500.5);
  CHECK(out[2 * F + WS_WSTAT_N] == 0 && isnan(out[2 * F + WS_WSTAT_MEDIAN]));
  for (size_t i = 0; i < N; i++)
    op[i] = y[i] >= 500 ? 1 : 0;
  CHECK(ws_window_stats(y, op, 0, N, 2, out) == 0);
  CHECK(out[F + WS_WSTAT_N] == 500 && out[F + WS_WSTAT_MEDIAN] == 249.5);
  CHECK(out[2 * F + WS_WSTAT_N] == 501 && out[2 * F + WS_WSTAT_MEDIAN] == 750);
  CHECK(out[WS_WSTAT_MEDIAN] == 500);
}

/* Probabilities in any order, repeated: each quantile is the one a call
 * asking for it alone gets (each rank is selected among the values from the
 * last one's on, in ascending order), exactly. */
static void test_any_order(void) {
  enum { N = 20011 };
  const double probs[] = {0.99, 0.5, 0.9, 0.5, 0.0, 1.0, 0.123};
  const size_t k = sizeof probs / sizeof probs[0];
  float *x = malloc(N * sizeof *x);
  ws_rng rng;
  ws_rng_seed(&rng, 11);
  for (size_t i = 0; i < N; i++)
    x[i] = (float)ws_rng_range(&rng, 0, 1000) / 7.0f;
  double out[7], one;
  CHECK(ws_quantiles_f32(x, N, probs, k, out) == 0);
  for (size_t i = 0; i < k; i++) {
    CHECK(ws_quantiles_f32(x, N, &probs[i], 1, &one) == 0);
    CHECK(out[i] == one);
  }
  free(x);
}

int main(void) {
  test_window_stats();
  test_any_order();
  const double probs[] = {0.0, 0.1, 0.25, 0.5, 0.9, 0.99, 1.0};
  const size_t k = sizeof probs / sizeof probs[0];
  ws_rng rng;
  ws_rng_seed(&rng, 7);
  size_t sizes[] = {1, 2, 3, 10, 101, 1000, 4096};
  for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
    size_t n = sizes[t];
    float *x = malloc(n * sizeof *x), *copy = malloc(n * sizeof *x);
    float *sorted = malloc(n * sizeof *x);
    for (size_t i = 0; i < n; i++) {
      /* Many ties on purpose: values from a small range. */
      x[i] = (float)ws_rng_range(&rng, 0, t % 2 ? 5 : 100000);
      copy[i] = x[i];
      sorted[i] = x[i];
    }
    qsort(sorted, n, sizeof *sorted, cmp_float);
    double out[7];
    CHECK(ws_quantiles_f32(x, n, probs, k, out) == 0);
    for (size_t i = 0; i < k; i++)
      CHECK(fabs(out[i] - ref_quantile(sorted, n, probs[i])) <=
            1e-6 * (1 + fabs(out[i])));
    for (size_t i = 0; i < n; i++)
      CHECK(x[i] == copy[i]);
    free(x);
    free(copy);
    free(sorted);
  }
  /* Sorted and reversed inputs keep selection fast and exact. */
  size_t n = 100000;
  float *x = malloc(n * sizeof *x);
  for (size_t i = 0; i < n; i++)
    x[i] = (float)(n - i);
  double med;
  double half = 0.5;
  CHECK(ws_quantiles_f32(x, n, &half, 1, &med) == 0);
  CHECK(fabs(med - 50000.5) < 1e-9);
  double bad = 1.5;
  CHECK(ws_quantiles_f32(x, n, &bad, 1, &med) == WS_EINVAL);
  CHECK(ws_quantiles_f32(x, 0, &half, 1, &med) == WS_EINVAL);
  free(x);
  return check_report("quantile");
}
