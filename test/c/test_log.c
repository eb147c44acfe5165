/* Tests of the log reader: round trip, torn tail, not a log, and the
 * version-2 blocks: a damaged stretch in the middle, a bad checksum, a
 * truncated tail, garbage to the end; version 1 still read; CRC-32C; the
 * thinning of a capped log; the same bytes read from memory give the same
 * run; logs long enough for the checker thread and the mapping given back
 * behind the reader. */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "logfile.h"
#include "ws.h"
#include "ws_internal.h"

#define PATH "build/ctest/log.wslog"

static ws_record call(uint32_t i) {
  ws_record rec = {WS_REC_CALL, WS_FLAG_GREW, 3, i, 1000u + i, 65536u * i, 7u * i};
  return rec;
}

/* Writes a version-1 log of n calls and torn extra bytes. */
static void write_v1(const char *path, const char *header, uint32_t n, size_t torn) {
  FILE *f = ws_test_log_start(path, header, 1);
  for (uint32_t i = 0; i < n; i++) {
    ws_record rec = call(i);
    fwrite(&rec, sizeof rec, 1, f);
  }
  for (size_t i = 0; i < torn; i++)
    fputc(0xab, f);
  fclose(f);
}

/* Writes a version-2 log of n calls in blocks of per_block records; returns
 * the offset of the first block. */
static long write_v2(const char *path, uint32_t n, uint32_t per_block) {
  FILE *f = ws_test_log_start(path, "{}", WS_LOG_VERSION);
  long start = ftell(f);
  ws_record *recs = malloc((size_t)per_block * sizeof *recs);
  uint32_t seq = 0;
  for (uint32_t i = 0; i < n; i += per_block) {
    uint32_t k = n - i < per_block ? n - i : per_block;
    for (uint32_t j = 0; j < k; j++)
      recs[j] = call(i + j);
    uint8_t head[WS_RECORD_SIZE];
    ws_log_block_header(head, recs, k, i, seq++);
    fwrite(head, 1, sizeof head, f);
    fwrite(recs, sizeof *recs, k, f);
  }
  free(recs);
  fclose(f);
  return start;
}

/* Overwrites len bytes at offset with value. */
static void smash(const char *path, long offset, size_t len, int value) {
  FILE *f = fopen(path, "r+b");
  fseek(f, offset, SEEK_SET);
  for (size_t i = 0; i < len; i++)
    fputc(value, f);
  fclose(f);
}

/* Returns the bytes of the file at path (malloc'd, the caller frees them)
 * and their number in *len. */
static uint8_t *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  fseek(f, 0, SEEK_END);
  *len = (size_t)ftell(f);
  uint8_t *bytes = malloc(*len + 1);
  fseek(f, 0, SEEK_SET);
  CHECK(fread(bytes, 1, *len, f) == *len);
  fclose(f);
  return bytes;
}

/* Returns 1 when the two opened logs give the same records, the same
 * damaged stretches and the same torn tail, read to the end. */
static int same_reads(ws_log *a, ws_log *b) {
  ws_record ra, rb;
  int ga, gb,
      same = ws_log_version(a) == ws_log_version(b) &&
             strcmp(ws_log_header(a), ws_log_header(b)) == 0 &&
             ws_log_record_count(a) == ws_log_record_count(b);
  do {
    ga = ws_log_next(a, &ra);
    gb = ws_log_next(b, &rb);
    same &= ga == gb && (ga != 1 || memcmp(&ra, &rb, sizeof ra) == 0);
  } while (same && ga == 1);
  same &= ws_log_torn_bytes(a) == ws_log_torn_bytes(b) &&
          ws_log_damage_count(a) == ws_log_damage_count(b);
  for (size_t i = 0; same && i < ws_log_damage_count(a); i++)
    same &= memcmp(ws_log_damage_at(a, i), ws_log_damage_at(b, i),
                   sizeof(ws_log_damage)) == 0;
  return same;
}

