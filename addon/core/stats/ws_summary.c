/* Per-window time quantiles for the run summary, all calls and per op
 * (ws_stats.h, ws_window_stats). */
#include <stdlib.h>

#include "ws.h"
#include "ws_stats.h"

/* Computes [n, median, p90, p99] of elapsed[from..to) for all calls (row 0)
 * and for each op k < n_ops (row k + 1) into out[(n_ops + 1) * 4]; a row with
 * no calls has n = 0 and NaN quantiles. Allocates one scratch copy of the
 * window and frees it. Returns 0, WS_EINVAL for a bad window, WS_ENOMEM. */
int ws_window_stats(const float *elapsed, const uint16_t *op, size_t from, size_t to,
                    uint32_t n_ops, double *out) {
  static const double probs[3] = {0.5, 0.9, 0.99};
  if (from > to)
    return WS_EINVAL;
  size_t len = to - from;
  float *values = malloc((len ? len : 1) * sizeof *values);
  float *scratch = malloc((len ? len : 1) * sizeof *scratch);
  if (values == NULL || scratch == NULL) {
    free(values);
    free(scratch);
    return WS_ENOMEM;
  }
  for (uint32_t row = 0; row <= n_ops; row++) {
    size_t n = 0;
    for (size_t i = from; i < to; i++)
      if (row == 0 || op[i] == row - 1)
        values[n++] = elapsed[i];
    double *dst = out + (size_t)row * 4;
    dst[0] = (double)n;
    if (n == 0) {
      dst[1] = dst[2] = dst[3] = 0.0 / 0.0;
      continue;
    }
    ws_quantiles_f32(values, n, probs, 3, dst + 1, scratch);
  }
  free(values);
  free(scratch);
  return 0;
}
