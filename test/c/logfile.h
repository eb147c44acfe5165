/* Writing sample logs by hand for the C core tests (test/c/logfile.c).
 * Test-only: not part of the addon. */
#ifndef WS_TEST_LOGFILE_H
#define WS_TEST_LOGFILE_H

#include <stdint.h>
#include <stdio.h>

/* Creates the log at path, writes its preamble (magic, the given version),
 * JSON header and padding (docs/log-format.md) and returns the open file,
 * positioned where the records start. */
FILE *ws_test_log_start(const char *path, const char *header, uint32_t version);

#endif
