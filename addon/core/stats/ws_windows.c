/* The early and late windows (ws_stats.h): how the post-warm-up calls are
 * cut into batches, and the first and last fifth of those batches. Written
 * once here for the time test, the summary and the figures. */
#include "ws_stats.h"

#define MAX_BATCHES 60
#define WINDOW_FRACTION 5

void ws_time_windows(size_t from, size_t to, ws_windows *w) {
  if (from > to)
    from = to;
  size_t n = to - from;
  size_t nb = n / WS_BATCH_MIN_CALLS;
  if (nb > MAX_BATCHES)
    nb = MAX_BATCHES;
  /* Under WINDOW_FRACTION batches a fifth of them would be less than one:
   * cut single calls instead. */
  if (nb < WINDOW_FRACTION)
    nb = n;
  size_t size = nb > 0 ? n / nb : 0;
  size_t m = nb / WINDOW_FRACTION;
  if (m == 0 && nb > 0)
    m = 1;
  *w = (ws_windows){.from = from,
                    .to = to,
                    .batches = nb,
                    .batch_size = size,
                    .window_batches = m,
                    .early_to = from + m * size,
                    .late_from = nb > 0 ? from + (nb - m) * size : to};
}
