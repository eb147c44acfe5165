/* Minimal assertion helpers for the C core tests. Each test program calls
 * CHECK(...) as often as it likes and returns check_report() from main(),
 * which prints "N passed, N failed" and fails the process on any failure. */
#ifndef WS_TEST_CHECK_H
#define WS_TEST_CHECK_H

#include <stdio.h>

static int check_passed;
static int check_failed;

#define CHECK(cond)                                                                      \
  do {                                                                                   \
    if (cond) {                                                                          \
      check_passed++;                                                                    \
    } else {                                                                             \
      check_failed++;                                                                    \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);           \
    }                                                                                    \
  } while (0)

static inline int check_report(const char *name) {
  printf("c: %s: %d passed, %d failed\n", name, check_passed, check_failed);
  return check_failed == 0 ? 0 : 1;
}

#endif