/* Reads every record of path; returns how many, and checks that each is an
 * intact call (iterations rising, fields matching the iteration) and that
 * the same bytes read from memory (ws_log_open_memory) give the same run. */
static uint32_t read_all(const char *path, ws_log **out, int *intact) {
  ws_log *log = NULL;
  *intact = ws_log_open(path, &log) == 0;
  if (!*intact)
    return 0;
  ws_record rec;
  uint32_t n = 0;
  int64_t prev = -1;
  int got;
  while ((got = ws_log_next(log, &rec)) == 1) {
    *intact &= rec.type == WS_REC_CALL && rec.op == 3 && (int64_t)rec.iteration > prev &&
               rec.a == 1000u + rec.iteration && rec.b == 65536u * rec.iteration &&
               rec.t == 7u * rec.iteration;
    prev = rec.iteration;
    n++;
  }
  *intact &= got == 0;
  *out = log;

  size_t len;
  uint8_t *bytes = slurp(path, &len);
  ws_log *file = NULL, *mem = NULL;
  CHECK(ws_log_open(path, &file) == 0 && ws_log_open_memory(bytes, len, &mem) == 0);
  CHECK(same_reads(file, mem));
  ws_log_close(file);
  ws_log_close(mem);
  free(bytes);
  return n;
}

static void test_v1_still_read(void) {
  write_v1(PATH, "{\"format\":\"wasm-soak-log\"}", 100, 0);
  ws_log *log = NULL;
  int intact;
  CHECK(read_all(PATH, &log, &intact) == 100 && intact);
  CHECK(ws_log_version(log) == 1);
  CHECK(strcmp(ws_log_header(log), "{\"format\":\"wasm-soak-log\"}") == 0);
  CHECK(ws_log_record_count(log) == 100 && ws_log_torn_bytes(log) == 0);
  ws_log_close(log);

  write_v1(PATH, "{}", 10, 19);
  CHECK(read_all(PATH, &log, &intact) == 10 && intact);
  CHECK(ws_log_torn_bytes(log) == 19 && ws_log_damage_count(log) == 0);
  ws_log_close(log);
}

static void test_not_a_log(void) {
  ws_log *log = NULL;
  FILE *f = fopen(PATH, "wb");
  fputs("not a log at all, really", f);
  fclose(f);
  CHECK(ws_log_open(PATH, &log) == WS_EFORMAT);
  f = ws_test_log_start(PATH, "{}", WS_LOG_VERSION + 1);
  fclose(f);
  CHECK(ws_log_open(PATH, &log) == WS_EFORMAT);
  CHECK(ws_log_open("build/ctest/does-not-exist", &log) == WS_EIO);
  /* In memory: the same refusals, and no bytes at all is not a log. */
  size_t len;
  uint8_t *bytes = slurp(PATH, &len);
  CHECK(ws_log_open_memory(bytes, len, &log) == WS_EFORMAT);
  CHECK(ws_log_open_memory(bytes, 7, &log) == WS_EFORMAT);
  CHECK(ws_log_open_memory(NULL, 0, &log) == WS_EFORMAT);
  free(bytes);
  /* A header longer than the bytes held. */
  f = ws_test_log_start(PATH, "{\"a\":1}", WS_LOG_VERSION);
  fclose(f);
  bytes = slurp(PATH, &len);
  CHECK(ws_log_open_memory(bytes, 20, &log) == WS_EFORMAT);
  CHECK(ws_log_open_memory(bytes, len, &log) == 0);
  ws_record rec;
  CHECK(ws_log_next(log, &rec) == 0);
  ws_log_close(log);
  free(bytes);
  CHECK(strcmp(ws_errname(WS_EFORMAT), "WS_EFORMAT") == 0);
}

