/* Tests ws__bracketed_ranks (addon/core/stats/ws_brackets.c) against a
 * sorted reference: exact order statistics of a few ranks of many values of
 * every shape (whole ns on a few values, fractional, wide, all one value,
 * negative, NaN and infinities), found in one pass or handed back (0) when
 * the ranks need more brackets than a pass takes; ws__order_stats gives the
 * same values either way. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "ws_internal.h"
#include "ws_rng.h"

static int cmp_key(const void *pa, const void *pb) {
  uint32_t a = ws__float_key(*(const float *)pa), b = ws__float_key(*(const float *)pb);
  return (a > b) - (a < b);
}

/* x[0..n) of shape `shape`: 0 whole ns on a few values with rare outliers,
 * 1 fractional, 2 wide, 3 one value, 4 signed with NaN and infinities. */
static void fill(float *x, size_t n, int shape, ws_rng *rng) {
  for (size_t i = 0; i < n; i++) {
    uint64_t r = ws_rng_range(rng, 0, 999);
    switch (shape) {
    case 0:
      x[i] = r < 990 ? (float)(11 + r % 6) : (float)ws_rng_range(rng, 20, 1000000);
      break;
    case 1:
      x[i] = 5000.0f + (float)ws_rng_range(rng, 0, 1000000) / 997.0f;
      break;
    case 2:
      x[i] = (float)ws_rng_range(rng, 1, 1000000) * (float)(1 + r % 7);
      break;
    case 3:
      x[i] = 42.0f;
      break;
    default:
      x[i] = r == 0   ? NAN
             : r == 1 ? INFINITY
             : r == 2 ? -INFINITY
                      : (float)ws_rng_range(rng, 0, 2000) - 1000.5f;
    }
  }
}

/* Whether a and b are the same value (NaN as +infinity). */
static int same(float a, float b) {
  return ws__float_key(a) == ws__float_key(b);
}

static void test_shapes(void) {
  enum { N = 300007 };
  float *x = malloc(N * sizeof *x), *sorted = malloc(N * sizeof *sorted);
  ws_rng rng;
  ws_rng_seed(&rng, 5);
  const size_t ranks[] = {0, 1, N / 100, N / 100 + 1, N / 2, N / 2 + 1, N - 1};
  for (int shape = 0; shape < 5; shape++) {
    fill(x, N, shape, &rng);
    for (size_t i = 0; i < N; i++)
      sorted[i] = x[i];
    qsort(sorted, N, sizeof *sorted, cmp_key);
    /* Two ranks at a time (a bracket each, or one shared): found in one pass. */
    for (size_t k = 0; k + 1 < sizeof ranks / sizeof ranks[0]; k++) {
      float out[2];
      CHECK(ws__bracketed_ranks(x, N, ranks + k, 2, out) == 1);
      CHECK(same(out[0], sorted[ranks[k]]) && same(out[1], sorted[ranks[k + 1]]));
    }
    /* All seven: of fractional values, more brackets than a pass takes,
     * handed back; of one value, one bracket. The histograms (or a pass)
     * find the same values. */
    float out[7];
    size_t np = sizeof ranks / sizeof ranks[0];
    int got = ws__bracketed_ranks(x, N, ranks, np, out);
    CHECK(shape == 1 ? got == 0 : shape == 3 ? got == 1 : got >= 0);
    for (size_t k = 0; got == 1 && k < np; k++)
      CHECK(same(out[k], sorted[ranks[k]]));
    CHECK(ws__order_stats(x, N, ranks, np, out) == 0);
    for (size_t k = 0; k < np; k++)
      CHECK(same(out[k], sorted[ranks[k]]));
  }
  free(x);
  free(sorted);
}

/* Too few values to bracket: handed back. */
static void test_short(void) {
  float x[100];
  for (int i = 0; i < 100; i++)
    x[i] = (float)i;
  size_t r = 50;
  float out;
  CHECK(ws__bracketed_ranks(x, 100, &r, 1, &out) == 0);
}

int main(void) {
  test_shapes();
  test_short();
  return check_report("brackets");
}
