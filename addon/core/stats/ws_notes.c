/* Notes: what a run shows that is no finding but worth saying
 * (docs/verdicts.md, "Practical significance of memory growth" and "Notes"):
 * how a sustained memory series compares with the floors, and the sharp,
 * repeated falls of live bytes that something frees in bursts. */
#include <math.h>
#include <stdlib.h>

#include "ws_internal.h"
#include "ws_stats.h"

ws_floor ws_mem_floor(const ws_memtrend_result *r, int step, double floor_per_call,
                      double floor_relative) {
  ws_floor f = {0};
  double window = r->to > r->from ? (double)(r->to - r->from) : 1;
  /* A step series' trend can be flat between a few large steps (a doubling
   * policy's last two): its actual growth across the window counts too. */
  f.grown = r->grown;
  if (step && r->events.grown > f.grown)
    f.grown = r->events.grown;
  f.per_call = f.grown / window;
  f.relative = r->start > 0 ? f.grown / r->start : INFINITY;
  f.more_calls = INFINITY;
  if (isfinite(f.relative) && f.per_call > 0) {
    double need = floor_relative * r->start / f.per_call - window;
    f.more_calls = need > 1 ? ceil(need) : 1;
  }
  f.below = f.per_call < floor_per_call && f.relative < floor_relative;
  return f;
}

int ws_sawtooth(const double *iter, const double *value, size_t m, size_t from, size_t to,
                ws_sawtooth_result *r) {
  *r = (ws_sawtooth_result){0};
  size_t first = 0;
  while (first < m && iter[first] < (double)from)
    first++;
  size_t end = first;
  while (end < m && iter[end] < (double)to)
    end++;
  size_t n = end - first;
  r->points = n;
  if (n < WS_MEM_MIN_POINTS)
    return 0;
  const double *v = value + first;
  float *diff = malloc((n - 1) * sizeof *diff);
  if (diff == NULL)
    return WS_ENOMEM;
  r->low = r->high = v[0];
  for (size_t i = 1; i < n; i++) {
    diff[i - 1] = (float)fabs(v[i] - v[i - 1]);
    if (v[i] < r->low)
      r->low = v[i];
    if (v[i] > r->high)
      r->high = v[i];
  }
  double typical = ws__median_f32(diff, n - 1);
  free(diff);
  double need = (r->high - r->low) / WS_SAWTOOTH_RANGE_DIVISOR;
  if (WS_SAWTOOTH_STEP_FACTOR * typical > need)
    need = WS_SAWTOOTH_STEP_FACTOR * typical;
  if (!(need > 0))
    return 0;
  /* A fall is a maximal run of decreases: finalizers that run in several
   * batches between samples free one burst over a few samples. */
  for (size_t i = 1; i < n;) {
    if (!(v[i] < v[i - 1])) {
      i++;
      continue;
    }
    size_t top = i - 1;
    while (i < n && v[i] < v[i - 1])
      i++;
    double fall = v[top] - v[i - 1];
    if (fall < need)
      continue;
    if (r->falls++ == 0)
      r->first = iter[first + i - 1];
    r->last = iter[first + i - 1];
    if (fall > r->largest)
      r->largest = fall;
  }
  r->sawtooth = r->falls >= WS_SAWTOOTH_MIN_FALLS;
  return 0;
}
