/* Tests of the record ring, back-pressure with a slow consumer thread
 * included. */
#define _DEFAULT_SOURCE /* mincore, MAP_ANONYMOUS */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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

/* A record written in place is the consumer's only once published. */
static void test_ring_in_place(void) {
  size_t bytes;
  void *region = make_region(4, &bytes);
  ws_ring ring;
  CHECK(ws_ring_attach(&ring, region, bytes) == 0);
  ws_record out[8];
  for (uint32_t i = 0; i < 6; i++) { /* wraps past the capacity */
    CHECK(ws_ring_wait(&ring) == 0);
    *ws_ring_slot(&ring) = (ws_record){WS_REC_CALL, 0, 2, i, i * 10u, 0, 0};
    CHECK(ws_ring_pop(&ring, out, 8) == 0);
    ws_ring_publish(&ring);
    CHECK(ws_ring_pop(&ring, out, 8) == 1);
    CHECK(out[0].iteration == i && out[0].a == i * 10u && out[0].op == 2);
  }
  free(region);
}

/* Pages of [region, region + bytes) that are resident (mincore). */
static size_t resident_pages(void *region, size_t bytes) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE), n = (bytes + page - 1) / page, count = 0;
  unsigned char *vec = malloc(n);
  CHECK(mincore(region, bytes, vec) == 0);
  for (size_t i = 0; i < n; i++)
    count += vec[i] & 1;
  free(vec);
  return count;
}

/* Prefaulting maps in every page of the free slots, wrapped past the end
 * too, and keeps the records published but not read. */
static void test_ring_prefault(void) {
  uint32_t capacity = 1024; /* 32 KiB of slots: eight 4 KiB pages or more */
  size_t bytes = ws_ring_region_bytes(capacity), page = (size_t)sysconf(_SC_PAGESIZE);
  size_t pages = (bytes + page - 1) / page;
  for (uint32_t at = 0; at < capacity; at += capacity - 8) { /* 0, then near the end */
    int32_t *region =
        mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(region != MAP_FAILED);
    region[WS_CTL_CAPACITY] = (int32_t)capacity; /* maps the header's page only */
    region[WS_CTL_READ] = region[WS_CTL_WRITE] = (int32_t)at;
    ws_ring ring;
    CHECK(ws_ring_attach(&ring, region, bytes) == 0);
    ws_record rec = {WS_REC_CALL, 0, 1, 41, 410, 0, 0};
    ws_ring_put(&ring, &rec);
    CHECK(resident_pages(region, bytes) < pages);
    ws_ring_prefault(&ring);
    CHECK(resident_pages(region, bytes) == pages);
    ws_record out[2];
    CHECK(ws_ring_pop(&ring, out, 2) == 1 && out[0].iteration == 41 && out[0].a == 410);
    munmap(region, bytes);
  }
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

int main(void) {
  test_ring_basic();
  test_ring_in_place();
  test_ring_prefault();
  test_ring_backpressure();
  return check_report("ring");
}
