/* Student's t distribution with an integer number of degrees of freedom,
 * exactly: the two-sided mass by the finite series of Abramowitz & Stegun
 * 26.7.3 and 26.7.4, and its upper quantile by bisection. The bootstrap's
 * expanded intervals and the comparison family's Bonferroni widening read
 * their quantiles here. */
#include <math.h>

#include "ws_internal.h"

/* Returns P(|T| <= t) for t >= 0 and nu >= 1 degrees of freedom: with
 * theta = atan(t / sqrt(nu)), (2 / pi)(theta + sin theta (cos theta +
 * 2/3 cos^3 theta + ...)) for odd nu, sin theta (1 + 1/2 cos^2 theta +
 * 3/8 cos^4 theta + ...) for even nu, each series ending at cos^(nu - 2). */
static double two_sided_mass(double t, size_t nu) {
  double theta = atan(t / sqrt((double)nu));
  double s = sin(theta), c = cos(theta), c2 = c * c;
  double sum = 0;
  if (nu % 2 == 1) {
    double term = c;
    for (size_t k = 3; k <= nu; k += 2) {
      sum += term;
      term *= c2 * (double)(k - 1) / (double)k;
    }
    return 2 / acos(-1.0) * (theta + s * sum);
  }
  double term = 1;
  for (size_t k = 2; k <= nu; k += 2) {
    sum += term;
    term *= c2 * (double)(k - 1) / (double)k;
  }
  return s * sum;
}

double ws__t_upper_quantile(double p, size_t nu) {
  double lo = 0, hi = 1;
  while ((1 - two_sided_mass(hi, nu)) / 2 > p && hi < 1e12)
    hi *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
    double mid = 0.5 * (lo + hi);
    if ((1 - two_sided_mass(mid, nu)) / 2 > p)
      lo = mid;
    else
      hi = mid;
  }
  return 0.5 * (lo + hi);
}
