/* Decoding a log into a run (ws_log.h, "Decoded run"): per-call arrays,
 * the memory step series, metric series, allocation records, marks. */
#include <stdlib.h>
#include <string.h>

#include "ws.h"
#include "ws_internal.h"

/* How far ahead of the record it decodes the decode asks for the log's
 * bytes: a page's hardware prefetch stops at its end. */
#define PREFETCH_RECORDS 32

/* Grows a double array to hold at least need elements; returns 0 or
 * WS_ENOMEM (the old array stays valid on failure). */
static int grow(double **array, size_t *cap, size_t need) {
  if (need <= *cap)
    return 0;
  size_t cap2 = *cap ? *cap * 2 : 64;
  while (cap2 < need)
    cap2 *= 2;
  double *p = realloc(*array, cap2 * sizeof *p);
  if (p == NULL)
    return WS_ENOMEM;
  *array = p;
  *cap = cap2;
  return 0;
}

/* Appends (x, y) to the pair of arrays xs, ys holding *n elements in room
 * for *cap. Returns 0 or WS_ENOMEM (the arrays stay valid). */
static int push_pair(double **xs, double **ys, size_t *n, size_t *cap, double x,
                     double y) {
  size_t cap2 = *cap;
  if (grow(xs, &cap2, *n + 1) != 0)
    return WS_ENOMEM;
  cap2 = *cap;
  if (grow(ys, &cap2, *n + 1) != 0)
    return WS_ENOMEM;
  *cap = cap2;
  (*xs)[*n] = x;
  (*ys)[*n] = y;
  (*n)++;
  return 0;
}

static int push_step(ws_run *run, double iteration, double bytes) {
  return push_pair(&run->mem_iter, &run->mem_bytes, &run->n_mem, &run->cap_mem, iteration,
                   bytes);
}

/* Returns the series for id, creating it on first sight; NULL on ENOMEM. */
static ws_metric_series *series_for(ws_run *run, uint16_t id) {
  for (size_t i = 0; i < run->n_metrics; i++)
    if (run->metrics[i].id == id)
      return &run->metrics[i];
  ws_metric_series *m = realloc(run->metrics, (run->n_metrics + 1) * sizeof *m);
  if (m == NULL)
    return NULL;
  run->metrics = m;
  m = &run->metrics[run->n_metrics++];
  memset(m, 0, sizeof *m);
  m->id = id;
  return m;
}

static int push_metric(ws_run *run, const ws_record *rec, uint64_t it) {
  ws_metric_series *m = series_for(run, rec->op);
  if (m == NULL)
    return WS_ENOMEM;
  if (run->thin_shift > 0) {
    uint64_t bucket = it >> (run->thin_shift + 4);
    if (m->n > 0 && bucket == m->bucket)
      return 0;
    m->bucket = bucket;
  }
  size_t cap = m->cap;
  if (grow(&m->iter, &cap, m->n + 1) != 0)
    return WS_ENOMEM;
  cap = m->cap;
  if (grow(&m->t_ms, &cap, m->n + 1) != 0)
    return WS_ENOMEM;
  cap = m->cap;
  if (grow(&m->value, &cap, m->n + 1) != 0)
    return WS_ENOMEM;
  m->cap = cap;
  m->iter[m->n] = (double)it;
  m->t_ms[m->n] = (double)rec->t / 1e6;
  m->value[m->n] = (double)rec->a;
  m->n++;
  return 0;
}

/* Adds calls, throws and growth events to op's totals (thinned logs).
 * Returns 0 or WS_ENOMEM. */
static int count_op(ws_run *run, uint16_t op, double calls, double throws,
                    double growth) {
  if (op >= run->n_op_totals) {
    size_t n = (size_t)op + 1;
    double *c = realloc(run->op_calls, n * sizeof *c);
    if (c == NULL)
      return WS_ENOMEM;
    run->op_calls = c;
    double *t = realloc(run->op_threw, n * sizeof *t);
    if (t == NULL)
      return WS_ENOMEM;
    run->op_threw = t;
    for (size_t k = run->n_op_totals; k < n; k++)
      run->op_calls[k] = run->op_threw[k] = 0;
    run->n_op_totals = n;
  }
  run->op_calls[op] += calls;
  run->op_threw[op] += throws;
  run->growth_events += (uint64_t)growth;
  return 0;
}

