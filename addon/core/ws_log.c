/* The sample log reader (ws_log.h, docs/log-format.md): opens a log (a file,
 * mapped read-only, or the same bytes in memory: every read goes through
 * view_at, which hands out the bytes in place, never copied), checks its
 * preamble, hands out its JSON header and then its records one by one,
 * never the torn tail of a crashed run. A file is read up to the size it
 * had when opened (a log still being written grows past it: only what was
 * there is read). A version-2 log is read
 * block by block: a block whose header or records fail their checksum is
 * skipped, and the reader resynchronises on the next sync marker whose
 * header checks, noting the damaged stretch and the records it lost.
 * Version 1 (bare records) is read as before. A large version-2 log's
 * checksums are also verified ahead by a second thread (the checker), so
 * that the reader, behind it, skips those of the blocks it vouched for. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "ws.h"
#include "ws_internal.h"

/* Bytes searched per step for the next sync marker. */
#define SCAN_CHUNK 65536
/* The smallest record area a checker thread is started for: below it the
 * thread costs more than the checksums it takes over. */
#define CHECKER_MIN_BYTES (8u << 20)
/* A file's mapping is given back behind the reader this many bytes at a
 * time (a multiple of every page size): a long log is never resident whole
 * (its pages count in the process's RSS while mapped). */
#define RELEASE_STEP (8u << 20)
/* How far the checker runs ahead of the reader at most: what it reads is
 * mapped, and counts in the RSS, until the reader has passed it. */
#define CHECKER_AHEAD (2 * RELEASE_STEP)

struct ws_log {
  const uint8_t *mem; /* the log's bytes: a file's mapping, or the caller's */
  void *map;          /* a file: its mapping (owned; NULL for a log in memory) */
  uint64_t released;  /* the mapping's bytes below this are unmapped */
  char *header;       /* NUL-terminated JSON */
  uint32_t version;
  uint64_t size;       /* file size */
  uint64_t pos;        /* offset of the next unread byte of the record area */
  uint64_t records;    /* version 1: complete records; 2: an upper bound */
  uint64_t read;       /* version 1: records returned so far */
  uint32_t torn_bytes; /* bytes of an incomplete last record */
  /* Version 2: the current block. */
  const uint8_t *block;  /* its records, in place (valid until the next view_at) */
  uint32_t block_n;      /* records in it */
  uint32_t block_i;      /* the next one to return */
  uint64_t next_index;   /* index the next block has when none was lost */
  ws_log_damage *damage; /* damaged stretches, in file order */
  size_t n_damage, cap_damage;
  int damage_open;          /* the last stretch's lost records await a good block */
  int damage_wants_iter;    /* the last stretch awaits before_iteration */
  int64_t last_iteration;   /* iteration of the last record returned, -1: none */
  ws_iteration_track track; /* unwraps the records' iterations */
  /* The checker (version 2, large logs): walks the chain of blocks from the
   * first, each one right after the last, verifying checksums, and stops at
   * the first that is not intact or whole. Blocks [vouched_from, verified)
   * are the ones it vouched for; the reader's block `loaded` (counted from
   * the first) is the checker's block of the same number while loaded <
   * verified: both walk the same chain, and the reader leaves it only at a
   * block the checker stopped at, never to come back below verified. A
   * checker the reader overtook walks the chain's headers on past it and
   * vouches again from there (vouched_from moves up, then verified). */
  pthread_t checker;
  int has_checker;
  uint64_t data_start; /* offset of the first block */
  uint64_t loaded;     /* intact blocks the reader loaded */
  size_t vouched_from; /* atomic: written by the checker before verified */
  int off_chain;       /* the reader skipped damage: it vouches for itself */
  size_t overtaken;    /* atomic: times the reader overtook the checker */
  int held;            /* atomic: the checker waits to be let go (tests) */
  size_t verified;     /* atomic: written by the checker */
  uint64_t checker_at; /* atomic: the checker reads nothing below it */
  uint64_t reader_at;  /* atomic: log->pos as the reader last told it */
  int waiting;         /* atomic: the checker waits on moved for the reader */
  int done;            /* under lock: the checker has stopped */
  pthread_mutex_t lock;
  pthread_cond_t moved;  /* the reader moved on, or asks the checker to stop */
  pthread_cond_t paused; /* the checker waits for the reader, or has stopped */
  int stop;              /* atomic: the reader asks the checker to stop */
};

