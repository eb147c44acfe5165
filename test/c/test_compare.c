/* A family of arms compared with the first (ws_compare.c) and Student's t
 * (ws_student.c): the t quantiles against tabulated values, the argument
 * contract, two arms as one paired bootstrap, an interval that excludes no
 * change alone but not in a family of four, the block spread of a known
 * layout, and how often five identical arms (seeded normal noise on a common
 * drift) call an arm different: each interval alone, the family, and the
 * family with the spread floor. Prints the measured rates. */
#include <math.h>
#include <stdio.h>

#include "check.h"
#include "ws_internal.h"
#include "ws_rng.h"
#include "ws_stats.h"

#define ROUNDS 8
#define ARMS 5

/* Returns a standard normal draw (Box-Muller). */
static double normal(ws_rng *rng) {
  double u1 = ((double)(ws_rng_next(rng) >> 11) + 1) / 9007199254740993.0;
  double u2 = (double)(ws_rng_next(rng) >> 11) / 9007199254740992.0;
  return sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2);
}

/* Student's t upper quantiles match tables (to 1e-6). */
static void test_student(void) {
  CHECK(fabs(ws__t_upper_quantile(0.025, 1) - 12.7062047) < 1e-6);
  CHECK(fabs(ws__t_upper_quantile(0.025, 2) - 4.3026527) < 1e-6);
  CHECK(fabs(ws__t_upper_quantile(0.025, 7) - 2.3646243) < 1e-6);
  CHECK(fabs(ws__t_upper_quantile(0.005, 30) - 2.7499957) < 1e-6);
  CHECK(fabs(ws__t_upper_quantile(0.025, 1000) - 1.9623391) < 1e-6);
  CHECK(fabs(ws__t_upper_quantile(0.5, 5)) < 1e-9);
}

/* The contract, and two arms: the family is one paired bootstrap, unwidened. */
static void test_contract(void) {
  double x[ARMS * ROUNDS], d[ROUNDS];
  ws_rng rng;
  ws_rng_seed(&rng, 3);
  for (int i = 0; i < ARMS * ROUNDS; i++)
    x[i] = 7 + 0.01 * normal(&rng);
  ws_window_change out[ARMS - 1], w;
  ws_arm_family fam;
  CHECK(ws_compare_family(x, 1, ROUNDS, 1, 1000, 0.95, 1, out, &fam) == WS_EINVAL);
  CHECK(ws_compare_family(x, 2, 3, 1, 1000, 0.95, 1, out, &fam) == WS_EINVAL);
  CHECK(ws_compare_family(x, 3, ROUNDS, 0, 1000, 0.95, 1, out, &fam) == WS_EINVAL);
  CHECK(ws_compare_family(x, 3, ROUNDS, 3, 1000, 0.95, 1, out, &fam) == WS_EINVAL);
  CHECK(ws_compare_family(x, 3, ROUNDS, 2, 1, 0.95, 1, out, &fam) == WS_EINVAL);
  CHECK(ws_compare_family(x, 3, ROUNDS, 2, 1000, 1.0, 1, out, &fam) == WS_EINVAL);
  x[5] = NAN;
  CHECK(ws_compare_family(x, 3, ROUNDS, 2, 1000, 0.95, 1, out, &fam) == WS_EINVAL);
  x[5] = 7;
  CHECK(ws_compare_family(x, 2, ROUNDS, 1, 1000, 0.95, 9, out, &fam) == 0);
  for (int r = 0; r < ROUNDS; r++)
    d[r] = x[ROUNDS + r] - x[r];
  CHECK(ws_bootstrap_paired(d, ROUNDS, 1000, 0.95, 9, &w) == 0);
  CHECK(fam.family == 1 && fam.arm_level == 0.95 && fabs(fam.widen - 1) < 1e-12);
  /* Each side the wider of the bootstrap's bound and Student's t's. */
  double mean = 0, ss = 0;
  for (int r = 0; r < ROUNDS; r++)
    mean += d[r] / ROUNDS;
  for (int r = 0; r < ROUNDS; r++)
    ss += (d[r] - mean) * (d[r] - mean);
  double half =
      ws__t_upper_quantile(0.025, ROUNDS - 1) * sqrt(ss / (ROUNDS - 1) / ROUNDS);
  CHECK(out[0].change == w.change);
  CHECK(fabs(out[0].low - fmin(w.low, expm1(mean - half))) < 1e-12);
  CHECK(fabs(out[0].high - fmax(w.high, expm1(mean + half))) < 1e-12);
  /* Two arms: the spread is the paired differences' sd over sqrt 2. */
  CHECK(fabs(fam.spread - sqrt(ss / (ROUNDS - 1) / 2)) < 1e-12);
  CHECK(fabs(fam.floor - fmax(expm1(WS_COMPARE_SPREAD_FLOOR * fam.spread),
                              WS_COMPARE_INSTANCE_FLOOR)) < 1e-15);
}