static void test_v2_round_trip(void) {
  write_v2(PATH, 10000, WS_LOG_BLOCK_RECORDS);
  ws_log *log = NULL;
  int intact;
  CHECK(read_all(PATH, &log, &intact) == 10000 && intact);
  CHECK(ws_log_version(log) == WS_LOG_VERSION);
  CHECK(ws_log_damage_count(log) == 0 && ws_log_torn_bytes(log) == 0);
  CHECK(ws_log_record_count(log) >= 10000);
  ws_log_close(log);
}

/* Bytes of one block of per_block records with its header. */
static long block_bytes(uint32_t per_block) {
  return (long)(per_block + 1) * WS_RECORD_SIZE;
}

static void test_damage_in_the_middle(void) {
  /* 10 blocks of 100 calls; 200 bytes of garbage across blocks 3 and 4
   * (header of block 4 included): both are lost, the rest is read. */
  long start = write_v2(PATH, 1000, 100);
  smash(PATH, start + 3 * block_bytes(100) + 3000, 500, 0x5a);
  ws_log *log = NULL;
  int intact;
  uint32_t n = read_all(PATH, &log, &intact);
  CHECK(intact && n == 800);
  CHECK(ws_log_damage_count(log) == 1);
  const ws_log_damage *d = ws_log_damage_at(log, 0);
  CHECK(d->offset == (uint64_t)(start + 3 * block_bytes(100)));
  CHECK(d->bytes == (uint64_t)(2 * block_bytes(100)));
  CHECK(d->records == 200 && !d->records_estimated);
  CHECK(d->after_iteration == 299 && d->before_iteration == 500);
  ws_log_close(log);

  /* A shifted stretch (bytes deleted) is found by the sync marker too. */
  write_v2(PATH, 1000, 100);
  FILE *f = fopen(PATH, "rb");
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  char *all = malloc((size_t)size);
  fseek(f, 0, SEEK_SET);
  CHECK(fread(all, 1, (size_t)size, f) == (size_t)size);
  fclose(f);
  long cut = start + 5 * block_bytes(100) + 17 * 32 + 5;
  f = fopen(PATH, "wb");
  fwrite(all, 1, (size_t)cut, f);
  fwrite(all + cut + 11, 1, (size_t)(size - cut - 11), f);
  fclose(f);
  free(all);
  n = read_all(PATH, &log, &intact);
  CHECK(intact && n == 900 && ws_log_damage_count(log) == 1);
  d = ws_log_damage_at(log, 0);
  CHECK(d->records == 100 && d->after_iteration == 499 && d->before_iteration == 600);
  ws_log_close(log);
}

static void test_bad_checksum(void) {
  /* One flipped bit in a record of block 2: that block alone is lost, and
   * a flipped bit in block 7's header loses block 7. */
  long start = write_v2(PATH, 1000, 100);
  FILE *f = fopen(PATH, "r+b");
  long at = start + 2 * block_bytes(100) + 32 + 40 * 32 + 9;
  fseek(f, at, SEEK_SET);
  int c = fgetc(f);
  fseek(f, at, SEEK_SET);
  fputc(c ^ 0x10, f);
  fclose(f);
  smash(PATH, start + 7 * block_bytes(100) + 8, 1, 0x77);
  ws_log *log = NULL;
  int intact;
  uint32_t n = read_all(PATH, &log, &intact);
  CHECK(intact && n == 800 && ws_log_damage_count(log) == 2);
  const ws_log_damage *d = ws_log_damage_at(log, 0);
  CHECK(d->offset == (uint64_t)(start + 2 * block_bytes(100)) && d->records == 100);
  CHECK(d->bytes == (uint64_t)block_bytes(100));
  CHECK(d->after_iteration == 199 && d->before_iteration == 300);
  d = ws_log_damage_at(log, 1);
  CHECK(d->records == 100 && d->after_iteration == 699 && d->before_iteration == 800);
  ws_log_close(log);
}

