/* Helpers the C core's files share with each other and with nothing else
 * (the ws__ prefix): not part of the public headers in addon/include. */
#ifndef WS_INTERNAL_H
#define WS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "ws_protocol.h"

/* Internal: decodes one little-endian WS_RECORD_SIZE-byte record (as the
 * ring and the log hold it) from raw into rec. */
void ws__record_decode(const uint8_t *raw, ws_record *rec);

/* Internal: rearranges a[0..n) (n > 0, k < n) so that a[k] holds the value of
 * rank k, nothing larger before it and nothing smaller after it. */
void ws__select_f32(float *a, size_t n, size_t k);

/* Internal: returns the median (type 7) of a[0..n), n > 0, reordering a. */
double ws__median_f32(float *a, size_t n);

/* Internal: returns the value at fractional rank h (0-based, clamped to
 * [0, m - 1]) of a[0..m), m > 0, interpolating linearly between neighbouring
 * order statistics (type 7 when h = p (m - 1)); reorders a. The one quantile
 * of the core: every quantile and median goes through it. */
double ws__rank_value_f32(float *a, size_t m, double h);

/* Internal: qsort comparator of doubles in ascending order (no NaN). */
int ws__compare_doubles(const void *pa, const void *pb);

/* Internal: classifies levels y[0..n) and peaks peak[0..n) at x[0..n)
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
int ws__growth_pattern(const double *x, const double *y, const double *peak, size_t n,
                       int never_falls, double alpha, size_t *rises);

#endif
