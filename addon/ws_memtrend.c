/* Memory trend: does one memory series keep growing after warm-up, or did it
 * step up to a plateau? Works on WS_MEM_SEGMENTS segment levels, so a series
 * of any length costs O(m) plus a fixed-size trend test. */
#include <math.h>
#include <stdlib.h>

#include "ws_stats.h"

/* Returns the sum of squared residuals of the least-squares line. */
static double line_sse(const double *x, const double *y, size_t n) {
  double mx = 0, my = 0;
  for (size_t i = 0; i < n; i++) {
    mx += x[i];
    my += y[i];
  }
  mx /= (double)n;
  my /= (double)n;
  double sxx = 0, sxy = 0, syy = 0;
  for (size_t i = 0; i < n; i++) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
    syy += (y[i] - my) * (y[i] - my);
  }
  double sse = sxx > 0 ? syy - sxy * sxy / sxx : syy;
  return sse > 0 ? sse : 0;
}

/* Returns the smallest sum of squares around two means when y is split once
 * (a single step change), over every split point. */
static double step_sse(const double *y, size_t n) {
  double total = 0, total2 = 0;
  for (size_t i = 0; i < n; i++) {
    total += y[i] - y[0];
    total2 += (y[i] - y[0]) * (y[i] - y[0]);
  }
  double best = INFINITY, s = 0, s2 = 0;
  for (size_t k = 1; k < n; k++) {
    double v = y[k - 1] - y[0];
    s += v;
    s2 += v * v;
    double left = s2 - s * s / (double)k;
    double rs = total - s, rs2 = total2 - s2;
    double right = rs2 - rs * rs / (double)(n - k);
    double sse = left + right;
    if (sse < best) best = sse;
  }
  return best > 0 ? best : 0;
}

/* Returns 1 when up increases among t transitions are at least 40 % of them
 * and at least floor. */
static int recurring(size_t up, size_t t, size_t floor) {
  size_t need = (size_t)ceil(0.4 * (double)t);
  return up >= (need > floor ? need : floor);
}

/* Returns the Theil-Sen slope of (x, y)[0..n), 2 <= n <= WS_MEM_SEGMENTS. */
static double small_theil_sen(const double *x, const double *y, size_t n) {
  float pairs[WS_MEM_SEGMENTS * (WS_MEM_SEGMENTS - 1) / 2];
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    for (size_t j = i + 1; j < n; j++) pairs[m++] = (float)((y[j] - y[i]) / (x[j] - x[i]));
  return ws__median_f32(pairs, m);
}

int ws__growth_pattern(const double *x, const double *y, size_t n, double alpha,
                       uint64_t seed, size_t *rises) {
  /* Rises are counted between every other level (ending at the last), so a
   * slow but steady staircase of coarse pages still rises at most
   * transitions. */
  size_t stride = n >= 12 ? 2 : 1;
  size_t first = (n - 1) % stride, coarse = (n - 1) / stride + 1;
  size_t chalf = coarse / 2, up = 0, up_late = 0;
  for (size_t c = 1; c < coarse; c++) {
    size_t i = first + c * stride;
    if (y[i] > y[i - stride]) {
      up++;
      up_late += c >= chalf;
    }
  }
  *rises = up;
  if (!recurring(up, coarse - 1, 3) || !recurring(up_late, coarse - chalf, 2))
    return WS_PATTERN_STEP;
  /* A high-water mark (a series that never falls) that is only being
   * approached rises ever more rarely; a leak keeps its pace, so the second
   * half must show a significant rise of its own. Every series must keep at
   * least half the whole slope in its second half. */
  size_t half = n / 2;
  int monotone = 1;
  for (size_t i = 1; i < n; i++) monotone &= y[i] >= y[i - 1];
  ws_trend late;
  if (ws_trend_fit(x + half, y + half, n - half, seed, &late) != 0) return WS_PATTERN_STEP;
  if (!(late.slope > 0 && late.slope >= 0.5 * small_theil_sen(x, y, n))) return WS_PATTERN_STEP;
  if (monotone && !(late.p_up < alpha)) return WS_PATTERN_STEP;
  if (step_sse(y, n) < line_sse(x, y, n)) return WS_PATTERN_STEP;
  return WS_PATTERN_SUSTAINED;
}

/* Returns the value of a step series at iteration t (the last point at or
 * before t; the first point before it starts). */
static double step_value(const double *iter, const double *value, size_t m, double t,
                         size_t *cursor) {
  size_t i = *cursor;
  while (i + 1 < m && iter[i + 1] <= t) i++;
  *cursor = i;
  return value[i];
}

int ws_memtrend_analyze(const double *iter, const double *value, size_t m, int step,
                        size_t from, size_t to, double alpha, uint64_t seed,
                        ws_memtrend_result *r) {
  *r = (ws_memtrend_result){0};
  r->from = from;
  r->to = to;
  if (m == 0 || to <= from + WS_MEM_SEGMENTS) return 0;
  double x[WS_MEM_SEGMENTS], level[WS_MEM_SEGMENTS], peak[WS_MEM_SEGMENTS];
  float *scratch = step ? NULL : malloc(m * sizeof *scratch);
  if (!step && scratch == NULL) return WS_ENOMEM;
  double width = (double)(to - from) / WS_MEM_SEGMENTS;
  size_t ns = 0, cursor = 0, i = 0;
  r->max = -INFINITY;
  for (size_t s = 0; s < WS_MEM_SEGMENTS; s++) {
    double lo = (double)from + (double)s * width, hi = lo + width;
    if (step) {
      double top = step_value(iter, value, m, lo, &cursor);
      size_t c = cursor;
      level[ns] = step_value(iter, value, m, lo + width / 2, &c);
      for (size_t j = cursor + 1; j < m && iter[j] < hi; j++)
        if (value[j] > top) top = value[j];
      peak[ns] = top;
    } else {
      while (i < m && iter[i] < lo) i++;
      size_t k = 0;
      double top = -INFINITY;
      for (; i < m && iter[i] < hi; i++) {
        scratch[k++] = (float)(value[i] - value[0]);
        if (value[i] > top) top = value[i];
      }
      if (k == 0) continue;
      level[ns] = ws__median_f32(scratch, k) + value[0];
      peak[ns] = top;
    }
    if (peak[ns] > r->max) r->max = peak[ns];
    x[ns++] = lo + width / 2;
  }
  free(scratch);
  r->segments = ns;
  r->last = value[m - 1];
  if (ns < 8) return 0;
  r->start = level[0];
  r->end = level[ns - 1];
  int rc = ws_trend_fit(x, level, ns, seed, &r->trend);
  if (rc == 0) rc = ws_trend_fit(x, peak, ns, seed ^ 0x5eed, &r->peak);
  if (rc != 0) return rc;
  r->peak_grows = r->peak.p_up < alpha && r->peak.low > 0;
  r->pattern = ws__growth_pattern(x, level, ns, alpha, seed + 2, &r->rises);
  if (!(r->trend.p_up < alpha && r->trend.low > 0)) r->pattern = WS_PATTERN_FLAT;
  return 0;
}
