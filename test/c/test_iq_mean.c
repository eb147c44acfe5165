/* Tests ws__iq_log_mean (addon/core/stats/ws_iq_mean.c) against a sorted
 * reference: the mean of ln over the ranks n/4 .. n - n/4 - 1, on times of
 * every shape the drift meets (synth.h's shapes but the signed one, and
 * tiny batches), and that its tables are zero again
 * after each batch (they are reused). */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "synth.h"
#include "ws_internal.h"
#include "ws_rng.h"

static int cmp_float(const void *pa, const void *pb) {
  float a = *(const float *)pa, b = *(const float *)pb;
  return (a > b) - (a < b);
}

/* The interquartile log mean of x[0..n) by sorting a copy, summed in long
 * double (a double sum of 80 000 terms drifts by 1e-12). */
static double reference(const float *x, size_t n) {
  float *s = malloc(n * sizeof *s);
  for (size_t i = 0; i < n; i++)
    s[i] = x[i];
  qsort(s, n, sizeof *s, cmp_float);
  size_t k1 = n / 4, k2 = n - n / 4 - 1;
  long double sum = 0;
  for (size_t i = k1; i <= k2; i++)
    sum += s[i] > 1.0f ? log((double)s[i]) : 0.0;
  free(s);
  return (double)(sum / (long double)(k2 - k1 + 1));
}

/* Whether every count of w is zero. */
static int tables_zero(const ws_iq_work *w) {
  for (size_t i = 0; i < WS_KEY_LANES * (size_t)WS_HALF_BINS; i++)
    if (w->high[i] != 0)
      return 0;
  for (size_t i = 0; i < 2 * (size_t)WS_HALF_BINS; i++)
    if (w->low[i] != 0)
      return 0;
  return 1;
}

static void test_shapes(void) {
  ws_iq_work w;
  CHECK(ws__iq_work_init(&w) == 0);
  ws_rng rng;
  ws_rng_seed(&rng, 7);
  const size_t sizes[] = {4, 5, 7, 9, 100, 4099, 166667};
  float *x = malloc(166667 * sizeof *x);
  for (int shape = 0; shape < WS_SHAPE_SIGNED; shape++)
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      size_t n = sizes[s];
      ws_synth_shape_fill(x, n, shape, &rng);
      double got = ws__iq_log_mean(x, n, &w), want = reference(x, n);
      CHECK(fabs(got - want) <= 1e-12 * (fabs(want) > 1 ? fabs(want) : 1));
      CHECK(tables_zero(&w));
    }
  free(x);
  ws__iq_work_free(&w);
}

/* The logarithm cache returns log()'s own value, whole times or not. */
static void test_log_time(void) {
  double cache[WS_LOG_CACHE] = {0};
  const float v[] = {2.0f, 12.0f, 4095.0f, 4096.0f, 12.5f, 1.0f, 0.5f, -3.0f};
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
    for (int twice = 0; twice < 2; twice++)
      CHECK(ws__log_time(v[i], cache) == (v[i] > 1.0f ? log((double)v[i]) : 0.0));
  CHECK(ws__log_time(NAN, cache) == 0.0);
}

int main(void) {
  test_shapes();
  test_log_time();
  return check_report("iq_mean");
}
