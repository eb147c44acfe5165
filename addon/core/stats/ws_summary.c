/* Window statistics for the summary (ws_stats.h): time quantiles of one
 * window of calls, all ops together and per op. */
#include <stdlib.h>

#include "ws_stats.h"

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