static void test_truncated_tail(void) {
  /* Cut mid-record in the last block: its complete records are kept, the
   * partial one is torn. */
  long start = write_v2(PATH, 1000, 100);
  long size = start + 10 * block_bytes(100);
  CHECK(truncate(PATH, size - 50 * 32 - 7) == 0);
  ws_log *log = NULL;
  int intact;
  uint32_t n = read_all(PATH, &log, &intact);
  CHECK(intact && n == 949);
  CHECK(ws_log_torn_bytes(log) == 25 && ws_log_damage_count(log) == 0);
  ws_log_close(log);

  /* Cut inside the last block's header. */
  CHECK(truncate(PATH, start + 9 * block_bytes(100) + 20) == 0);
  n = read_all(PATH, &log, &intact);
  CHECK(intact && n == 900 && ws_log_torn_bytes(log) == 20);
  ws_log_close(log);

  /* Garbage to the end: its records are estimated from its bytes. */
  write_v2(PATH, 1000, 100);
  smash(PATH, start + 8 * block_bytes(100) + 100, 2 * block_bytes(100) - 100, 0);
  n = read_all(PATH, &log, &intact);
  CHECK(intact && n == 800 && ws_log_damage_count(log) == 1);
  const ws_log_damage *d = ws_log_damage_at(log, 0);
  CHECK(d->records_estimated && d->records == 2 * 101);
  CHECK(d->after_iteration == 799 && d->before_iteration == -1);
  ws_log_close(log);
}

static void test_crc32c(void) {
  /* The check value of CRC-32C; the instruction and the tables agree on
   * every length and alignment. */
  CHECK(ws_crc32c("123456789", 9) == 0xe3069283u);
  CHECK(ws_crc32c("", 0) == 0);
  uint8_t buf[300];
  for (size_t i = 0; i < sizeof buf; i++)
    buf[i] = (uint8_t)(i * 37 + 11);
  int same = 1;
  for (size_t off = 0; off < 8; off++)
    for (size_t n = 0; n + off <= sizeof buf; n += 13)
      same &= ws_crc32c(buf + off, n) == ws__crc32c_portable(buf + off, n);
  CHECK(same);
}

static void test_thin(void) {
  /* One survivor per block, nested: the survivor at shift s + 1 is one of
   * its halves' survivors at shift s. */
  int ok = 1;
  for (unsigned s = 1; s < 12; s++)
    for (uint64_t j = 0; j < 200; j++) {
      uint64_t v = ws_thin_survivor(99, s, j);
      ok &= v >> s == j;
      ok &= v == ws_thin_survivor(99, s - 1, v >> (s - 1));
    }
  CHECK(ok);
  CHECK(ws_thin_survivor(99, 0, 1234) == 1234);

  /* 3000 calls of two ops at shift 4: a mark, one call per 16, summaries
   * per 1024 calls that count every call, min, max and median. */
  ws_thin *t = NULL;
  CHECK(ws_thin_create(7, 2, &t) == 0);
  enum { N = 3000 };
  uint8_t *in = malloc((size_t)N * WS_RECORD_SIZE);
  for (uint32_t i = 0; i < N; i++) {
    ws_record rec = {WS_REC_CALL,
                     i % 100 == 0 ? WS_FLAG_GREW : 0,
                     (uint16_t)(i % 2),
                     i,
                     100 + i % 50,
                     0,
                     i};
    memcpy(in + (size_t)i * WS_RECORD_SIZE, &rec, sizeof rec);
  }
  CHECK(ws_thin_filter(t, in, 10, in) == 10); /* shift 0 keeps everything */
  ws_thin_set_shift(t, 4, 10);
  ws_thin_set_shift(t, 2, 10); /* a lower shift is ignored */
  CHECK(ws_thin_shift(t) == 4);
  size_t room = ws_thin_out_records(t, N);
  uint8_t *out = malloc(room * WS_RECORD_SIZE);
  size_t n = ws_thin_filter(t, in + 10 * WS_RECORD_SIZE, N - 10, out);
  n += ws_thin_finish(t, out + n * WS_RECORD_SIZE);
  CHECK(n <= room);
  uint32_t kept = 0, marks = 0, calls[2] = {0, 0}, growth = 0;
  float lo = 1e9f, hi = 0, median = 0;
  ok = 1;
  for (size_t k = 0; k < n; k++) {
    ws_record rec;
    ws__record_decode(out + k * WS_RECORD_SIZE, &rec);
    if (rec.type == WS_REC_MARK) {
      marks++;
      ok &= rec.op == WS_MARK_THINNED && rec.a == 4 && rec.b == 10;
    } else if (rec.type == WS_REC_CALL) {
      kept++;
      ok &= rec.iteration == ws_thin_survivor(7, 4, rec.iteration >> 4);
    } else if (rec.type == WS_REC_SUMMARY) {
      calls[rec.op] += (uint32_t)rec.a;
      growth += (uint32_t)rec.b;
      uint32_t bits[3] = {(uint32_t)(rec.b >> 32), (uint32_t)rec.t,
                          (uint32_t)(rec.t >> 32)};
      float f[3];
      memcpy(f, bits, sizeof f);
      median = f[0];
      lo = f[1] < lo ? f[1] : lo;
      hi = f[2] > hi ? f[2] : hi;
    }
  }
  CHECK(ok && marks == 1);
  CHECK(calls[0] + calls[1] == N - 10 && calls[0] == calls[1]);
  CHECK(growth == 29); /* iterations 100, 200, ... 2900 */
  CHECK(lo == 100 && hi == 149 && median >= 115 && median <= 135);
  CHECK(kept >= (N - 10) / 16 - 1 && kept <= (N - 10) / 16 + 1);
  free(in);
  free(out);
  ws_thin_free(t);
}

