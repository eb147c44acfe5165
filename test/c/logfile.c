/* Writing sample logs by hand for the C core tests (logfile.h). */
#include "logfile.h"

#include <string.h>

#include "ws.h"

FILE *ws_test_log_start(const char *path, const char *header, uint32_t version) {
  FILE *f = fopen(path, "wb");
  uint32_t len = (uint32_t)strlen(header);
  fwrite(WS_LOG_MAGIC, 1, 8, f);
  fwrite(&version, 4, 1, f);
  fwrite(&len, 4, 1, f);
  fwrite(header, 1, len, f);
  for (size_t pad = (16 + len) % 32; pad != 0 && pad < 32; pad++)
    fputc(0, f);
  return f;
}
