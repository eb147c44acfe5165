/* The interquartile log mean of a batch of times (ws__iq_log_mean in
 * ws_internal.h), by histograms of the float keys' 16-bit halves instead of
 * selection: the time drift reduces every call after warm-up to it, so a
 * long run's verdict spends most of its time here. Two passes over the
 * batch (one when its middle half lies in bins of one whole time each, as
 * the times of calls under 256 ns do); the logarithms of whole times come from a
 * cache (ws__log_time). A 25 % trimmed mean ignores up to a quarter of
 * outliers on each side, like the median, but keeps about 84 % of the
 * efficiency of the mean on a normal body where the median keeps 64 %. */
#include <math.h>
#include <stdlib.h>

#include "ws_internal.h"
#include "ws_stats.h"

int ws__iq_work_init(ws_iq_work *w) {
  w->high = calloc(WS_KEY_LANES * (size_t)WS_HALF_BINS, sizeof *w->high);
  w->low = calloc(2 * (size_t)WS_HALF_BINS, sizeof *w->low);
  w->log_cache = calloc(WS_LOG_CACHE, sizeof *w->log_cache);
  if (w->high != NULL && w->low != NULL && w->log_cache != NULL)
    return 0;
  ws__iq_work_free(w);
  return WS_ENOMEM;
}

void ws__iq_work_free(ws_iq_work *w) {
  free(w->high);
  free(w->low);
  free(w->log_cache);
  *w = (ws_iq_work){0};
}

/* Returns ln v times how many of the c values v of ranks *r.. lie in
 * ranks [k1, k2], and moves *r past them: one run of equal values. */
static double run_in_middle(size_t *r, size_t c, float v, size_t k1, size_t k2,
                            double *cache) {
  size_t from = *r > k1 ? *r : k1, to = *r + c - 1 < k2 ? *r + c - 1 : k2;
  *r += c;
  return from <= to ? (double)(to - from + 1) * ws__log_time(v, cache) : 0.0;
}

/* Returns the sum of ln of the values of ranks [k1, k2] that fall in high
 * bin `bin`, whose values' low halves low[lo..hi] counts (zeroed on
 * return) and whose first value has rank `below`. */
static double bin_sum(uint32_t *low, uint32_t lo, uint32_t hi, uint32_t bin, size_t below,
                      size_t k1, size_t k2, double *cache) {
  double sum = 0;
  size_t r = below;
  for (uint32_t l = lo; l <= hi; l++) {
    size_t c = low[l];
    if (c == 0)
      continue;
    low[l] = 0;
    sum += run_in_middle(&r, c, ws__key_float(bin << 16 | l), k1, k2, cache);
  }
  return sum;
}

/* Sums into *sum ln of the values of ranks [k1, k2] from the counts of
 * bins bin1..bin2 alone (w->high; the first value of bin1 has rank below1)
 * when each of those that holds a value is one whole value
 * (ws__bin_value) and returns 1; else returns 0 (a second pass finds
 * them). */
static int counts_alone(ws_iq_work *w, const ws_key_span *span, uint32_t bin1,
                        uint32_t bin2, size_t below1, size_t k1, size_t k2, double *sum) {
  double s = 0;
  size_t r = below1;
  for (uint32_t h = bin1; h <= bin2; h++) {
    size_t c = w->high[h];
    if (c == 0)
      continue;
    float v;
    if (!ws__bin_value(span, h, &v))
      return 0;
    s += run_in_middle(&r, c, v, k1, k2, w->log_cache);
  }
  *sum = s;
  return 1;
}

double ws__iq_log_mean(const float *b, size_t n, ws_iq_work *w) {
  size_t k1 = n / 4, k2 = n - n / 4 - 1;
  ws_key_span span;
  ws__count_high(b, n, w->high, &span);
  /* The bins of ranks k1 and k2, and the rank of each one's first value. */
  uint32_t bin1 = span.lo, bin2;
  size_t below1 = 0, below2;
  while (below1 + w->high[bin1] <= k1)
    below1 += w->high[bin1++];
  bin2 = bin1;
  below2 = below1;
  while (below2 + w->high[bin2] <= k2)
    below2 += w->high[bin2++];
  double sum = 0;
  int counted = counts_alone(w, &span, bin1, bin2, below1, k1, k2, &sum);
  for (uint32_t h = span.lo; h <= span.hi; h++)
    w->high[h] = 0;
  if (counted)
    return sum / (double)(k2 - k1 + 1);
  /* The values strictly between the two bins are all in the middle half;
   * those of the two bins are counted by their low halves. */
  uint32_t *low1 = w->low, *low2 = bin2 == bin1 ? w->low : w->low + WS_HALF_BINS;
  uint32_t lo1 = WS_HALF_BINS - 1, hi1 = 0, lo2 = WS_HALF_BINS - 1, hi2 = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t k = ws__float_key(b[i]), h = k >> 16, l = k & 0xffffu;
    if (h > bin1 && h < bin2)
      sum += ws__log_time(b[i], w->log_cache);
    else if (h == bin1) {
      low1[l]++;
      lo1 = l < lo1 ? l : lo1;
      hi1 = l > hi1 ? l : hi1;
    } else if (h == bin2) {
      low2[l]++;
      lo2 = l < lo2 ? l : lo2;
      hi2 = l > hi2 ? l : hi2;
    }
  }
  sum += bin_sum(low1, lo1, hi1, bin1, below1, k1, k2, w->log_cache);
  if (bin2 != bin1)
    sum += bin_sum(low2, lo2, hi2, bin2, below2, k1, k2, w->log_cache);
  return sum / (double)(k2 - k1 + 1);
}