/* Thinned, a failed-grow record is kept after a kept call, and the first
 * of all whatever its call: the first failure and the running count of the
 * last kept one survive. */
static void test_thin_grow_failed(void) {
  ws_thin *t = NULL;
  CHECK(ws_thin_create(3, 1, &t) == 0);
  ws_thin_set_shift(t, 4, 0);
  enum { N = 64 };
  uint8_t in[2 * N * WS_RECORD_SIZE];
  for (uint32_t i = 0; i < N; i++) {
    ws_record call = {WS_REC_CALL, 0, 0, i, 100, 0, i};
    ws_record grow = {
        WS_REC_GROW_FAILED, WS_GROW_DECLARED_MAXIMUM, 0, i, 65536, 262144, i + 1};
    memcpy(in + (size_t)(2 * i) * WS_RECORD_SIZE, &call, sizeof call);
    memcpy(in + (size_t)(2 * i + 1) * WS_RECORD_SIZE, &grow, sizeof grow);
  }
  size_t room = ws_thin_out_records(t, 2 * N);
  uint8_t *out = malloc(room * WS_RECORD_SIZE);
  size_t n = ws_thin_filter(t, in, 2 * N, out);
  int64_t last_call = -1;
  uint32_t grows = 0, first = UINT32_MAX;
  int ok = 1;
  ws_grow_failures g = {0};
  for (size_t k = 0; k < n; k++) {
    ws_record rec;
    ws__record_decode(out + k * WS_RECORD_SIZE, &rec);
    if (rec.type == WS_REC_CALL)
      last_call = rec.iteration;
    if (rec.type != WS_REC_GROW_FAILED)
      continue;
    ok &= grows == 0 || (int64_t)rec.iteration == last_call;
    first = grows++ == 0 ? rec.iteration : first;
    ws_grow_failures_add(&g, &rec, rec.iteration);
  }
  CHECK(ok && first == 0 && grows >= N / 16 && grows <= N / 16 + 1);
  CHECK(g.first_iteration == 0 && g.total >= N - 15 && g.records == grows);
  free(out);
  ws_thin_free(t);
}