static inline uint32_t le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}

static inline uint64_t le64(const uint8_t *p) {
  return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(v >> 8 * i);
}

static void put64(uint8_t *p, uint64_t v) {
  put32(p, (uint32_t)v);
  put32(p + 4, (uint32_t)(v >> 32));
}

void ws__record_decode(const uint8_t *raw, ws_record *rec) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  /* The record's bytes are the struct's (ws_protocol.h): one wide copy.
   * Field by field, the narrow stores made the next read of type and op
   * wait on each (a stalled store-forward per record, a sixth of the
   * decode). */
  memcpy(rec, raw, WS_RECORD_SIZE);
#else
  rec->type = raw[0];
  rec->flags = raw[1];
  rec->op = (uint16_t)(raw[2] | raw[3] << 8);
  rec->iteration = le32(raw + 4);
  rec->a = le64(raw + 8);
  rec->b = le64(raw + 16);
  rec->t = le64(raw + 24);
#endif
}

uint64_t ws_iteration_near(uint64_t near, uint32_t low) {
  int64_t diff = (int32_t)(low - (uint32_t)near);
  if (diff < 0 && (uint64_t)(-diff) > near)
    return low;
  return near + (uint64_t)diff; /* wraps modulo 2^64: near - |diff| when negative */
}

uint64_t ws_iteration_next(ws_iteration_track *tr, const ws_record *rec) {
  if (rec->type == WS_REC_MARK && rec->op == WS_MARK_ITERATION)
    return tr->last = rec->a;
  uint64_t it = ws_iteration_near(tr->last, rec->iteration);
  if (rec->type != WS_REC_SUMMARY)
    tr->last = it;
  return it;
}

void ws_iteration_scan(ws_iteration_track *tr, const uint8_t *bytes, size_t n,
                       int64_t *first_call, int64_t *last_call) {
  *first_call = *last_call = -1;
  for (size_t k = 0; k < n; k++) {
    ws_record rec;
    ws__record_decode(bytes + k * WS_RECORD_SIZE, &rec);
    uint64_t it = ws_iteration_next(tr, &rec);
    if (rec.type != WS_REC_CALL)
      continue;
    if (*first_call < 0)
      *first_call = (int64_t)it;
    *last_call = (int64_t)it;
  }
}

/* Block header layout (docs/log-format.md, "Blocks"). */
enum { BH_COUNT = 8, BH_CRC = 12, BH_INDEX = 16, BH_SEQ = 24, BH_SELF = 28 };

void ws_log_block_header(uint8_t out[WS_RECORD_SIZE], const void *records, uint32_t n,
                         uint64_t index, uint32_t seq) {
  memcpy(out, WS_LOG_SYNC, WS_LOG_SYNC_BYTES);
  put32(out + BH_COUNT, n);
  put32(out + BH_CRC, ws_crc32c(records, (size_t)n * WS_RECORD_SIZE));
  put64(out + BH_INDEX, index);
  put32(out + BH_SEQ, seq);
  put32(out + BH_SELF, ws_crc32c(out, BH_SELF));
}

/* Returns 1 when raw[0..32) is a block header whose marker, count and own
 * checksum are right. */
static int header_valid(const uint8_t *raw) {
  uint32_t n = le32(raw + BH_COUNT);
  return memcmp(raw, WS_LOG_SYNC, WS_LOG_SYNC_BYTES) == 0 && n >= 1 &&
         n <= WS_LOG_BLOCK_RECORDS && le32(raw + BH_SELF) == ws_crc32c(raw, BH_SELF);
}

/* Points *p at the len bytes at offset (offset + len <= log->size), in the
 * log's bytes. Returns 0 or WS_EIO. */
static int view_at(const ws_log *log, uint64_t offset, size_t len, const uint8_t **p) {
  if (offset < log->released || offset > log->size || len > log->size - offset)
    return WS_EIO;
  *p = log->mem + offset;
  return 0;
}