/* Counts the calls decoded so far (the per-call arrays, none thinned yet)
 * per op: a thinnable log's calls before its first THINNED mark are counted
 * once, when it comes or at the end (they precede the iteration it applies
 * from), from the arrays rather than call by call. Returns 0 or WS_ENOMEM. */
/* Eight ops, sixteen flags: the lanes count_calls reads at a time (GCC's
 * vector extension; a scalar pass took a tenth of a long log's decode). */
typedef uint16_t op8 __attribute__((vector_size(16)));
typedef uint8_t flag16 __attribute__((vector_size(16)));

/* Returns the greatest of op[0..n). */
static uint16_t top_op(const uint16_t *op, size_t n) {
  op8 top = {0};
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    op8 v;
    memcpy(&v, op + i, sizeof v);
    op8 more = (op8)(v > top);
    top = (v & more) | (top & ~more);
  }
  uint16_t t = 0;
  for (int l = 0; l < 8; l++)
    t = top[l] > t ? top[l] : t;
  for (; i < n; i++)
    t = op[i] > t ? op[i] : t;
  return t;
}

/* Adds to *threw and *grew the flags[0..n) that have WS_FLAG_THREW and
 * WS_FLAG_GREW (byte lanes, summed every 255 rounds before they wrap). */
static void flag_counts(const uint8_t *flags, size_t n, uint64_t *threw, uint64_t *grew) {
  size_t i = 0;
  while (i + 16 <= n) {
    size_t stop = n - (n - i) % 16;
    if (stop - i > 16 * 255)
      stop = i + 16 * 255;
    flag16 t = {0}, g = {0};
    for (; i < stop; i += 16) {
      flag16 v;
      memcpy(&v, flags + i, sizeof v);
      t -= (flag16)((v & WS_FLAG_THREW) != 0);
      g -= (flag16)((v & WS_FLAG_GREW) != 0);
    }
    for (int l = 0; l < 16; l++) {
      *threw += t[l];
      *grew += g[l];
    }
  }
  for (; i < n; i++) {
    *threw += (flags[i] & WS_FLAG_THREW) != 0;
    *grew += (flags[i] & WS_FLAG_GREW) != 0;
  }
}

static int count_calls(ws_run *run) {
  uint16_t top = top_op(run->op, run->calls);
  if (run->calls == 0 || count_op(run, top, 0, 0, 0) != 0)
    return run->calls == 0 ? 0 : WS_ENOMEM;
  if (top == 0) {
    /* One op (most runs): its counts are sums over the flags alone. */
    uint64_t threw = 0, grew = 0;
    flag_counts(run->flags, run->calls, &threw, &grew);
    run->op_calls[0] += (double)run->calls;
    run->op_threw[0] += (double)threw;
    run->growth_events += grew;
    return 0;
  }
  /* Whole counts, in four interleaved tables so that a run of one op is
   * not one chain of dependent additions. */
  size_t n_ops = (size_t)top + 1;
  uint64_t *tally = calloc(4 * 3 * n_ops, sizeof *tally);
  if (tally == NULL)
    return WS_ENOMEM;
  for (size_t i = 0; i < run->calls; i++) {
    uint64_t *t = tally + (i & 3) * 3 * n_ops + (size_t)run->op[i] * 3;
    uint8_t f = run->flags[i];
    t[0]++;
    t[1] += (f & WS_FLAG_THREW) != 0;
    t[2] += (f & WS_FLAG_GREW) != 0;
  }
  for (size_t lane = 0; lane < 4; lane++)
    for (size_t op = 0; op < n_ops; op++) {
      const uint64_t *t = tally + lane * 3 * n_ops + op * 3;
      run->op_calls[op] += (double)t[0];
      run->op_threw[op] += (double)t[1];
      run->growth_events += t[2];
    }
  free(tally);
  return 0;
}

/* A call record of a thinned log: counted when it precedes the summaries,
 * its memory step kept, and the call kept when it is its block's survivor
 * at the log's largest stride. Returns 1 to keep it, 0 to drop it, or
 * WS_ENOMEM. */
static int thin_call(ws_run *run, const ws_record *rec, uint64_t it) {
  if (it < run->thin_from && count_op(run, rec->op, 1, (rec->flags & WS_FLAG_THREW) != 0,
                                      (rec->flags & WS_FLAG_GREW) != 0) != 0)
    return WS_ENOMEM;
  double bytes = (double)rec->b;
  if ((run->n_mem == 0 || run->mem_bytes[run->n_mem - 1] != bytes) &&
      push_step(run, (double)it, bytes) != 0)
    return WS_ENOMEM;
  return it == ws_thin_survivor_cached(&run->survivor, run->thin_seed, run->thin_shift,
                                       it >> run->thin_shift);
}

