/* Tests ws__bracketed_ranks (addon/core/stats/ws_brackets.c) against a
 * sorted reference: exact order statistics of a few ranks of many values of
 * every shape (synth.h's: whole ns on a few values, fractional, wide, all
 * one value, at most one, signed with NaN and infinities), found in one pass or handed
 * back (0) when the ranks need more brackets than a pass takes; ws__order_stats gives the
 * same values either way. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "synth.h"
#include "ws_internal.h"
#include "ws_rng.h"

static int cmp_key(const void *pa, const void *pb) {
  uint32_t a = ws__float_key(*(const float *)pa), b = ws__float_key(*(const float *)pb);
  return (a > b) - (a < b);
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
  for (int shape = 0; shape < WS_SHAPES; shape++) {
    ws_synth_shape_fill(x, N, shape, &rng);
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
    CHECK(shape == WS_SHAPE_FRACTIONAL  ? got == 0
          : shape == WS_SHAPE_ONE_VALUE ? got == 1
                                        : got >= 0);
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