/* How far past the reader a checker the reader overtook starts vouching
 * again: the reader checks the blocks in between itself meanwhile. */
#define CHECKER_LEAP (1u << 20)

/* Returns the position of the first block at least CHECKER_LEAP past
 * `past` along the chain from pos (block number *done, advanced), walking
 * the blocks' headers only; or 0 when a header is not intact or a block
 * not whole before it (the checker stops there). */
static uint64_t leap(const ws_log *log, uint64_t pos, uint64_t past, size_t *done) {
  while (pos < past + CHECKER_LEAP) {
    if (log->size - pos < WS_RECORD_SIZE || !header_valid(log->mem + pos))
      return 0;
    uint64_t body = (uint64_t)le32(log->mem + pos + BH_COUNT) * WS_RECORD_SIZE;
    if (log->size - pos - WS_RECORD_SIZE < body)
      return 0;
    pos += WS_RECORD_SIZE + body;
    (*done)++;
  }
  return pos;
}

/* The checker thread (struct ws_log): verifies the chain of blocks from
 * the first until one is not intact or whole, or the reader asks it to
 * stop, counting them in log->verified. Overtaken by the reader, it leaps
 * past it (leap) and vouches from there. Reads only the log's bytes. */
static void *check_blocks(void *arg) {
  ws_log *log = arg;
  uint64_t pos = log->data_start;
  size_t done = 0;
  while (!__atomic_load_n(&log->stop, __ATOMIC_RELAXED) &&
         log->size - pos >= WS_RECORD_SIZE) {
    __atomic_store_n(&log->checker_at, pos, __ATOMIC_RELEASE);
    uint64_t reader = __atomic_load_n(&log->reader_at, __ATOMIC_SEQ_CST);
    if (reader > pos) {
      /* Overtaken: the reader checks the blocks up to the leap itself. */
      __atomic_add_fetch(&log->overtaken, 1, __ATOMIC_SEQ_CST);
      if ((pos = leap(log, pos, reader, &done)) == 0)
        break;
      __atomic_store_n(&log->vouched_from, done, __ATOMIC_RELEASE);
      continue;
    }
    if (pos - reader > CHECKER_AHEAD || __atomic_load_n(&log->held, __ATOMIC_SEQ_CST)) {
      /* Far enough ahead, or held (a test): waits for the reader
       * (ws__log_span wakes it) or to be let go. */
      pthread_mutex_lock(&log->lock);
      __atomic_store_n(&log->waiting, 1, __ATOMIC_SEQ_CST);
      pthread_cond_broadcast(&log->paused);
      if (!__atomic_load_n(&log->stop, __ATOMIC_SEQ_CST) &&
          (pos - __atomic_load_n(&log->reader_at, __ATOMIC_SEQ_CST) > CHECKER_AHEAD ||
           __atomic_load_n(&log->held, __ATOMIC_SEQ_CST)))
        pthread_cond_wait(&log->moved, &log->lock);
      __atomic_store_n(&log->waiting, 0, __ATOMIC_SEQ_CST);
      pthread_mutex_unlock(&log->lock);
      continue;
    }
    const uint8_t *raw = log->mem + pos;
    if (!header_valid(raw))
      break;
    uint64_t body = (uint64_t)le32(raw + BH_COUNT) * WS_RECORD_SIZE;
    if (log->size - pos - WS_RECORD_SIZE < body ||
        le32(raw + BH_CRC) != ws_crc32c(raw + WS_RECORD_SIZE, (size_t)body))
      break;
    pos += WS_RECORD_SIZE + body;
    __atomic_store_n(&log->verified, ++done, __ATOMIC_RELEASE);
  }
  __atomic_store_n(&log->checker_at, UINT64_MAX, __ATOMIC_RELEASE);
  pthread_mutex_lock(&log->lock);
  log->done = 1;
  pthread_cond_broadcast(&log->paused);
  pthread_mutex_unlock(&log->lock);
  return NULL;
}

/* Starts the checker for a version-2 log of at least CHECKER_MIN_BYTES of
 * records (the reader checks every block itself when it cannot start). */
