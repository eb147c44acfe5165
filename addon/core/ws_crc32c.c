/* CRC-32C (Castagnoli, reflected polynomial 0x82f63b78), the checksum of
 * the sample log's blocks (docs/log-format.md): with SSE 4.2's crc32
 * instruction when the CPU has it (about 20 GB/s), else eight table
 * lookups per 8 bytes (slicing-by-8, about 2 GB/s). The two give the same
 * values. */
#include <string.h>

#include "ws_log.h"

static uint32_t table[8][256];
static int table_ready;

/* Fills the slicing-by-8 tables (idempotent; every thread computes the same
 * values, so a race only repeats work). */
static void build_table(void) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++)
      c = c & 1 ? c >> 1 ^ 0x82f63b78u : c >> 1;
    table[0][i] = c;
  }
  for (uint32_t i = 0; i < 256; i++)
    for (int s = 1; s < 8; s++)
      table[s][i] = table[s - 1][i] >> 8 ^ table[0][table[s - 1][i] & 0xff];
  table_ready = 1;
}

/* Updates crc (already inverted) over p[0..n) with the tables. */
static uint32_t crc_tables(uint32_t crc, const uint8_t *p, size_t n) {
  if (!table_ready)
    build_table();
  while (n >= 8) {
    uint32_t lo, hi;
    memcpy(&lo, p, 4);
    memcpy(&hi, p + 4, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    lo = __builtin_bswap32(lo);
    hi = __builtin_bswap32(hi);
#endif
    lo ^= crc;
    crc = table[7][lo & 0xff] ^ table[6][lo >> 8 & 0xff] ^ table[5][lo >> 16 & 0xff] ^
          table[4][lo >> 24] ^ table[3][hi & 0xff] ^ table[2][hi >> 8 & 0xff] ^
          table[1][hi >> 16 & 0xff] ^ table[0][hi >> 24];
    p += 8;
    n -= 8;
  }
  while (n-- > 0)
    crc = crc >> 8 ^ table[0][(crc ^ *p++) & 0xff];
  return crc;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <nmmintrin.h>

/* Updates crc (already inverted) over p[0..n) with the crc32 instruction. */
__attribute__((target("sse4.2"))) static uint32_t crc_sse42(uint32_t crc,
                                                            const uint8_t *p, size_t n) {
  uint64_t c = crc;
  while (n >= 8) {
    uint64_t w;
    memcpy(&w, p, 8);
    c = _mm_crc32_u64(c, w);
    p += 8;
    n -= 8;
  }
  uint32_t c32 = (uint32_t)c;
  while (n-- > 0)
    c32 = _mm_crc32_u8(c32, *p++);
  return c32;
}

static int have_sse42(void) {
  static int known = -1;
  if (known < 0)
    known = __builtin_cpu_supports("sse4.2") ? 1 : 0;
  return known;
}
#endif

uint32_t ws_crc32c(const void *data, size_t n) {
  const uint8_t *p = data;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  if (have_sse42())
    return ~crc_sse42(~0u, p, n);
#endif
  return ~crc_tables(~0u, p, n);
}

uint32_t ws__crc32c_portable(const void *data, size_t n) {
  return ~crc_tables(~0u, data, n);
}