/* An arm whose 95 % interval alone excludes no change is not different in a
 * family of four: its interval is widened by t_7(0.99375) / t_7(0.975). */
static void test_family_widens(void) {
  static const double b[ROUNDS] = {0.004,  -0.001,  0.003,  0.000,
                                   0.0035, -0.0005, 0.0025, 0.0005};
  double x[ARMS * ROUNDS] = {0}, d[ROUNDS];
  for (int r = 0; r < ROUNDS; r++) {
    x[ROUNDS + r] = b[r];
    d[r] = b[r];
  }
  ws_window_change alone, out[ARMS - 1];
  ws_arm_family fam;
  CHECK(ws_bootstrap_paired(d, ROUNDS, 4000, 0.95, 11, &alone) == 0);
  CHECK(alone.low > 0);
  CHECK(ws_compare_family(x, ARMS, ROUNDS, ARMS - 1, 4000, 0.95, 11, out, &fam) == 0);
  CHECK(fam.family == 4 && fabs(fam.arm_level - 0.9875) < 1e-12);
  CHECK(fabs(fam.widen -
             ws__t_upper_quantile(0.00625, 7) / ws__t_upper_quantile(0.025, 7)) < 1e-12);
  CHECK(fam.widen > 1.4 && fam.widen < 1.42);
  CHECK(out[0].change == alone.change && out[0].low < 0 && out[0].high > alone.high);
  printf("family: alone ×%.4f–×%.4f excludes 1; in a family of four ×%.4f–×%.4f does "
         "not\n",
         1 + alone.low, 1 + alone.high, 1 + out[0].low, 1 + out[0].high);
}

/* n identical arms, many times: how often at least one is called
 * different (the family-wise error), by each 95 % bootstrap interval alone,
 * by the family's intervals and by the family with the spread floor; out
 * gets the three counts per 400 trials. */
static void identical_arms(size_t n, int out[3]) {
  ws_rng rng;
  ws_rng_seed(&rng, 2026);
  double x[ARMS * ROUNDS], d[ROUNDS];
  out[0] = out[1] = out[2] = 0;
  for (int t = 0; t < 400; t++) {
    for (int r = 0; r < ROUNDS; r++) {
      double drift = 0.02 * normal(&rng);
      for (size_t j = 0; j < n; j++)
        x[j * ROUNDS + r] = 9 + drift + 0.005 * normal(&rng);
    }
    ws_window_change family[ARMS - 1], w;
    ws_arm_family fam;
    CHECK(ws_compare_family(x, n, ROUNDS, n - 1, 2000, 0.95, (uint64_t)t, family, &fam) ==
          0);
    int alone = 0, joint = 0, floored = 0;
    for (size_t j = 1; j < n; j++) {
      for (int r = 0; r < ROUNDS; r++)
        d[r] = x[j * ROUNDS + r] - x[r];
      CHECK(ws_bootstrap_paired(d, ROUNDS, 2000, 0.95, (uint64_t)t, &w) == 0);
      alone |= w.low > 0 || w.high < 0;
      joint |= family[j - 1].low > 0 || family[j - 1].high < 0;
      floored |= family[j - 1].low > fam.floor || family[j - 1].high < -fam.floor;
    }
    out[0] += alone;
    out[1] += joint;
    out[2] += floored;
  }
}

/* Two and five identical arms: the family holds its 95 % jointly where the
 * intervals alone do not. */
static void test_identical_arms(void) {
  int two[3], five[3];
  identical_arms(2, two);
  identical_arms(ARMS, five);
  printf("identical arms, 400 trials each (8 rounds, normal noise on a common drift), "
         "an arm called different: two arms %.1f %% by the bootstrap interval alone, "
         "%.1f %% by the family's, %.1f %% with the spread floor; five arms %.1f %%, "
         "%.1f %%, %.1f %%\n",
         two[0] / 4.0, two[1] / 4.0, two[2] / 4.0, five[0] / 4.0, five[1] / 4.0,
         five[2] / 4.0);
  CHECK(five[1] < five[0] && two[1] <= two[0]);
  CHECK(two[1] <= 400 * 6 / 100 && five[1] <= 400 * 6 / 100);
  CHECK(two[2] <= 4 && five[2] <= 4);
}

int main(void) {
  test_student();
  test_contract();
  test_family_widens();
  test_identical_arms();
  return check_report("compare");
}