static void start_checker(ws_log *log) {
  if (log->version < 2 || log->size - log->data_start < CHECKER_MIN_BYTES)
    return;
  log->checker_at = log->reader_at = log->data_start;
  if (pthread_mutex_init(&log->lock, NULL) != 0)
    return;
  if (pthread_cond_init(&log->moved, NULL) == 0) {
    if (pthread_cond_init(&log->paused, NULL) == 0) {
      if (pthread_create(&log->checker, NULL, check_blocks, log) == 0) {
        log->has_checker = 1;
        return;
      }
      pthread_cond_destroy(&log->paused);
    }
    pthread_cond_destroy(&log->moved);
  }
  pthread_mutex_destroy(&log->lock);
}

/* Reads the preamble and header of a log whose size is set into log.
 * Returns 0, WS_EFORMAT, WS_EIO or WS_ENOMEM. */
static int read_preamble(ws_log *log) {
  const uint8_t *pre;
  if (log->size < 16 || view_at(log, 0, 16, &pre) != 0)
    return WS_EFORMAT;
  log->version = le32(pre + 8);
  if (memcmp(pre, WS_LOG_MAGIC, 8) != 0 || log->version < WS_LOG_OLDEST_VERSION ||
      log->version > WS_LOG_VERSION)
    return WS_EFORMAT;
  uint32_t header_len = le32(pre + 12);
  if (log->size < 16 + (uint64_t)header_len)
    return WS_EFORMAT;
  uint64_t data_start =
      ((uint64_t)16 + header_len + WS_RECORD_SIZE - 1) / WS_RECORD_SIZE * WS_RECORD_SIZE;
  log->header = malloc((size_t)header_len + 1);
  if (log->header == NULL)
    return WS_ENOMEM;
  const uint8_t *src;
  if (view_at(log, 16, header_len, &src) != 0)
    return WS_EIO;
  memcpy(log->header, src, header_len);
  log->header[header_len] = '\0';
  uint64_t data_bytes = log->size > data_start ? log->size - data_start : 0;
  log->records = data_bytes / WS_RECORD_SIZE;
  log->pos = log->data_start = data_start;
  if (log->version == 1) {
    log->torn_bytes = (uint32_t)(data_bytes % WS_RECORD_SIZE);
  }
  return 0;
}

/* Reads the preamble of log (its source and size set) and hands it to *out;
 * on failure closes it. Returns what read_preamble returns. */
static int finish_open(ws_log *log, ws_log **out) {
  int err = read_preamble(log);
  if (err != 0) {
    ws_log_close(log);
    return err;
  }
  start_checker(log);
  *out = log;
  return 0;
}

int ws_log_open(const char *path, ws_log **out) {
  ws_log *log = calloc(1, sizeof *log);
  if (log == NULL)
    return WS_ENOMEM;
  log->last_iteration = -1;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    free(log);
    return WS_EIO;
  }
  struct stat st;
  int err = fstat(fd, &st) != 0 ? WS_EIO : 0;
  if (err == 0 && st.st_size > 0) {
    /* One read-only mapping of the size it has now: the kernel's page cache
     * read in place (a read into a buffer cost a quarter of the decode). */
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED)
      err = errno == ENOMEM ? WS_ENOMEM : WS_EIO;
    else {
      posix_madvise(map, (size_t)st.st_size, POSIX_MADV_SEQUENTIAL);
      log->map = map;
      log->mem = map;
      log->size = (uint64_t)st.st_size;
    }
  }
  close(fd);
  if (err != 0) {
    free(log);
    return err;
  }
  return finish_open(log, out);
}

int ws_log_open_memory(const void *data, size_t len, ws_log **out) {
  ws_log *log = calloc(1, sizeof *log);
  if (log == NULL)
    return WS_ENOMEM;
  log->last_iteration = -1;
  log->mem = data;
  log->size = data == NULL ? 0 : (uint64_t)len;
  return finish_open(log, out);
}

uint32_t ws_log_version(const ws_log *log) {
  return log->version;
}

const char *ws_log_header(const ws_log *log) {
  return log->header;
}

uint64_t ws_log_record_count(const ws_log *log) {
  return log->records;
}