/* Decodes the log at path into run (its per-call arrays allocated for it;
 * the caller frees them and ws_run_free's) and returns the log, open. With
 * settle, the decode starts once the checker thread is as far ahead as it
 * goes (ws__log_settle), so that it vouches for the first blocks. */
static ws_log *decode_file(const char *path, ws_run *run, int settle) {
  ws_log *log = NULL;
  CHECK(ws_log_open(path, &log) == 0);
  if (settle)
    CHECK(ws__log_settle(log) == 1);
  memset(run, 0, sizeof *run);
  size_t cap = (size_t)ws_log_record_count(log);
  run->cap_calls = cap;
  run->elapsed = malloc(cap * sizeof *run->elapsed);
  run->op = malloc(cap * sizeof *run->op);
  run->flags = malloc(cap * sizeof *run->flags);
  run->thinnable = 1; /* as a capped log is read: every call counted per op */
  CHECK(ws_run_decode(log, run) == 0);
  return log;
}

static void free_decoded(ws_run *run) {
  free(run->elapsed);
  free(run->op);
  free(run->flags);
  ws_run_free(run);
}

/* Whether calls [from, to) of run are calls from + shift.. of the log
 * (call(i): elapsed 1000 + i). */
static int calls_are(const ws_run *run, size_t from, size_t to, uint32_t shift) {
  int same = 1;
  for (size_t i = from; i < to; i++)
    same &= run->elapsed[i] == (float)(1000u + (uint32_t)i + shift) && run->op[i] == 3 &&
            run->flags[i] == WS_FLAG_GREW;
  return same;
}

static void test_large_logs(void) {
  /* A log of 48 MiB (the checker verifies its blocks ahead of the reader,
   * up to 16 MiB ahead, and the reader gives its mapping back behind it): a
   * flipped bit in block 100's records and in block 120's header lose those
   * blocks alone, the checker ahead (it stops at block 100, the reader finds
   * why) or not, and the tail cut mid-record is torn. */
  enum { N = 1536000, B = WS_LOG_BLOCK_RECORDS };
  long start = write_v2(PATH, N, B);
  long at = start + 100 * block_bytes(B) + 32 + 5 * 32 + 9;
  FILE *f = fopen(PATH, "r+b");
  fseek(f, at, SEEK_SET);
  int c = fgetc(f);
  fseek(f, at, SEEK_SET);
  fputc(c ^ 0x10, f);
  fclose(f);
  smash(PATH, start + 120 * block_bytes(B) + 8, 1, 0x77);
  long size = start + (long)(N / B) * block_bytes(B); /* N / B blocks, all full */
  CHECK(truncate(PATH, size - 3 * 32 - 7) == 0);
  for (int pass = 0; pass < 2; pass++) {
    ws_run run;
    ws_log *log = decode_file(PATH, &run, pass == 0);
    size_t kept = N - 2 * B - 4;
    CHECK(run.calls == kept && run.lost_calls == 2 * B);
    CHECK(run.n_op_totals == 4 && run.op_calls[3] == (double)kept &&
          run.op_threw[3] == 0 && run.op_calls[0] == 0 && run.growth_events == kept);
    CHECK(calls_are(&run, 0, 100 * B, 0) && calls_are(&run, 100 * B, 119 * B, B) &&
          calls_are(&run, 119 * B, kept, 2 * B));
    CHECK(ws_log_torn_bytes(log) == 25 && ws_log_damage_count(log) == 2);
    const ws_log_damage *d = ws_log_damage_at(log, 0);
    CHECK(d->offset == (uint64_t)(start + 100 * block_bytes(B)) && d->records == B);
    CHECK(d->after_iteration == 100 * B - 1 && d->before_iteration == 101 * B);
    d = ws_log_damage_at(log, 1);
    CHECK(d->offset == (uint64_t)(start + 120 * block_bytes(B)) && d->records == B);
    CHECK(d->after_iteration == 120 * B - 1 && d->before_iteration == 121 * B);
    ws_log_close(log);
    free_decoded(&run);
  }
  /* The same bytes record by record, from memory: the same records. */
  int intact;
  ws_log *log = NULL;
  CHECK(read_all(PATH, &log, &intact) == N - 2 * B - 4 && intact);
  ws_log_close(log);

  /* A version-1 log as long, read a span at a time, its torn tail kept out. */
  write_v1(PATH, "{}", N, 11);
  ws_run run;
  log = decode_file(PATH, &run, 0);
  CHECK(run.calls == N && run.lost_calls == 0 && calls_are(&run, 0, N, 0));
  CHECK(ws_log_torn_bytes(log) == 11 && ws_log_damage_count(log) == 0);
  CHECK(run.n_op_totals == 4 && run.op_calls[3] == N && run.growth_events == N);
  ws_log_close(log);
  free_decoded(&run);
}