/* Appends a call record of full iteration it. Iterations rise by one from
 * the first; a damaged stretch of the log (ws_log_damage_at) leaves a gap,
 * counted in lost_calls (a thinned log's gaps are by design: each kept call
 * is noted as a gap, so that its iteration is known; a first call past 0 is
 * noted as one too). */
static int decode_call(ws_run *run, const ws_record *rec, uint64_t it) {
  if (run->thin_shift > 0) {
    int keep = thin_call(run, rec, it);
    if (keep <= 0)
      return keep;
    if (run->calls >= run->cap_calls ||
        push_pair(&run->gap_index, &run->gap_iter, &run->n_gaps, &run->cap_gaps,
                  (double)run->calls, (double)it) != 0)
      return run->calls >= run->cap_calls ? WS_EFORMAT : WS_ENOMEM;
    run->elapsed[run->calls] = (float)rec->a;
    run->op[run->calls] = rec->op;
    run->flags[run->calls] = rec->flags;
    run->calls++;
    return 0;
  }
  uint64_t expected = run->first_iteration + run->calls + run->lost_calls;
  if (it < expected || run->calls >= run->cap_calls)
    return WS_EFORMAT;
  if (it > expected || (run->calls == 0 && it > 0)) {
    if (push_pair(&run->gap_index, &run->gap_iter, &run->n_gaps, &run->cap_gaps,
                  (double)run->calls, (double)it) != 0)
      return WS_ENOMEM;
    run->lost_calls += it - expected;
  }
  run->elapsed[run->calls] = (float)rec->a;
  run->op[run->calls] = rec->op;
  run->flags[run->calls] = rec->flags;
  double bytes = (double)rec->b;
  if (run->n_mem == 0 || run->mem_bytes[run->n_mem - 1] != bytes) {
    int err = push_step(run, (double)it, bytes);
    if (err != 0)
      return err;
  }
  run->calls++;
  return 0;
}

/* Keeps call `from` of the per-call arrays as call run->calls of a thinned
 * run (noted as a gap at its iteration it, in gaps of room cap).
 * Returns 0 or WS_ENOMEM. */
static int keep_thinned(ws_run *run, size_t from, uint64_t it, double **gap_index,
                        double **gap_iter, size_t *n_gaps, size_t *cap) {
  if (push_pair(gap_index, gap_iter, n_gaps, cap, (double)run->calls, (double)it) != 0)
    return WS_ENOMEM;
  run->elapsed[run->calls] = run->elapsed[from];
  run->op[run->calls] = run->op[from];
  run->flags[run->calls] = run->flags[from];
  run->calls++;
  return 0;
}

/* Thins the calls decoded so far to the stride 2^shift: each kept when it
 * is its block's survivor (ws_thin_survivor, once per block; survivors are nested, so a
 * call dropped at a stride is dropped at every larger one). Before the
 * first stride the calls' iterations follow from the gaps; after it each
 * kept call is a gap. Returns 0 or WS_ENOMEM. */
static int thin_calls(ws_run *run, unsigned shift) {
  double *gap_index = NULL, *gap_iter = NULL;
  size_t n_gaps = 0, cap = 0, g = 0, n = run->calls;
  uint64_t base = run->first_iteration; /* call i's iteration is base + i */
  ws_survivor_cache survivor = {0};
  run->calls = 0;
  for (size_t i = 0; i < n; i++) {
    for (; g < run->n_gaps && run->gap_index[g] <= (double)i; g++)
      base = (uint64_t)run->gap_iter[g] - (uint64_t)run->gap_index[g];
    uint64_t it = base + i;
    if (it == ws_thin_survivor_cached(&survivor, run->thin_seed, shift, it >> shift) &&
        keep_thinned(run, i, it, &gap_index, &gap_iter, &n_gaps, &cap) != 0) {
      free(gap_index);
      free(gap_iter);
      return WS_ENOMEM;
    }
  }
  free(run->gap_index);
  free(run->gap_iter);
  run->gap_index = gap_index;
  run->gap_iter = gap_iter;
  run->n_gaps = n_gaps;
  run->cap_gaps = cap;
  return 0;
}

/* Keeps the first sample of each metric series per block of 16 strides of
 * 2^shift iterations (the samples kept at a smaller stride hold every
 * block's first). */
