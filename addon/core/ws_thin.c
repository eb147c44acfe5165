/* Thinning of the sample log past its size cap (ws_log.h, docs/log-format.md
 * "Thinned logs"): at stride 2^shift, one call of each aligned block of
 * 2^shift iterations is logged, a seeded choice nested across strides (the
 * call kept at stride 2S is one of the two kept at stride S), so a reader
 * can thin any stretch to the largest stride and get one call per block over
 * the whole run. Every call is summed up per op in summary records (calls,
 * throws, growth events, min, median, max) per 64 strides; slow metrics are
 * kept once per 16 strides and series; marks always. */
#include <stdlib.h>
#include <string.h>

#include "ws.h"
#include "ws_internal.h"

/* Histogram bins of a summary's median: 16 per power of two. */
#define BINS 1024
#define METRIC_IDS 512

typedef struct {
  uint32_t calls, throws, growth;
  float min, max;
  uint32_t bins[BINS];
} op_summary;

struct ws_thin {
  uint64_t seed;
  unsigned shift;
  int mark_pending;         /* a THINNED mark is due before the next record */
  uint64_t from;            /* iteration the shift applies from */
  ws_iteration_track track; /* the full iterations of the records filtered */
  uint32_t n_ops;
  op_summary *ops;
  int64_t block;        /* summary block of the calls summed so far, -1: none */
  uint64_t block_first; /* its first iteration */
  int64_t kept_call;    /* iteration of the last call kept, -1: none */
  int grow_seen;        /* a GROW_FAILED record has been kept */
  int64_t metric_bucket[METRIC_IDS];
  ws_survivor_cache survivor;
};

/* splitmix64 of x: the hash behind every choice. */
static uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15u;
  x = (x ^ x >> 30) * 0xbf58476d1ce4e5b9u;
  x = (x ^ x >> 27) * 0x94d049bb133111ebu;
  return x ^ x >> 31;
}

uint64_t ws_thin_survivor(uint64_t seed, unsigned shift, uint64_t block) {
  uint64_t j = block;
  for (unsigned level = shift; level > 0; level--)
    j = 2 * j + (mix(seed ^ mix((uint64_t)level << 56 ^ j)) & 1);
  return j;
}

uint64_t ws_thin_survivor_cached(ws_survivor_cache *c, uint64_t seed, unsigned shift,
                                 uint64_t block) {
  if (shift == 0)
    return block;
  if (c->shift != shift || c->block != block) {
    c->survivor = ws_thin_survivor(seed, shift, block);
    c->block = block;
    c->shift = shift;
  }
  return c->survivor;
}

int ws_thin_create(uint64_t seed, uint32_t n_ops, ws_thin **out) {
  ws_thin *t = calloc(1, sizeof *t);
  if (t == NULL)
    return WS_ENOMEM;
  t->ops = calloc(n_ops ? n_ops : 1, sizeof *t->ops);
  if (t->ops == NULL) {
    free(t);
    return WS_ENOMEM;
  }
  t->seed = seed;
  t->n_ops = n_ops ? n_ops : 1;
  t->block = -1;
  t->kept_call = -1;
  for (int i = 0; i < METRIC_IDS; i++)
    t->metric_bucket[i] = -1;
  *out = t;
  return 0;
}

void ws_thin_free(ws_thin *t) {
  if (t == NULL)
    return;
  free(t->ops);
  free(t);
}

unsigned ws_thin_shift(const ws_thin *t) {
  return t->shift;
}

void ws_thin_set_shift(ws_thin *t, unsigned shift, uint64_t from) {
  if (shift <= t->shift || shift > 31)
    return;
  if (t->shift == 0)
    t->track.last = from;
  t->shift = shift;
  t->from = from;
  t->mark_pending = 1;
}

/* The bin of a time in ns: exact below 16, else 16 per power of two. */
static unsigned bin_of(float ns) {
  uint64_t x = ns < 1 ? 0 : ns > 1.8e19f ? UINT64_MAX : (uint64_t)ns;
  if (x < 16)
    return (unsigned)x;
  unsigned e = 63u - (unsigned)__builtin_clzll(x);
  unsigned b = 16 * (e - 3) + (unsigned)(x >> (e - 4) & 15);
  return b < BINS ? b : BINS - 1;
}

/* The lowest time of bin b. */
static float bin_low(unsigned b) {
  if (b < 16)
    return (float)b;
  unsigned e = b / 16 + 3;
  return (float)((16u + b % 16) * (double)((uint64_t)1 << (e - 4)));
}

