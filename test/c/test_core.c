/* Tests of the ring (including back-pressure with a slow consumer thread),
 * the seeded RNG and the log reader (round trip and torn tail). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "ws.h"

static void *make_region(uint32_t capacity, size_t *bytes) {
  *bytes = ws_ring_region_bytes(capacity);
  int32_t *region = aligned_alloc(64, *bytes);
  memset(region, 0, *bytes);
  region[WS_CTL_CAPACITY] = (int32_t)capacity;
  return region;
}

static void test_ring_basic(void) {
  size_t bytes;
  void *region = make_region(8, &bytes);
  ws_ring ring;
  CHECK(ws_ring_attach(&ring, region, bytes) == 0);
  CHECK(ws_ring_attach(&ring, region, bytes - 1) == WS_EINVAL);
  ((int32_t *)region)[WS_CTL_CAPACITY] = 6;
  CHECK(ws_ring_attach(&ring, region, bytes) == WS_EINVAL);
  ((int32_t *)region)[WS_CTL_CAPACITY] = 8;
  CHECK(ws_ring_attach(&ring, region, bytes) == 0);
  for (uint32_t i = 0; i < 8; i++) {
    ws_record rec = {WS_REC_CALL, 0, 1, i, i * 10u, 0, 0};
    CHECK(ws_ring_push(&ring, &rec) == 0);
  }
  ws_record out[16];
  CHECK(ws_ring_pop(&ring, out, 3) == 3);
  CHECK(out[2].iteration == 2 && out[2].a == 20);
  CHECK(ws_ring_pop(&ring, out, 16) == 5);
  CHECK(out[4].iteration == 7);
  CHECK(ws_ring_pop(&ring, out, 16) == 0);
  CHECK(!ws_ring_stop_requested(&ring));
  ((int32_t *)region)[WS_CTL_STOP] = 1;
  CHECK(ws_ring_stop_requested(&ring));
  free(region);
}

typedef struct {
  ws_ring *ring;
  uint32_t total;
  uint32_t received;
  int in_order;
} consumer_args;

/* A deliberately slow consumer: pops a few records, then sleeps. */
static void *slow_consumer(void *arg) {
  consumer_args *c = arg;
  ws_record buf[5];
  while (c->received < c->total) {
    size_t n = ws_ring_pop(c->ring, buf, 5);
    for (size_t i = 0; i < n; i++)
      if (buf[i].iteration != c->received++)
        c->in_order = 0;
    nanosleep(&(struct timespec){0, 200000}, NULL);
  }
  return NULL;
}

static void test_ring_backpressure(void) {
  size_t bytes;
  void *region = make_region(16, &bytes);
  ws_ring ring;
  CHECK(ws_ring_attach(&ring, region, bytes) == 0);
  consumer_args c = {&ring, 2000, 0, 1};
  pthread_t thread;
  pthread_create(&thread, NULL, slow_consumer, &c);
  uint64_t waited = 0;
  for (uint32_t i = 0; i < c.total; i++) {
    ws_record rec = {WS_REC_CALL, 0, 0, i, i, 0, 0};
    waited += ws_ring_push(&ring, &rec);
  }
  pthread_join(thread, NULL);
  CHECK(c.received == c.total);
  CHECK(c.in_order);
  CHECK(waited > 0);
  CHECK(((int32_t *)region)[WS_CTL_WAITING] == 0);
  free(region);
}

static void test_rng(void) {
  ws_rng a, b;
  ws_rng_seed(&a, 42);
  ws_rng_seed(&b, 42);
  int same = 1;
  for (int i = 0; i < 100; i++)
    same &= ws_rng_next(&a) == ws_rng_next(&b);
  CHECK(same);
  ws_rng_seed(&b, 43);
  CHECK(ws_rng_next(&a) != ws_rng_next(&b));
  int in_range = 1, saw_lo = 0, saw_hi = 0;
  for (int i = 0; i < 10000; i++) {
    uint64_t x = ws_rng_range(&a, 5, 9);
    in_range &= x >= 5 && x <= 9;
    saw_lo |= x == 5;
    saw_hi |= x == 9;
  }
  CHECK(in_range && saw_lo && saw_hi);
  uint64_t cumulative[3] = {5, 6, 16}; /* weights 5, 1, 10 */
  int counts[3] = {0, 0, 0};
  for (int i = 0; i < 16000; i++)
    counts[ws_rng_pick(&a, cumulative, 3)]++;
  CHECK(counts[0] > 4500 && counts[0] < 5500);
  CHECK(counts[1] > 700 && counts[1] < 1300);
  CHECK(counts[2] > 9400 && counts[2] < 10600);
  uint8_t buf[13] = {0};
  ws_rng_fill(&a, buf, sizeof buf);
  int nonzero = 0;
  for (size_t i = 0; i < sizeof buf; i++)
    nonzero += buf[i] != 0;
  CHECK(nonzero > 8);
}

