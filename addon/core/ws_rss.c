#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "ws.h"

/* Opens /proc/self/statm for repeated reads; returns the descriptor, or -1
 * where it does not exist (not Linux). The caller closes it with close(). */
int ws_rss_open(void) {
  return open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
}

/* Reads the resident set size through fd (from ws_rss_open) into *bytes:
 * the second field of statm, in pages. Returns 0, WS_EIO on a failed read or
 * WS_EFORMAT on unexpected content. */
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
