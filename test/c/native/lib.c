/* The shared library test_native.c opens (built by test/c/Makefile into
 * build/ctest/libnative.so): one function per argument and result type the
 * native engine passes. */
#include <malloc.h>
#include <stdint.h>

/* Returns a + b. */
int32_t add_i32(int32_t a, int32_t b) {
  return a + b;
}

/* Returns a * 3 + b. */
int64_t mix_i64(int64_t a, int32_t b) {
  return a * 3 + b;
}

/* Returns x / 2. */
double half_f64(double x) {
  return x / 2;
}

/* Returns x * 2. */
float twice_f32(float x) {
  return x * 2;
}

/* Returns the sum of the n bytes at p (borrowed). */
int32_t sum_bytes(const uint8_t *p, int32_t n) {
  int32_t sum = 0;
  for (int32_t i = 0; i < n; i++)
    sum += p[i];
  return sum;
}

/* Does nothing. */
void nothing(void) {
}

/* Its own heap statistics, fixed: 100 live, 4096 + 8192 heap, 50 free. */
struct mallinfo2 mallinfo2(void) {
  struct mallinfo2 m = {0};
  m.uordblks = 100;
  m.arena = 4096;
  m.hblkhd = 8192;
  m.fordblks = 50;
  return m;
}
