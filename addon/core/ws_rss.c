/* The resident set size from /proc/self/statm (ws_rss.h). */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "ws.h"

int ws_rss_open(void) {
  return open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
}

/* statm's second field is the resident set in pages. */
int ws_rss_read(int fd, uint64_t *bytes) {
  char buf[128];
  ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  if (n <= 0)
    return WS_EIO;
  buf[n] = '\0';
  char *end;
  strtoull(buf, &end, 10);
  if (end == buf || *end != ' ')
    return WS_EFORMAT;
  char *resident = end + 1;
  unsigned long long pages = strtoull(resident, &end, 10);
  if (end == resident)
    return WS_EFORMAT;
  *bytes = (uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE);
  return 0;
}
