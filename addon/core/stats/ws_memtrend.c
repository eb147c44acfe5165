/* Memory trend: does one memory series keep growing after warm-up, or did it
 * step up to a plateau? Works on WS_MEM_SEGMENTS segment levels, so a series
 * of any length costs O(m) plus a fixed-size trend test; a step series
 * (linear memory) is also judged by its growth events, the few large steps
 * a coarse growth policy leaves a leak (staircase, doubling, late step). */
#include <math.h>
#include <stdlib.h>

#include "ws_internal.h"
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
    if (sse < best)
      best = sse;
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
    for (size_t j = i + 1; j < n; j++)
      pairs[m++] = (float)((y[j] - y[i]) / (x[j] - x[i]));
  return ws__median_f32(pairs, m);
}

/* Returns the probability that at least k of the blocks first .. n - 1
 * (0-based, in time order) set a new record of a series whose blocks are
 * exchangeable: by Renyi's record theorem block i does so independently with
 * probability 1 / (i + 1). n <= WS_MEM_SEGMENTS. */
static double record_tail(size_t first, size_t n, size_t k) {
  double dist[WS_MEM_SEGMENTS + 1] = {1};
  size_t len = 1;
  for (size_t i = first; i < n; i++, len++) {
    double p = 1.0 / (double)(i + 1);
    dist[len] = 0;
    for (size_t j = len; j > 0; j--)
      dist[j] = dist[j] * (1 - p) + dist[j - 1] * p;
    dist[0] *= 1 - p;
  }
  double tail = 0;
  for (size_t j = k; j < len; j++)
    tail += dist[j];
  return tail;
}

/* Returns how many of peak[first..n) exceed every earlier peak. */
static size_t late_records(const double *peak, size_t first, size_t n) {
  double best = peak[0];
  size_t count = 0;
  for (size_t i = 1; i < n; i++) {
    if (peak[i] > best) {
      count += i >= first;
      best = peak[i];
    }
  }
  return count;
}

/* Classifies levels y[0..n) and peaks peak[0..n) at x[0..n)
 * (8 <= n <= WS_MEM_SEGMENTS) that already have a significant upward level
 * trend: returns WS_PATTERN_SUSTAINED when increases recur (40 % of
 * transitions between every other level, including the second half), the
 * second half's slope is at least half the whole slope, and one step does not
 * fit better than a line; and then, for a series that never falls
 * (never_falls != 0, a high-water mark), when its last three quarters set
 * significantly more new peaks (at level alpha) than the running maximum of
 * a stationary series would (record test), or otherwise, when the levels
 * never fall, the second half's trend is significant on its own. Else
 * WS_PATTERN_STEP. Stores the increases in *rises. Returns WS_PATTERN_STEP on
 * allocation failure. */
static int growth_pattern(const double *x, const double *y, const double *peak, size_t n,
                          int never_falls, double alpha, size_t *rises) {
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
  /* Every series must keep at least half the whole slope in its second half. */
  size_t half = n / 2;
  ws_trend late;
  if (ws_trend_fit(x + half, y + half, n - half, &late) != 0)
    return WS_PATTERN_STEP;
  if (!(late.slope > 0 && late.slope >= 0.5 * small_theil_sen(x, y, n)))
    return WS_PATTERN_STEP;
  if (never_falls) {
    /* A high-water mark (heap top, linear memory) of a stationary working set
     * is the running maximum of a stationary process: it keeps rising, ever
     * more rarely, and rank tests on it are meaningless (every pair is
     * ordered). Under that null the segments' peaks are exchangeable blocks,
     * so segment i sets a new high with probability at most 1 / (i + 1)
     * (Renyi; Foster-Stuart's record test), less when values tie or the
     * warm-up already set a higher mark. A leak or fragmentation keeps setting
     * new highs: the last three quarters must set significantly more than
     * that. (The first quarter is left out: right after an early warm-up
     * point, a mark still catching up with its start-up would count.) */
    size_t later = n / 4;
    if (!(record_tail(later, n, late_records(peak, later, n)) < alpha))
      return WS_PATTERN_STEP;
  } else {
    int monotone = 1;
    for (size_t i = 1; i < n; i++)
      monotone &= y[i] >= y[i - 1];
    if (monotone && !(late.p_up < alpha))
      return WS_PATTERN_STEP;
  }
  if (step_sse(y, n) < line_sse(x, y, n))
    return WS_PATTERN_STEP;
  return WS_PATTERN_SUSTAINED;
}

/* Fills e with the growth events of step series (iter, value)[0..m) inside
 * [from, to): the increases, which of them are large, and the staircase,
 * doubling and late-step rules of ws_growth_events. */
static void growth_events(const double *iter, const double *value, size_t m, size_t from,
                          size_t to, ws_growth_events *e) {
  *e = (ws_growth_events){0};
  size_t j = 0;
  while (j + 1 < m && iter[j + 1] <= (double)from)
    j++;
  e->base = value[j];
  double mid = 0.5 * ((double)from + (double)to), last = value[j];
  for (j++; j < m && iter[j] < (double)to; j++) {
    last = value[j];
    if (!(value[j] > value[j - 1]))
      continue;
    e->count++;
    /* One page is the finest step there is: never a coarse policy's. */
    double d = value[j] - value[j - 1];
    if (d < e->base / WS_LARGE_STEP_DIVISOR || d <= WS_PAGE_BYTES)
      continue;
    if (e->large++ == 0)
      e->first_large = iter[j];
    e->last_large = iter[j];
    e->large_early += iter[j] < mid;
  }
  e->grown = last - e->base;
  e->staircase = e->large >= 3 && e->large_early >= 1 && e->large > e->large_early;
  e->doubling = e->large >= 2 && e->last_large >= mid && last >= 2 * e->base;
  /* Under a doubling policy a leak's next step comes at least as many calls
   * after a step as the step came after the run's start: a large step in the
   * second half of the run cannot yet be told from a plateau step. */
  e->late = !e->staircase && !e->doubling && e->last_large >= 0.5 * (double)to;
}