static void test_checker_leap(void) {
  /* The checker held back until the reader has passed it (at block 99 of a
   * 48 MiB log), then let go: it leaps past the reader, walking the headers
   * of the next megabyte's blocks unchecked, and vouches from there. The
   * flipped bits in the records of blocks 100 and 110 lose those blocks all
   * the same: the reader checks the blocks the leap passed, and once it has
   * skipped one it counts blocks apart from the checker's and checks every
   * block itself (else block 110 would pass as the checker's 109). */
  enum { N = 1536000, B = WS_LOG_BLOCK_RECORDS };
  long start = write_v2(PATH, N, B);
  for (int k = 0; k < 2; k++)
    smash(PATH, start + (100 + 10 * k) * block_bytes(B) + 32 + 5 * 32 + 9, 1, 0x5a);
  ws_log *log = NULL;
  CHECK(ws_log_open(PATH, &log) == 0);
  ws__log_hold_checker(log, 1);
  ws_record rec;
  size_t got = 0;
  int r;
  while ((r = ws_log_next(log, &rec)) == 1)
    if (++got == 99 * (size_t)B) {
      ws__log_hold_checker(log, 0);
      /* Waits for the checker to see it was overtaken, then for it to leap
       * and stop at block 110's records. */
      while (ws__log_overtaken(log) == 0)
        sched_yield();
      CHECK(ws__log_settle(log) == 1);
    }
  CHECK(r == 0 && got == N - 2 * B);
  CHECK(ws_log_damage_count(log) == 2);
  for (size_t k = 0; k < ws_log_damage_count(log) && k < 2; k++)
    CHECK(ws_log_damage_at(log, k)->offset ==
          (uint64_t)(start + (long)(100 + 10 * k) * block_bytes(B)));
  ws_log_close(log);
}

static void test_one_op_counts(void) {
  /* A capped log of one op: its calls counted from the flags alone (sixteen
   * at a time, in byte lanes summed before they wrap: more than 255 rounds). */
  FILE *f = ws_test_log_start(PATH, "{}", 1);
  for (uint32_t i = 0; i < 10007; i++) {
    uint8_t flags = (i % 3 == 0 ? WS_FLAG_THREW : 0) | (i % 5 == 0 ? WS_FLAG_GREW : 0);
    ws_record rec = {WS_REC_CALL, flags, 0, i, 10, 65536, i};
    fwrite(&rec, sizeof rec, 1, f);
  }
  fclose(f);
  ws_run run;
  ws_log *log = decode_file(PATH, &run, 0);
  CHECK(run.calls == 10007 && run.n_op_totals == 1);
  CHECK(run.op_calls[0] == 10007 && run.op_threw[0] == 3336 && run.growth_events == 2002);
  ws_log_close(log);
  free_decoded(&run);
}

int main(void) {
  test_thin();
  test_thin_grow_failed();
  test_v1_still_read();
  test_not_a_log();
  test_v2_round_trip();
  test_damage_in_the_middle();
  test_bad_checksum();
  test_truncated_tail();
  test_crc32c();
  test_large_logs();
  test_checker_leap();
  test_one_op_counts();
  return check_report("log");
}