static void put_record(uint8_t *out, const ws_record *rec) {
  uint8_t *p = out;
  p[0] = rec->type;
  p[1] = rec->flags;
  p[2] = (uint8_t)rec->op;
  p[3] = (uint8_t)(rec->op >> 8);
  for (int i = 0; i < 4; i++)
    p[4 + i] = (uint8_t)(rec->iteration >> 8 * i);
  const uint64_t w[3] = {rec->a, rec->b, rec->t};
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < 8; i++)
      p[8 + 8 * k + i] = (uint8_t)(w[k] >> 8 * i);
}

static uint32_t f32_bits(float x) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

/* Writes the summaries of the block summed so far (one per op that ran in
 * it) to out and clears them; returns the records written. */
static size_t flush(ws_thin *t, uint8_t *out) {
  size_t n = 0;
  for (uint32_t k = 0; k < t->n_ops; k++) {
    op_summary *s = &t->ops[k];
    if (s->calls == 0)
      continue;
    uint32_t half = (s->calls + 1) / 2, seen = 0;
    unsigned b = 0;
    while (b < BINS - 1 && seen + s->bins[b] < half)
      seen += s->bins[b++];
    float median = bin_low(b);
    if (median < s->min)
      median = s->min;
    if (median > s->max)
      median = s->max;
    ws_record rec = {WS_REC_SUMMARY,
                     0,
                     (uint16_t)k,
                     (uint32_t)t->block_first,
                     s->calls | (uint64_t)s->throws << 32,
                     s->growth | (uint64_t)f32_bits(median) << 32,
                     f32_bits(s->min) | (uint64_t)f32_bits(s->max) << 32};
    put_record(out + n * WS_RECORD_SIZE, &rec);
    n++;
    memset(s, 0, sizeof *s);
  }
  t->block = -1;
  return n;
}

/* Sums up a call into its op's summary, flushing the previous block first
 * when the call starts a new one; returns the records written to out. */
static size_t summarize(ws_thin *t, const ws_record *rec, uint64_t it, uint8_t *out) {
  size_t n = 0;
  int64_t block = (int64_t)(it >> (t->shift + 6));
  if (block != t->block) {
    if (t->block >= 0)
      n = flush(t, out);
    t->block = block;
    t->block_first = it;
  }
  op_summary *s = &t->ops[rec->op < t->n_ops ? rec->op : t->n_ops - 1];
  float ns = (float)rec->a;
  if (s->calls == 0 || ns < s->min)
    s->min = ns;
  if (s->calls == 0 || ns > s->max)
    s->max = ns;
  s->calls++;
  s->throws += (rec->flags & WS_FLAG_THREW) != 0;
  s->growth += (rec->flags & WS_FLAG_GREW) != 0;
  s->bins[bin_of(ns)]++;
  return n;
}

size_t ws_thin_filter(ws_thin *t, const uint8_t *in, size_t n, uint8_t *out) {
  size_t w = 0;
  if (t->mark_pending) {
    ws_record mark = {WS_REC_MARK, 0, WS_MARK_THINNED, (uint32_t)t->from, t->shift,
                      t->from,     0};
    put_record(out, &mark);
    w++;
    t->mark_pending = 0;
  }
  for (size_t i = 0; i < n; i++) {
    const uint8_t *raw = in + i * WS_RECORD_SIZE;
    ws_record rec;
    ws__record_decode(raw, &rec);
    uint64_t it = ws_iteration_next(&t->track, &rec);
    int keep = 1;
    if (t->shift == 0) {
      keep = 1;
    } else if (rec.type == WS_REC_CALL) {
      w += summarize(t, &rec, it, out + w * WS_RECORD_SIZE);
      keep =
          it == ws_thin_survivor_cached(&t->survivor, t->seed, t->shift, it >> t->shift);
      if (keep)
        t->kept_call = (int64_t)it;
    } else if (rec.type == WS_REC_METRIC) {
      int64_t bucket = (int64_t)(it >> (t->shift + 4));
      unsigned id = rec.op % METRIC_IDS;
      keep = bucket != t->metric_bucket[id];
      if (keep)
        t->metric_bucket[id] = bucket;
    } else if (rec.type == WS_REC_ALLOC) {
      keep = (int64_t)it == t->kept_call;
    } else if (rec.type == WS_REC_GROW_FAILED) {
      /* Those of kept calls, and the first of all: its running count (t)
       * keeps the total exact up to the last one kept. */
      keep = (int64_t)it == t->kept_call || !t->grow_seen;
      t->grow_seen = 1;
    }
    if (keep) {
      memcpy(out + w * WS_RECORD_SIZE, raw, WS_RECORD_SIZE);
      w++;
    }
  }
  return w;
}

size_t ws_thin_finish(ws_thin *t, uint8_t *out) {
  return t->shift > 0 && t->block >= 0 ? flush(t, out) : 0;
}

size_t ws_thin_out_records(const ws_thin *t, size_t n) {
  /* Every record, a mark, and a flush of every op at each call. */
  return n + 1 + (size_t)t->n_ops * (n + 1);
}
