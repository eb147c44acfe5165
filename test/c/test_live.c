/* The run so far, bounded (ws_live.c): records in, a decimated run out whose
 * calls are evenly spaced and whose series count kept calls; and the
 * whole-run analysis judges the decimated run as it judges the full one. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "synth.h"
#include "ws.h"
#include "ws_stats.h"

/* Writes v little-endian into n bytes at p. */
static void put_le(uint8_t *p, uint64_t v, int n) {
  for (int i = 0; i < n; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}

/* Encodes a record as the ring holds it. */
static void put_record(uint8_t *p, int type, int op, uint32_t iteration, uint64_t a,
                       uint64_t b) {
  memset(p, 0, WS_RECORD_SIZE);
  p[0] = (uint8_t)type;
  put_le(p + 2, (uint64_t)op, 2);
  put_le(p + 4, iteration, 4);
  put_le(p + 8, a, 8);
  put_le(p + 16, b, 8);
  put_le(p + 24, (uint64_t)iteration * 1000, 8);
}

static void test_contract(void) {
  ws_live *l = NULL;
  CHECK(ws_live_create(15, &l) == WS_EINVAL && l == NULL);
  CHECK(ws_live_create(17, &l) == WS_EINVAL);
  CHECK(ws_live_create(16, &l) == 0 && l != NULL);
  ws_live_view v;
  ws_live_get(l, &v);
  CHECK(v.calls == 0 && v.kept == 0 && v.stride == 1 && v.memory.n == 0);
  uint8_t rec[2 * WS_RECORD_SIZE];
  put_record(rec, WS_REC_CALL, 0, 0, 5, 65536);
  put_record(rec + WS_RECORD_SIZE, WS_REC_CALL, 0, 2, 5, 65536); /* skips 1 */
  CHECK(ws_live_add(l, rec, 2) == WS_EFORMAT);
  ws_live_get(l, &v);
  CHECK(v.calls == 1 && v.kept == 1);
  ws_live_free(l);
  ws_live_free(NULL);
}

/* 100 000 calls into room for 1 024 times: the stride doubles to 128, the
 * kept calls are every 128th with their flags, memory changes and metrics
 * count kept calls,
 * and a series past its cap is thinned but keeps its first and last point. */
static void test_decimation(void) {
  enum { CALLS = 100000, CAP = 1024, CHUNK = 997 };
  ws_live *l = NULL;
  CHECK(ws_live_create(CAP, &l) == 0);
  if (l == NULL)
    return;
  uint8_t *buf = malloc((size_t)CHUNK * 3 * WS_RECORD_SIZE);
  size_t n = 0;
  for (uint32_t i = 0; i < CALLS; i++) {
    uint64_t bytes = 65536 * (1 + i / 25000); /* grows at 25 000, 50 000, 75 000 */
    put_record(buf + n * WS_RECORD_SIZE, WS_REC_CALL, 0, i, 1000 + i, bytes);
    if (i % 3 == 0) /* every third call preempted: its flag follows it */
      buf[n * WS_RECORD_SIZE + 1] = WS_FLAG_PREEMPTED;
    n++;
    if (i % 10 == 9) /* 10 000 samples: past WS_LIVE_SERIES_CAP */
      put_record(buf + n++ * WS_RECORD_SIZE, WS_REC_METRIC, WS_METRIC_LIVE_BYTES, i, i,
                 0);
    if (i % 1000 == 999)
      put_record(buf + n++ * WS_RECORD_SIZE, WS_REC_MARK, WS_MARK_BACKPRESSURE, i, 1, 0);
    if (n >= CHUNK || i + 1 == CALLS) {
      CHECK(ws_live_add(l, buf, n) == 0);
      n = 0;
    }
  }
  ws_live_view v;
  ws_live_get(l, &v);
  CHECK(v.calls == CALLS && v.stride == 128);
  CHECK(v.kept == (CALLS + v.stride - 1) / v.stride && v.kept <= CAP);
  int spaced = 1, flagged = 1;
  for (size_t j = 0; j < v.kept; j++) {
    spaced &= v.elapsed[j] == (float)(1000 + j * v.stride);
    flagged &= v.flags[j] == ((j * v.stride) % 3 == 0 ? WS_FLAG_PREEMPTED : 0);
  }
  CHECK(spaced && flagged);
  CHECK(v.memory.n == 4 && v.memory.iter[0] == 0 && v.memory.value[0] == 65536);
  CHECK(v.memory.iter[1] == 25000.0 / 128 && v.memory.value[3] == 4 * 65536);
  CHECK(v.n_metrics == 1 && v.metrics[0].id == WS_METRIC_LIVE_BYTES);
  const ws_live_series *m = &v.metrics[0];
  CHECK(m->n <= WS_LIVE_SERIES_CAP && m->n > WS_LIVE_SERIES_CAP / 2);
  CHECK(m->iter[0] == 9.0 / 128 && m->value[0] == 9);
  CHECK(m->value[m->n - 1] == CALLS - 1 && m->iter[m->n - 1] == (CALLS - 1) / 128.0);
  CHECK(m->t_ms[m->n - 1] == (CALLS - 1) / 1000.0);
  int increasing = 1;
  for (size_t j = 1; j < m->n; j++)
    increasing &= m->iter[j] > m->iter[j - 1] && m->value[j] == m->iter[j] * 128;
  CHECK(increasing);
  CHECK(v.last_t_ns == (uint64_t)(CALLS - 1) * 1000);
  free(buf);
  ws_live_free(l);
}

/* Feeds a synthetic run into a copy with room for cap times and returns the
 * analysis of what was kept. */
static int analyse_kept(const float *x, size_t calls, const ws_synth_mem_out *mem,
                        size_t cap, uint64_t *stride) {
  ws_live *l = NULL;
  CHECK(ws_live_create(cap, &l) == 0);
  if (l == NULL)
    return -1;
  uint8_t rec[2 * WS_RECORD_SIZE];
  size_t k = 0, s = 0;
  int added = 1;
  for (uint32_t i = 0; i < calls; i++) {
    while (k + 1 < mem->lin_n && mem->lin_iter[k + 1] <= i)
      k++;
    size_t n = 0;
    put_record(rec, WS_REC_CALL, 0, i, (uint64_t)x[i], (uint64_t)mem->lin_bytes[k]);
    n++;
    if (s < mem->s_n && mem->s_iter[s] == i)
      put_record(rec + n++ * WS_RECORD_SIZE, WS_REC_METRIC, WS_METRIC_LIVE_BYTES, i,
                 (uint64_t)mem->live[s++], 0);
    added &= ws_live_add(l, rec, n) == 0;
  }
  CHECK(added);
  ws_live_view v;
  ws_live_get(l, &v);
  *stride = v.stride;
  ws_series_in in[2] = {
      {WS_ROLE_LINEAR, 1, v.memory.iter, v.memory.value, v.memory.n, 0},
      {WS_ROLE_LIVE, 0, v.metrics[0].iter, v.metrics[0].value, v.metrics[0].n, 0}};
  ws_memtrend_result res[2];
  ws_verdict out = {.series = res};
  ws_verdict_opts o;
  ws_verdict_opts_default(&o);
  CHECK(ws_analyze_run(v.elapsed, v.kept, in, 2, &o, &out) == 0);
  ws_live_free(l);
  return ws_verdict_of(&out);
}

/* The decimated run gets the full run's verdict on clear cases: stationary,
 * a +30 % drift, a leak with live bytes visible, growth past its cap. */
static void test_same_verdict(void) {
  enum { CALLS = 40000 };
  float *x = malloc(CALLS * sizeof *x);
  double *d = malloc(6 * (CALLS + 1) * sizeof *d);
  if (x == NULL || d == NULL)
    return;
  struct {
    double drift, leak;
    int want;
  } cases[] = {{0, 0, WS_KIND_STABLE}, {0.3, 0, WS_KIND_SLOWDOWN}, {0, 24, WS_KIND_LEAK}};
  for (size_t c = 0; c < 3; c++) {
    ws_synth_time t;
    ws_synth_time_defaults(&t, CALLS, 40 + c);
    t.drift = cases[c].drift;
    ws_synth_time_fill(&t, x);
    ws_synth_mem m;
    ws_synth_mem_defaults(&m, CALLS, 50 + c);
    m.leak = cases[c].leak;
    ws_synth_mem_out out = {d,
                            d + CALLS + 1,
                            0,
                            d + 2 * (CALLS + 1),
                            d + 3 * (CALLS + 1),
                            d + 4 * (CALLS + 1),
                            d + 5 * (CALLS + 1),
                            0};
    ws_synth_mem_fill(&m, &out);
    uint64_t full_stride, kept_stride;
    int full = analyse_kept(x, CALLS, &out, 65536, &full_stride);
    int kept = analyse_kept(x, CALLS, &out, 4096, &kept_stride);
    CHECK(full_stride == 1 && kept_stride == 16);
    CHECK(full == cases[c].want);
    CHECK(kept == full);
  }
  free(x);
  free(d);
}

int main(void) {
  test_contract();
  test_decimation();
  test_same_verdict();
  return check_report("live");
}