static void thin_metrics(ws_run *run, unsigned shift) {
  for (size_t k = 0; k < run->n_metrics; k++) {
    ws_metric_series *m = &run->metrics[k];
    size_t j = 0;
    for (size_t i = 0; i < m->n; i++) {
      uint64_t bucket = (uint64_t)m->iter[i] >> (shift + 4);
      if (j > 0 && bucket == m->bucket)
        continue;
      m->bucket = bucket;
      m->iter[j] = m->iter[i];
      m->t_ms[j] = m->t_ms[i];
      m->value[j] = m->value[i];
      j++;
    }
    m->n = j;
  }
}

/* A THINNED mark of a thinnable log (shift in rec->a, from in rec->b): a
 * larger stride than any before thins what was decoded so far to it, and
 * the decode goes on at it. The first also sets thin_from; the calls before
 * it keep no gap of their own (lost_calls: none, every call is counted).
 * Returns 0 or WS_ENOMEM. */
static int decode_thinned_mark(ws_run *run, const ws_record *rec) {
  if (!run->thinnable || rec->a > 31 || rec->a <= run->thin_shift)
    return 0;
  unsigned shift = (unsigned)rec->a;
  int err = 0;
  if (run->thin_shift == 0) {
    run->thin_from = rec->b;
    err = count_calls(run);
  }
  if (err == 0)
    err = thin_calls(run, shift);
  if (err != 0)
    return err;
  thin_metrics(run, shift);
  run->thin_shift = shift;
  run->lost_calls = 0;
  return 0;
}

static uint32_t clamp_u32(double x) {
  return x <= 0 ? 0 : x >= 4294967295.0 ? UINT32_MAX : (uint32_t)x;
}

void ws_alloc_record(ws_record *rec, uint64_t iteration, uint16_t op,
                     const double *counters) {
  rec->type = WS_REC_ALLOC;
  rec->flags = 0;
  rec->op = op;
  rec->iteration = (uint32_t)iteration;
  rec->a = clamp_u32(counters[WS_COUNT_ALLOCS]) |
           (uint64_t)clamp_u32(counters[WS_COUNT_FREES]) << 32;
  rec->b = (uint64_t)(counters[WS_COUNT_BYTES] > 0 ? counters[WS_COUNT_BYTES] : 0);
  rec->t = clamp_u32(counters[WS_COUNT_LIVE]) |
           (uint64_t)clamp_u32(counters[WS_COUNT_PEAK]) << 32;
}

/* Stores an allocation record at its full iteration it (counted from the
 * run's first); out-of-range ones are a format error. */
static int decode_alloc(ws_run *run, const ws_record *rec, uint64_t it) {
  if (run->allocs == NULL)
    return 0;
  if (it < run->first_iteration || it - run->first_iteration >= run->cap_calls)
    return WS_EFORMAT;
  size_t i = (size_t)(it - run->first_iteration);
  run->allocs[i] = (uint32_t)rec->a;
  run->frees[i] = (uint32_t)(rec->a >> 32);
  run->alloc_bytes[i] = (double)rec->b;
  run->live[i] = (double)(uint32_t)rec->t;
  run->peak[i] = (double)(uint32_t)(rec->t >> 32);
  run->alloc_records++;
  return 0;
}

void ws_grow_failures_add(ws_grow_failures *g, const ws_record *rec, uint64_t iteration) {
  if (g->records++ == 0) {
    g->first_iteration = iteration;
    g->first_op = rec->op;
    g->first_reason = rec->flags;
    g->first_asked = (double)rec->a;
    g->first_bytes = (double)rec->b;
  }
  if (rec->t > g->total)
    g->total = rec->t;
}

/* Decodes one record of full iteration it into run (ws_run_decode). */
static int decode_record(ws_log *log, ws_run *run, const ws_record *rec, uint64_t it) {
  if (rec->type != WS_REC_SUMMARY && rec->type != WS_REC_GROW_FAILED &&
      rec->t > run->last_t_ns)
    run->last_t_ns = rec->t;
  if (rec->type == WS_REC_CALL)
    return decode_call(run, rec, it);
  if (rec->type == WS_REC_ALLOC)
    return decode_alloc(run, rec, it);
  if (rec->type == WS_REC_METRIC)
    return push_metric(run, rec, it);
  if (rec->type == WS_REC_SUMMARY)
    return run->thin_shift > 0
               ? count_op(run, rec->op, (double)(uint32_t)rec->a, (double)(rec->a >> 32),
                          (double)(uint32_t)rec->b)
               : 0;
  if (rec->type == WS_REC_GROW_FAILED)
    ws_grow_failures_add(&run->grow_failures, rec, it);
  else if (rec->type == WS_REC_MARK) {
    if (rec->op == WS_MARK_THINNED)
      return decode_thinned_mark(run, rec);
    if (rec->op == WS_MARK_BACKPRESSURE) {
      run->backpressure_waits++;
      run->backpressure_ns += rec->a;
    } else if (rec->op == WS_MARK_END) {
      run->complete = 1;
    } else if (rec->op == WS_MARK_ITERATION && run->n_mem == 0 &&
               ws_log_damage_count(log) == 0) {
      /* Before any call record (each one starts the memory series), with
       * nothing lost: where the run's counter started. */
      run->first_iteration = it;
    }
  }
  return 0;
}

