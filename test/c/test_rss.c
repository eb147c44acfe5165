/* Tests of the resident set size reader. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "ws.h"

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
  test_rss();
  return check_report("rss");
}
