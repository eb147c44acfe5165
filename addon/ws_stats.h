/* wasm-soak statistics core: quantiles, warm-up detection, time drift,
 * memory trends, classification into findings, the live preliminary trend
 * and a synthetic series generator for the accuracy tests. Nothing here
 * includes node_api.h; binding_verdict.c adapts it to Node-API. Functions
 * return 0 or a negative WS_E* code unless stated. Methods and defaults are
 * described in docs/verdicts.md. */
#ifndef WS_STATS_H
#define WS_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "ws.h"

#ifndef WS_EINVAL
#define WS_EINVAL (-22)
#endif
#ifndef WS_ENOMEM
#define WS_ENOMEM (-12)
#endif

/* ---- Quantiles ---- */

/* Computes quantiles of x[0..n) for each probability probs[0..k) (0..1, linear
 * interpolation between order statistics, type 7) into out[0..k). scratch must hold
 * n floats (it is overwritten); x is not modified. Returns 0, or WS_EINVAL when n == 0
 * or a probability is outside [0, 1]. */
int ws_quantiles_f32(const float *x, size_t n, const double *probs, size_t k,
                     double *out, float *scratch);

/* Internal: rearranges a[0..n) (n > 0, k < n) so that a[k] holds the value of
 * rank k, nothing larger before it and nothing smaller after it. */
void ws__select_f32(float *a, size_t n, size_t k);

#endif