uint64_t ws_log_iteration(const ws_log *log) {
  return log->last_iteration < 0 ? 0 : (uint64_t)log->last_iteration;
}

uint32_t ws_log_torn_bytes(const ws_log *log) {
  return log->torn_bytes;
}

size_t ws_log_damage_count(const ws_log *log) {
  return log->n_damage;
}

const ws_log_damage *ws_log_damage_at(const ws_log *log, size_t i) {
  return &log->damage[i];
}

/* Notes bytes [offset, offset + bytes) as damaged: extends the open
 * stretch when it ends there, else starts a new one. Returns 0 or
 * WS_ENOMEM. */
static int note_damage(ws_log *log, uint64_t offset, uint64_t bytes) {
  if (log->damage_open) {
    ws_log_damage *d = &log->damage[log->n_damage - 1];
    if (d->offset + d->bytes == offset) {
      d->bytes += bytes;
      return 0;
    }
  }
  if (log->n_damage == log->cap_damage) {
    size_t cap = log->cap_damage ? log->cap_damage * 2 : 8;
    ws_log_damage *p = realloc(log->damage, cap * sizeof *p);
    if (p == NULL)
      return WS_ENOMEM;
    log->damage = p;
    log->cap_damage = cap;
  }
  ws_log_damage *d = &log->damage[log->n_damage++];
  d->offset = offset;
  d->bytes = bytes;
  d->records = 0;
  d->records_estimated = 0;
  d->after_iteration = log->last_iteration;
  d->before_iteration = -1;
  log->damage_open = 1;
  log->damage_wants_iter = 1;
  return 0;
}

/* Closes the open damaged stretch at a good block of the given index: the
 * records lost are those the index skips. */
static void close_damage(ws_log *log, uint64_t index) {
  if (!log->damage_open)
    return;
  ws_log_damage *d = &log->damage[log->n_damage - 1];
  d->records = index > log->next_index ? index - log->next_index : 0;
  log->damage_open = 0;
}

/* Returns the offset of the first valid block header after from (or the
 * file size when there is none) in *found. Returns 0 or WS_EIO. */
static int find_block(ws_log *log, uint64_t from, uint64_t *found) {
  uint64_t at = from;
  while (at + WS_RECORD_SIZE <= log->size) {
    uint64_t left = log->size - at;
    size_t len =
        left < SCAN_CHUNK + WS_RECORD_SIZE ? (size_t)left : SCAN_CHUNK + WS_RECORD_SIZE;
    const uint8_t *buf;
    if (view_at(log, at, len, &buf) != 0)
      return WS_EIO;
    for (size_t i = 0; i + WS_RECORD_SIZE <= len; i++) {
      const uint8_t *p = memchr(buf + i, WS_LOG_SYNC[0], len - WS_RECORD_SIZE + 1 - i);
      if (p == NULL)
        break;
      i = (size_t)(p - buf);
      if (header_valid(p)) {
        *found = at + i;
        return 0;
      }
    }
    /* The last 31 bytes may start a header that crosses the chunk's end. */
    at += len - WS_RECORD_SIZE + 1;
  }
  *found = log->size;
  return 0;
}

/* Notes the bytes from log->pos up to the next valid block header (or the
 * end) as damaged and moves log->pos there. Returns 0, WS_EIO or
 * WS_ENOMEM. */
static int skip_damage(ws_log *log) {
  /* Off the checker's chain from here (a leap walked past this block
   * unchecked): its count of blocks is no longer the reader's. */
  log->off_chain = 1;
  uint64_t next;
  if (find_block(log, log->pos + 1, &next) != 0)
    return WS_EIO;
  if (note_damage(log, log->pos, next - log->pos) != 0)
    return WS_ENOMEM;
  log->pos = next;
  return 0;
}

/* Loads the next intact block at or after log->pos into log->block, noting
 * damaged stretches on the way. Returns 1 when a block was loaded, 0 at the
 * end, or a negative code. */
