/* Decimation of per-call series for plotting: min/max envelopes, rolling
 * quantile bands, quantiles for ECDFs and per-op medians per window. All
 * functions work on caller-owned arrays, allocate only temporary scratch that
 * they free before returning, and return 0 or a negative WS_E* code. */
#ifndef WS_DECIMATE_H
#define WS_DECIMATE_H

#include <stddef.h>
#include <stdint.h>

#include "ws.h"
#include "ws_protocol.h"

/* The layouts of ws_decimate_bands' buckets (WS_BAND_*, WS_BAND_FIELDS) and
 * ws_decimate_ops' cells (WS_OPS_*, WS_OPS_FIELDS) are the lists WS_BANDS and
 * WS_OPS_CELLS of ws_protocol.h. */

/* Splits y[0..n) into `buckets` contiguous buckets of near-equal size and
 * writes WS_BAND_FIELDS doubles per bucket into out (caller-owned, at least
 * buckets * WS_BAND_FIELDS doubles). Min, max and the index of the max cover
 * the bucket itself; p10, median and p90 cover a rolling window of `window`
 * values centred on the bucket (widened to the bucket when smaller, shifted
 * to stay inside y), selected without sorting: a histogram of the high 16
 * bits of the values' order keys finds each rank's bin, and only that bin's
 * values are selected among. NaN values count as +infinity. Cost: O(n +
 * buckets * window), expected. Returns WS_EINVAL when n, buckets or window is 0 or
 * buckets > n, WS_ENOMEM when the scratch copy cannot be allocated (out is then
 * unspecified). */
int ws_decimate_bands(const float *y, size_t n, size_t buckets, size_t window,
                      double *out);

/* Writes to out[i] the nearest-rank quantile p[i] (0 <= p[i] <= 1) of
 * y[0..n), for i < np, exactly. Selects without sorting y: two passes over y (a
 * histogram of the high 16 bits of each value's order key, then a copy of the
 * values in the bins that hold a wanted rank), then each such bin resolved by
 * a histogram of the low 16 bits (or a sort when it holds at most 2048
 * values): O(n + np * 65536) time, the copy at most n values. y is not
 * modified. NaN values count as +infinity; -0 orders before +0. Returns
 * WS_EINVAL when n is 0, a pointer is NULL or a p[i] is outside [0, 1],
 * WS_ENOMEM when scratch cannot be allocated. */
int ws_quantiles(const float *y, size_t n, const double *p, size_t np, double *out);

/* Splits y[0..n) into `windows` contiguous windows and, for each window w
 * and op k < nops, writes median, p90 and count of the values whose op[i]
 * is k to out[(w * nops + k) * WS_OPS_FIELDS + field] (caller-owned, at least
 * windows * nops * WS_OPS_FIELDS doubles). A cell with no values gets NaN
 * quantiles and count 0; values with op[i] >= nops are skipped. Returns
 * WS_EINVAL when n, nops or windows is 0 or windows > n, WS_ENOMEM when
 * scratch cannot be allocated. */
int ws_decimate_ops(const float *y, const uint16_t *op, size_t n, size_t nops,
                    size_t windows, double *out);

#endif