/* Returns the value of a step series at iteration t (the last point at or
 * before t; the first point before it starts). */
static double step_value(const double *iter, const double *value, size_t m, double t,
                         size_t *cursor) {
  size_t i = *cursor;
  while (i + 1 < m && iter[i + 1] <= t)
    i++;
  *cursor = i;
  return value[i];
}

int ws_memtrend_analyze(const double *iter, const double *value, size_t m, int step,
                        size_t from, size_t to, double alpha, ws_memtrend_result *r) {
  *r = (ws_memtrend_result){0};
  r->from = from;
  r->to = to;
  if (m == 0 || to <= from + WS_MEM_SEGMENTS)
    return 0;
  double x[WS_MEM_SEGMENTS], level[WS_MEM_SEGMENTS], peak[WS_MEM_SEGMENTS];
  float *scratch = step ? NULL : malloc(m * sizeof *scratch);
  if (!step && scratch == NULL)
    return WS_ENOMEM;
  double width = (double)(to - from) / WS_MEM_SEGMENTS;
  size_t ns = 0, cursor = 0, i = 0;
  /* Does the series never fall inside the window? A step series' point in
   * effect at from counts as inside. */
  int never_falls = 1, seen = 0;
  double prev = 0;
  for (size_t j = 0; j < m && iter[j] < (double)to; j++) {
    int inside =
        step ? j + 1 == m || iter[j + 1] > (double)from : iter[j] >= (double)from;
    if (!inside)
      continue;
    r->points++;
    if (seen && value[j] < prev)
      never_falls = 0;
    prev = value[j];
    seen = 1;
  }
  r->max = -INFINITY;
  for (size_t s = 0; s < WS_MEM_SEGMENTS; s++) {
    double lo = (double)from + (double)s * width, hi = lo + width;
    if (step) {
      double top = step_value(iter, value, m, lo, &cursor);
      size_t c = cursor;
      level[ns] = step_value(iter, value, m, lo + width / 2, &c);
      for (size_t j = cursor + 1; j < m && iter[j] < hi; j++)
        if (value[j] > top)
          top = value[j];
      peak[ns] = top;
    } else {
      while (i < m && iter[i] < lo)
        i++;
      size_t k = 0;
      double top = -INFINITY;
      for (; i < m && iter[i] < hi; i++) {
        scratch[k++] = (float)(value[i] - value[0]);
        if (value[i] > top)
          top = value[i];
      }
      if (k == 0)
        continue;
      level[ns] = ws__median_f32(scratch, k) + value[0];
      peak[ns] = top;
    }
    if (peak[ns] > r->max)
      r->max = peak[ns];
    x[ns++] = lo + width / 2;
  }
  free(scratch);
  r->segments = ns;
  r->last = value[m - 1];
  if (ns < 8 || (!step && r->points < WS_MEM_MIN_POINTS))
    return 0;
  r->start = level[0];
  r->end = level[ns - 1];
  int rc = ws_trend_fit(x, level, ns, &r->trend);
  if (rc == 0)
    rc = ws_trend_fit(x, peak, ns, &r->peak);
  if (rc != 0)
    return rc;
  r->grown = r->trend.slope * (double)(to - from);
  r->peak_grows = r->peak.p_up < alpha && r->peak.low > 0;
  r->never_falls = never_falls;
  r->pattern = growth_pattern(x, level, peak, ns, never_falls, alpha, &r->rises);
  if (!(r->trend.p_up < alpha && r->trend.low > 0))
    r->pattern = WS_PATTERN_FLAT;
  /* Coarse growth policies leave a leak only a few large steps: judged as
   * events, a staircase or a doubling is sustained growth however few its
   * steps (docs/verdicts.md, "Growth events"). */
  if (step) {
    growth_events(iter, value, m, from, to, &r->events);
    if (r->events.staircase || r->events.doubling)
      r->pattern = WS_PATTERN_SUSTAINED;
  }
  /* A significant rise that the shape tests called a step is a plateau only
   * once the levels stop rising: test the second half on its own, at a
   * lenient level, since this can only make a verdict less certain. A series
   * that never falls (a high-water mark) has no level trend to test: the
   * record test (growth_pattern) asks whether its last three quarters set
   * more new highs than a steady working set's mark would, and one that did
   * has not levelled off, however its climb slows (the shape tests' step); a
   * step to a plateau sets one. At alpha, not leniently: a steady mark sets
   * new highs by chance (at 0.1, 9 of the 250 stationary synthetic runs whose
   * heap top was tested were left open). */
  if (r->pattern == WS_PATTERN_STEP && !never_falls) {
    ws_trend late;
    size_t half = ns / 2;
    rc = ws_trend_fit(x + half, level + half, ns - half, &late);
    if (rc != 0)
      return rc;
    r->still_rising = late.slope > 0 && late.p_up < WS_STILL_RISING_P;
  } else if (r->pattern == WS_PATTERN_STEP) {
    size_t later = ns / 4;
    r->still_rising = record_tail(later, ns, late_records(peak, later, ns)) < alpha;
  }
  return 0;
}