static int load_block(ws_log *log) {
  const uint8_t *raw;
  while (log->pos < log->size) {
    uint64_t left = log->size - log->pos;
    if (left < WS_RECORD_SIZE) {
      /* A header cut short by a crash: torn; after damage: more damage. */
      if (!log->damage_open) {
        log->torn_bytes = (uint32_t)left;
        return 0;
      }
      if (note_damage(log, log->pos, left) != 0)
        return WS_ENOMEM;
      log->pos = log->size;
      break;
    }
    /* The header and as much of its block as the file holds, in one view. */
    uint64_t body_max = (uint64_t)WS_LOG_BLOCK_RECORDS * WS_RECORD_SIZE;
    size_t span =
        (size_t)(left < WS_RECORD_SIZE + body_max ? left : WS_RECORD_SIZE + body_max);
    if (view_at(log, log->pos, span, &raw) != 0)
      return WS_EIO;
    if (!header_valid(raw)) {
      int err = skip_damage(log);
      if (err != 0)
        return err;
      continue;
    }
    uint32_t n = le32(raw + BH_COUNT);
    uint64_t index = le64(raw + BH_INDEX);
    uint64_t body = (uint64_t)n * WS_RECORD_SIZE;
    uint64_t have = left - WS_RECORD_SIZE;
    if (have < body) {
      /* The last block, cut short (a crash or a full disk): its complete
       * records were written whole before the cut; no checksum covers a
       * part, so they are kept as written. */
      uint32_t complete = (uint32_t)(have / WS_RECORD_SIZE);
      log->block = raw + WS_RECORD_SIZE;
      close_damage(log, index);
      log->torn_bytes = (uint32_t)(have % WS_RECORD_SIZE);
      log->block_n = complete;
      log->block_i = 0;
      log->next_index = index + complete;
      log->pos = log->size;
      return complete > 0;
    }
    log->block = raw + WS_RECORD_SIZE;
    /* verified first: a leap's vouched_from is stored before the blocks
     * after it are counted in verified. */
    size_t verified = __atomic_load_n(&log->verified, __ATOMIC_ACQUIRE);
    int vouched =
        !log->off_chain && log->loaded < (uint64_t)verified &&
        log->loaded >= (uint64_t)__atomic_load_n(&log->vouched_from, __ATOMIC_ACQUIRE);
    if (!vouched && le32(raw + BH_CRC) != ws_crc32c(log->block, (size_t)body)) {
      /* The header is intact but a record is not: the block is lost. The
       * next header is searched from here, not taken at the block's end,
       * in case bytes were lost or added (a shifted stretch). */
      int err = skip_damage(log);
      if (err != 0)
        return err;
      continue;
    }
    close_damage(log, index);
    log->block_n = n;
    log->block_i = 0;
    log->next_index = index + n;
    log->pos += WS_RECORD_SIZE + body;
    log->loaded++;
    return 1;
  }
  if (log->damage_open) {
    /* Damage up to the end: no later index says how many records it held. */
    ws_log_damage *d = &log->damage[log->n_damage - 1];
    d->records = d->bytes / WS_RECORD_SIZE;
    d->records_estimated = 1;
    log->damage_open = 0;
  }
  return 0;
}

/* Reads the next record of a version-1 log (bare records) into raw.
 * Returns 1, 0 at the end, or WS_EIO. */
static int next_v1(ws_log *log, const uint8_t **raw) {
  if (log->read >= log->records)
    return 0;
  if (view_at(log, log->pos, WS_RECORD_SIZE, raw) != 0)
    return WS_EIO;
  log->pos += WS_RECORD_SIZE;
  log->read++;
  return 1;
}

/* Wakes the checker when it waits for the reader to move on. */
static void wake_checker(ws_log *log) {
  if (!__atomic_load_n(&log->waiting, __ATOMIC_SEQ_CST))
    return;
  pthread_mutex_lock(&log->lock);
  pthread_cond_signal(&log->moved);
  pthread_mutex_unlock(&log->lock);
}

/* Unmaps the whole steps of a file's mapping below what the reader and the
 * checker still read (both only move on), and tells the checker where the
 * reader is. */
