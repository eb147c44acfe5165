/* Window statistics for the summary (ws_stats.h): time quantiles of one
 * window of calls, all ops together and per op. */
#include <stdlib.h>
#include <string.h>

#include "ws_protocol.h"
#include "ws_stats.h"

_Static_assert(WS_WSTAT_P90 == WS_WSTAT_MEDIAN + 1 && WS_WSTAT_P99 == WS_WSTAT_MEDIAN + 2,
               "a row's quantiles follow its median in the order of probs");

int ws_window_stats(const float *elapsed, const uint16_t *op, size_t from, size_t to,
                    uint32_t n_ops, double *out) {
  static const double probs[3] = {0.5, 0.9, 0.99};
  if (from > to)
    return WS_EINVAL;
  size_t len = to - from;
  float *values = NULL; /* one op's times, gathered when the window has others */
  int rc = 0;
  for (uint32_t row = 0; rc == 0 && row <= n_ops; row++) {
    size_t n = len;
    const float *x = elapsed + from;
    if (row > 0) {
      n = 0;
      for (size_t i = from; i < to; i++)
        n += op[i] == row - 1;
    }
    double *dst = out + (size_t)row * WS_WINDOW_STAT_FIELDS;
    if (row > 0 && n == len) { /* every call of the window is this op's */
      memcpy(dst, out, WS_WINDOW_STAT_FIELDS * sizeof *dst);
      continue;
    }
    dst[WS_WSTAT_N] = (double)n;
    if (n == 0) {
      dst[WS_WSTAT_MEDIAN] = dst[WS_WSTAT_P90] = dst[WS_WSTAT_P99] = 0.0 / 0.0;
      continue;
    }
    if (row > 0) {
      if (values == NULL && (values = malloc(len * sizeof *values)) == NULL) {
        rc = WS_ENOMEM;
        break;
      }
      size_t k = 0;
      for (size_t i = from; i < to; i++)
        if (op[i] == row - 1)
          values[k++] = elapsed[i];
      x = values;
    }
    /* The quantiles fill the row from its median on, in the list's order. */
    rc = ws_quantiles_f32(x, n, probs, 3, dst + WS_WSTAT_MEDIAN);
  }
  free(values);
  return rc;
}
