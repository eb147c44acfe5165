/* Tests of the log reader: round trip, torn tail, not a log. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ws.h"

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

int main(void) {
  test_log_round_trip();
  return check_report("log");
}