/* Decodes the run of plain calls that raw[0..n) starts with (n raw
 * records, their iterations tracked by track): calls after the last (no
 * gap), at stride 1, in room, at the memory's last size, each as
 * decode_call would, in a loop of its own whose state stays in registers.
 * Returns how many it decoded (0: the first is no plain call); *it is the
 * last one's iteration. */
static size_t plain_calls(ws_run *run, ws_iteration_track *track, const uint8_t *raw,
                          size_t n, uint64_t *it) {
  if (run->thin_shift > 0 || run->calls == 0)
    return 0;
  size_t i = run->calls, cap = run->cap_calls, k = 0;
  uint64_t next = run->first_iteration + i + run->lost_calls, last = track->last;
  uint64_t last_t = run->last_t_ns;
  double bytes = run->mem_bytes[run->n_mem - 1];
  float *elapsed = run->elapsed;
  uint16_t *op = run->op;
  uint8_t *flags = run->flags;
  for (; k < n && i < cap; k++, i++, next++) {
    const uint8_t *p = raw + k * WS_RECORD_SIZE;
    __builtin_prefetch(p + PREFETCH_RECORDS * WS_RECORD_SIZE);
    ws_record rec;
    ws__record_decode(p, &rec);
    if (rec.type != WS_REC_CALL || ws_iteration_near(last, rec.iteration) != next ||
        (double)rec.b != bytes)
      break;
    last = next;
    last_t = rec.t > last_t ? rec.t : last_t;
    elapsed[i] = (float)rec.a;
    op[i] = rec.op;
    flags[i] = rec.flags;
  }
  run->calls = i;
  track->last = last;
  run->last_t_ns = last_t;
  *it = last;
  return k;
}

int ws_run_decode(ws_log *log, ws_run *run) {
  ws_iteration_track *track = ws__log_track(log);
  const uint8_t *raw;
  size_t n;
  int got;
  /* A span of records at a time (a block): its runs of plain calls decoded
   * in a loop of their own, any other record one by one. */
  while ((got = ws__log_span(log, &raw, &n)) == 1) {
    uint64_t first = 0, it = 0;
    for (size_t k = 0; k < n;) {
      size_t done = plain_calls(run, track, raw + k * WS_RECORD_SIZE, n - k, &it);
      if (done > 0) {
        if (k == 0)
          first = it - (done - 1);
        k += done;
        continue;
      }
      ws_record rec;
      ws__record_decode(raw + k * WS_RECORD_SIZE, &rec);
      it = ws_iteration_next(track, &rec);
      if (k == 0)
        first = it;
      int err = decode_record(log, run, &rec, it);
      if (err != 0)
        return err;
      k++;
    }
    ws__log_seen(log, first, it);
  }
  if (got == 0 && run->thinnable && run->thin_shift == 0)
    return count_calls(run);
  return got < 0 ? got : 0;
}

void ws_run_free(ws_run *run) {
  for (size_t i = 0; i < run->n_metrics; i++) {
    free(run->metrics[i].iter);
    free(run->metrics[i].t_ms);
    free(run->metrics[i].value);
  }
  free(run->metrics);
  free(run->mem_iter);
  free(run->mem_bytes);
  free(run->gap_index);
  free(run->gap_iter);
  free(run->op_calls);
  free(run->op_threw);
  run->op_calls = run->op_threw = NULL;
  run->n_op_totals = 0;
  run->gap_index = run->gap_iter = NULL;
  run->n_gaps = run->cap_gaps = 0;
  run->metrics = NULL;
  run->mem_iter = run->mem_bytes = NULL;
  run->n_metrics = run->n_mem = run->cap_mem = 0;
}
