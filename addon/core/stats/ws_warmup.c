/* End of warm-up: MSER against a line on batch means of ln(time) for
 * per-call times, and the end of the initial growth burst for memory. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#include "ws_internal.h"
#include "ws_stats.h"

/* Fewest calls whose batch means are computed on two threads: below it the
 * second thread costs more than it saves. */
#define TWO_THREADS_CALLS 1000000

/* Batches [j0, j1) of b calls each of x, reduced to their mean ln(time)
 * into z on one thread; rc: 0 or WS_ENOMEM. */
typedef struct {
  const float *x;
  size_t b, j0, j1;
  double *z;
  int rc;
} log_means;

/* Computes g's batch means (log_means) on the calling thread. Returns g. */
static void *batch_log_means(void *arg) {
  log_means *g = arg;
  double *log_cache = calloc(WS_LOG_CACHE, sizeof *log_cache);
  g->rc = log_cache == NULL ? WS_ENOMEM : 0;
  for (size_t j = g->j0; g->rc == 0 && j < g->j1; j++) {
    double sum = 0;
    for (size_t i = j * g->b; i < (j + 1) * g->b; i++)
      sum += ws__log_time(g->x[i], log_cache);
    g->z[j] = sum / (double)g->b;
  }
  free(log_cache);
  return g;
}

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
  /* The first half of the batches on a second thread when the run is long
   * (the same values either way). */
  log_means first = {x, b, 0, nb / 2, z, 0}, second = {x, b, nb / 2, nb, z, 0};
  pthread_t thread;
  if (n < TWO_THREADS_CALLS ||
      pthread_create(&thread, NULL, batch_log_means, &first) != 0) {
    first.j1 = nb;
    batch_log_means(&first);
  } else {
    batch_log_means(&second);
    pthread_join(thread, NULL);
  }
  if (first.rc != 0 || second.rc != 0) {
    free(z);
    return WS_ENOMEM;
  }
  /* MSER against a line: the truncation d minimises the residual variance
   * of a least-squares line through z[d..nb), over (nb - d)^2 (plain MSER
   * measures it around the mean). A drift that runs through the whole run
   * fits a line, so it is not taken for warm-up (plain MSER cuts as much of
   * a steady rise as it may, and with it the drift the time test is for);
   * a start-up transient does not fit one and is cut as before. Sums of the
   * suffix are walked backwards, with x = j / nb and z shifted by z[0] for
   * numerical stability. */
  double s0 = 0, sx = 0, sxx = 0, sy = 0, sxy = 0, syy = 0, best = INFINITY;
  size_t best_d = 0;
  for (size_t d = nb; d-- > 0;) {
    double u = (double)d / (double)nb, v = z[d] - z[0];
    s0 += 1;
    sx += u;
    sxx += u * u;
    sy += v;
    sxy += u * v;
    syy += v * v;
    if (d > nb / 2)
      continue;
    double cxx = sxx - sx * sx / s0, cxy = sxy - sx * sy / s0, cyy = syy - sy * sy / s0;
    double ss = cyy - (cxx > 0 ? cxy * cxy / cxx : 0);
    double stat = (ss > 0 ? ss : 0) / (s0 * s0);
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
