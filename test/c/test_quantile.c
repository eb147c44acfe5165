/* Tests ws_quantiles_f32 against a sorted reference (type 7 quantiles). */
#include <math.h>
#include <stdlib.h>

#include "check.h"
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

int main(void) {
  const double probs[] = {0.0, 0.1, 0.25, 0.5, 0.9, 0.99, 1.0};
  const size_t k = sizeof probs / sizeof probs[0];
  ws_rng rng;
  ws_rng_seed(&rng, 7);
  size_t sizes[] = {1, 2, 3, 10, 101, 1000, 4096};
  for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
    size_t n = sizes[t];
    float *x = malloc(n * sizeof *x), *copy = malloc(n * sizeof *x);
    float *sorted = malloc(n * sizeof *x), *scratch = malloc(n * sizeof *x);
    for (size_t i = 0; i < n; i++) {
      /* Many ties on purpose: values from a small range. */
      x[i] = (float)ws_rng_range(&rng, 0, t % 2 ? 5 : 100000);
      copy[i] = x[i];
      sorted[i] = x[i];
    }
    qsort(sorted, n, sizeof *sorted, cmp_float);
    double out[7];
    CHECK(ws_quantiles_f32(x, n, probs, k, out, scratch) == 0);
    for (size_t i = 0; i < k; i++)
      CHECK(fabs(out[i] - ref_quantile(sorted, n, probs[i])) <=
            1e-6 * (1 + fabs(out[i])));
    for (size_t i = 0; i < n; i++)
      CHECK(x[i] == copy[i]);
    free(x);
    free(copy);
    free(sorted);
    free(scratch);
  }
  /* Sorted and reversed inputs keep selection fast and exact. */
  size_t n = 100000;
  float *x = malloc(n * sizeof *x), *scratch = malloc(n * sizeof *x);
  for (size_t i = 0; i < n; i++)
    x[i] = (float)(n - i);
  double med;
  double half = 0.5;
  CHECK(ws_quantiles_f32(x, n, &half, 1, &med, scratch) == 0);
  CHECK(fabs(med - 50000.5) < 1e-9);
  double bad = 1.5;
  CHECK(ws_quantiles_f32(x, n, &bad, 1, &med, scratch) == WS_EINVAL);
  CHECK(ws_quantiles_f32(x, 0, &half, 1, &med, scratch) == WS_EINVAL);
  free(x);
  free(scratch);
  return check_report("quantile");
}
