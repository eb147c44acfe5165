/* End of warm-up: MSER on batch means of ln(time) for per-call times, and
 * the end of the initial growth burst for memory. */
#include <math.h>
#include <stdlib.h>

#include "ws_internal.h"
#include "ws_stats.h"

int ws_warmup_time(const float *x, size_t n, size_t *end) {
  *end = 0;
  size_t b = n / 2000;
  if (b < 5)
    b = 5;
  size_t nb = n / b;
  if (nb < 10)
    return 0;
  double *z = malloc(nb * sizeof *z);
  if (z == NULL)
    return WS_ENOMEM;
  for (size_t j = 0; j < nb; j++) {
    double sum = 0;
    for (size_t i = j * b; i < (j + 1) * b; i++)
      sum += log(x[i] > 1.0f ? (double)x[i] : 1.0);
    z[j] = sum / (double)b;
  }
  /* MSER(d) = sum over j >= d of (z[j] - mean_d)^2 / (nb - d)^2, from suffix
   * sums walked backwards; shift by z[0] for numerical stability. */
  double s1 = 0, s2 = 0, best = INFINITY;
  size_t best_d = 0;
  for (size_t d = nb; d-- > 0;) {
    double v = z[d] - z[0];
    s1 += v;
    s2 += v * v;
    if (d > nb / 2)
      continue;
    double m = (double)(nb - d);
    double ss = s2 - s1 * s1 / m;
    double stat = (ss > 0 ? ss : 0) / (m * m);
    if (stat <= best) {
      best = stat;
      best_d = d;
    }
  }
  free(z);
  *end = best_d * b;
  return 0;
}

int ws__at_limit(double prev, double value, double limit) {
  double step = value - prev;
  return limit > 0 && value + (step > WS_PAGE_BYTES ? step : WS_PAGE_BYTES) > limit;
}

int ws_warmup_memory(const double *iter, const double *bytes, size_t m, size_t calls,
                     double limit, size_t *end) {
  *end = 0;
  double quiet = (double)calls / 20;
  for (size_t i = 1; i < m; i++) {
    if (!(bytes[i] > bytes[i - 1]))
      continue;
    double e = iter[i];
    /* Growth stopped by the limit did not stop: it ran out of memory. */
    if (e >= (double)calls / 2 || ws__at_limit(bytes[i - 1], bytes[i], limit))
      break;
    double next = (double)calls;
    for (size_t j = i + 1; j < m; j++) {
      if (bytes[j] > bytes[j - 1]) {
        next = iter[j];
        break;
      }
    }
    if (next - e >= (e > quiet ? e : quiet)) {
      *end = (size_t)e + 1;
      return 0;
    }
  }
  return 0;
}