/* Writes a log with the given header and records, then torn extra bytes. */
static void write_log(const char *path, const char *header, uint32_t n, size_t torn) {
  FILE *f = fopen(path, "wb");
  uint32_t version = WS_LOG_VERSION, len = (uint32_t)strlen(header);
  fwrite(WS_LOG_MAGIC, 1, 8, f);
  fwrite(&version, 4, 1, f);
  fwrite(&len, 4, 1, f);
  fwrite(header, 1, len, f);
  for (size_t pad = (16 + len) % 32; pad != 0 && pad < 32; pad++)
    fputc(0, f);
  for (uint32_t i = 0; i < n; i++) {
    ws_record rec = {WS_REC_CALL, WS_FLAG_GREW, 3, i, 1000u + i, 65536u * i, 7u * i};
    fwrite(&rec, sizeof rec, 1, f);
  }
  for (size_t i = 0; i < torn; i++)
    fputc(0xab, f);
  fclose(f);
}

static void test_log_round_trip(void) {
  const char *path = "build/ctest/round-trip.wslog";
  write_log(path, "{\"format\":\"wasm-soak-log\"}", 100, 0);
  ws_log *log = NULL;
  CHECK(ws_log_open(path, &log) == 0);
  CHECK(strcmp(ws_log_header(log), "{\"format\":\"wasm-soak-log\"}") == 0);
  CHECK(ws_log_record_count(log) == 100);
  CHECK(ws_log_torn_bytes(log) == 0);
  ws_record rec;
  uint32_t n = 0;
  int ok = 1;
  while (ws_log_next(log, &rec) == 1) {
    ok &= rec.type == WS_REC_CALL && rec.flags == WS_FLAG_GREW && rec.op == 3;
    ok &= rec.iteration == n && rec.a == 1000u + n && rec.b == 65536u * n &&
          rec.t == 7u * n;
    n++;
  }
  CHECK(ok && n == 100);
  ws_log_close(log);

  write_log(path, "{}", 10, 19);
  CHECK(ws_log_open(path, &log) == 0);
  CHECK(ws_log_record_count(log) == 10);
  CHECK(ws_log_torn_bytes(log) == 19);
  n = 0;
  while (ws_log_next(log, &rec) == 1)
    n++;
  CHECK(n == 10);
  ws_log_close(log);

  FILE *f = fopen(path, "wb");
  fputs("not a log at all, really", f);
  fclose(f);
  CHECK(ws_log_open(path, &log) == WS_EFORMAT);
  CHECK(ws_log_open("build/ctest/does-not-exist", &log) == WS_EIO);
  CHECK(strcmp(ws_errname(WS_EFORMAT), "WS_EFORMAT") == 0);
}

static void test_rss(void) {
  int fd = ws_rss_open();
  CHECK(fd >= 0);
  uint64_t before = 0, after = 0;
  CHECK(ws_rss_read(fd, &before) == 0);
  CHECK(before > 1024 * 1024);
  size_t big = 64u << 20;
  char *block = malloc(big);
  memset(block, 1, big);
  CHECK(ws_rss_read(fd, &after) == 0);
  CHECK(after >= before + big / 2);
  free(block);
  close(fd);
  CHECK(ws_rss_read(-1, &after) == WS_EIO);
}

int main(void) {
  test_ring_basic();
  test_ring_backpressure();
  test_rng();
  test_log_round_trip();
  test_rss();
  return check_report("core");
}