static void release_behind(ws_log *log) {
  if (log->has_checker) {
    __atomic_store_n(&log->reader_at, log->pos, __ATOMIC_SEQ_CST);
    wake_checker(log);
  }
  if (log->map == NULL)
    return;
  uint64_t below = log->pos;
  if (log->has_checker) {
    uint64_t at = __atomic_load_n(&log->checker_at, __ATOMIC_ACQUIRE);
    below = at < below ? at : below;
  }
  below -= below % RELEASE_STEP;
  if (below <= log->released)
    return;
  munmap((uint8_t *)log->map + log->released, (size_t)(below - log->released));
  log->released = below;
}

int ws_log_next(ws_log *log, ws_record *rec) {
  const uint8_t *src;
  if (log->version == 1) {
    int got = next_v1(log, &src);
    if (got != 1)
      return got;
  } else {
    if (log->block_i >= log->block_n)
      release_behind(log);
    while (log->block_i >= log->block_n) {
      int got = load_block(log);
      if (got != 1)
        return got;
    }
    src = log->block + (size_t)log->block_i++ * WS_RECORD_SIZE;
  }
  ws__record_decode(src, rec);
  int64_t it = (int64_t)ws_iteration_next(&log->track, rec);
  if (log->damage_wants_iter) {
    log->damage[log->n_damage - 1].before_iteration = it;
    log->damage_wants_iter = 0;
  }
  log->last_iteration = it;
  return 1;
}

int ws__log_span(ws_log *log, const uint8_t **raw, size_t *n) {
  release_behind(log);
  if (log->version == 1) {
    if (log->read >= log->records)
      return 0;
    uint64_t rest = log->records - log->read;
    size_t left = rest < WS_LOG_BLOCK_RECORDS ? (size_t)rest : WS_LOG_BLOCK_RECORDS;
    if (view_at(log, log->pos, left * WS_RECORD_SIZE, raw) != 0)
      return WS_EIO;
    log->pos += (uint64_t)left * WS_RECORD_SIZE;
    log->read += left;
    *n = left;
    return 1;
  }
  while (log->block_i >= log->block_n) {
    int got = load_block(log);
    if (got != 1)
      return got;
  }
  *raw = log->block + (size_t)log->block_i * WS_RECORD_SIZE;
  *n = log->block_n - log->block_i;
  log->block_i = log->block_n;
  return 1;
}

int ws__log_settle(ws_log *log) {
  if (!log->has_checker)
    return 0;
  pthread_mutex_lock(&log->lock);
  while (!log->done && !__atomic_load_n(&log->waiting, __ATOMIC_SEQ_CST))
    pthread_cond_wait(&log->paused, &log->lock);
  pthread_mutex_unlock(&log->lock);
  return 1;
}

void ws__log_hold_checker(ws_log *log, int hold) {
  if (!log->has_checker)
    return;
  pthread_mutex_lock(&log->lock);
  __atomic_store_n(&log->held, hold, __ATOMIC_SEQ_CST);
  pthread_cond_signal(&log->moved);
  pthread_mutex_unlock(&log->lock);
}

size_t ws__log_overtaken(ws_log *log) {
  return __atomic_load_n(&log->overtaken, __ATOMIC_SEQ_CST);
}

ws_iteration_track *ws__log_track(ws_log *log) {
  return &log->track;
}

void ws__log_seen(ws_log *log, uint64_t first, uint64_t last) {
  if (log->damage_wants_iter) {
    log->damage[log->n_damage - 1].before_iteration = (int64_t)first;
    log->damage_wants_iter = 0;
  }
  log->last_iteration = (int64_t)last;
}

void ws_log_close(ws_log *log) {
  if (log == NULL)
    return;
  if (log->has_checker) {
    __atomic_store_n(&log->stop, 1, __ATOMIC_SEQ_CST);
    pthread_mutex_lock(&log->lock);
    pthread_cond_signal(&log->moved);
    pthread_mutex_unlock(&log->lock);
    pthread_join(log->checker, NULL);
    pthread_cond_destroy(&log->paused);
    pthread_cond_destroy(&log->moved);
    pthread_mutex_destroy(&log->lock);
  }
  if (log->map != NULL)
    munmap((uint8_t *)log->map + log->released, (size_t)(log->size - log->released));
  free(log->header);
  free(log->damage);
  free(log);
}
