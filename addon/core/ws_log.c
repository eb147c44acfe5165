/* The sample log reader (ws_log.h, docs/log-format.md): opens a log, checks
 * its preamble, hands out its JSON header and then its records one by one,
 * never the torn tail of a crashed run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws.h"
#include "ws_internal.h"

struct ws_log {
  FILE *file;
  char *header;        /* NUL-terminated JSON */
  uint64_t records;    /* complete records in the file */
  uint64_t read;       /* records returned so far */
  uint32_t torn_bytes; /* bytes of an incomplete last record */
};

static uint32_t le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p) {
  return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

void ws__record_decode(const uint8_t *raw, ws_record *rec) {
  rec->type = raw[0];
  rec->flags = raw[1];
  rec->op = (uint16_t)(raw[2] | raw[3] << 8);
  rec->iteration = le32(raw + 4);
  rec->a = le64(raw + 8);
  rec->b = le64(raw + 16);
  rec->t = le64(raw + 24);
}

/* Reads the preamble and header of an open file into log. Returns 0,
 * WS_EFORMAT, WS_EIO or WS_ENOMEM. */
static int read_preamble(ws_log *log) {
  uint8_t pre[16];
  if (fread(pre, 1, sizeof pre, log->file) != sizeof pre)
    return WS_EFORMAT;
  if (memcmp(pre, WS_LOG_MAGIC, 8) != 0 || le32(pre + 8) != WS_LOG_VERSION)
    return WS_EFORMAT;
  uint32_t header_len = le32(pre + 12);
  if (fseek(log->file, 0, SEEK_END) != 0)
    return WS_EIO;
  long size = ftell(log->file);
  uint64_t data_start =
      ((uint64_t)16 + header_len + WS_RECORD_SIZE - 1) / WS_RECORD_SIZE * WS_RECORD_SIZE;
  if (size < 0 || (uint64_t)size < 16 + (uint64_t)header_len)
    return WS_EFORMAT;
  log->header = malloc((size_t)header_len + 1);
  if (log->header == NULL)
    return WS_ENOMEM;
  if (fseek(log->file, 16, SEEK_SET) != 0)
    return WS_EIO;
  if (fread(log->header, 1, header_len, log->file) != header_len)
    return WS_EIO;
  log->header[header_len] = '\0';
  uint64_t data_bytes = (uint64_t)size > data_start ? (uint64_t)size - data_start : 0;
  log->records = data_bytes / WS_RECORD_SIZE;
  log->torn_bytes = (uint32_t)(data_bytes % WS_RECORD_SIZE);
  if (fseek(log->file, (long)data_start, SEEK_SET) != 0)
    return WS_EIO;
  return 0;
}

int ws_log_open(const char *path, ws_log **out) {
  ws_log *log = calloc(1, sizeof *log);
  if (log == NULL)
    return WS_ENOMEM;
  log->file = fopen(path, "rb");
  if (log->file == NULL) {
    free(log);
    return WS_EIO;
  }
  setvbuf(log->file, NULL, _IOFBF, 1 << 20);
  int err = read_preamble(log);
  if (err != 0) {
    ws_log_close(log);
    return err;
  }
  *out = log;
  return 0;
}

const char *ws_log_header(const ws_log *log) {
  return log->header;
}

uint64_t ws_log_record_count(const ws_log *log) {
  return log->records;
}

uint32_t ws_log_torn_bytes(const ws_log *log) {
  return log->torn_bytes;
}

int ws_log_next(ws_log *log, ws_record *rec) {
  if (log->read >= log->records)
    return 0;
  uint8_t raw[WS_RECORD_SIZE];
  if (fread(raw, 1, sizeof raw, log->file) != sizeof raw)
    return WS_EIO;
  ws__record_decode(raw, rec);
  log->read++;
  return 1;
}

void ws_log_close(ws_log *log) {
  if (log == NULL)
    return;
  if (log->file != NULL)
    fclose(log->file);
  free(log->header);
  free(log);
}
