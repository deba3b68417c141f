/* Small helpers shared by the test delegates.
 *
 * Real plugins (libedgetpu, TFLite's dummy external delegate) carry their own copies of the
 * TfLite C helpers, because hosts such as LiteRT's Python package load them with RTLD_LOCAL and
 * export nothing. The test delegates do the same by default, so they also load into LiteRT.
 * Built with -DPLUGIN_USE_HOST_HELPERS they leave TfLiteIntArrayCreate/Free/GetSizeInBytes and
 * TfLiteKernelInitFailed undefined, for the host to supply at load time as TFLite binaries do,
 * which is how the tests check that libedgelite provides them to plugins loaded after it. */
#ifndef EDGELITE_TEST_PLUGIN_UTIL_H_
#define EDGELITE_TEST_PLUGIN_UTIL_H_

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "edgelite/common.h"

#define PLUGIN_EXPORT __attribute__((visibility("default")))

#ifdef PLUGIN_USE_HOST_HELPERS
static inline TfLiteIntArray* pu_int_array(int n) { return TfLiteIntArrayCreate(n); }
static inline void pu_int_array_free(TfLiteIntArray* a) { TfLiteIntArrayFree(a); }
static inline size_t pu_int_array_bytes(int n) { return (size_t)TfLiteIntArrayGetSizeInBytes(n); }
static inline void* pu_init_failed(void) { return TfLiteKernelInitFailed(); }
#else
static inline size_t pu_int_array_bytes(int n) {
  return sizeof(TfLiteIntArray) + sizeof(int) * (size_t)(n > 0 ? n : 0);
}
/* malloc-backed like TFLite's own, so the host may free what we hand over (ResizeTensor). */
static inline TfLiteIntArray* pu_int_array(int n) {
  TfLiteIntArray* a = malloc(pu_int_array_bytes(n));
  if (a != NULL) a->size = n;
  return a;
}
static inline void pu_int_array_free(TfLiteIntArray* a) { free(a); }
/* TFLite's sentinel for a failed delegate kernel init. */
static inline void* pu_init_failed(void) { return (void*)(intptr_t)-1; }
#endif

static inline int pu_contains(const TfLiteIntArray* a, int x) {
  for (int i = 0; a != NULL && i < a->size; ++i) {
    if (a->data[i] == x) return 1;
  }
  return 0;
}

/* Parses "3,4,17" into codes[]; returns the count, or -1 on a malformed list or overflow. */
static inline int pu_parse_int_list(const char* text, int* codes, int cap) {
  int n = 0;
  const char* p = text;
  while (*p != '\0') {
    char* end = NULL;
    long v = strtol(p, &end, 10);
    if (end == p || v < 0 || v > 100000 || n == cap) return -1;
    codes[n++] = (int)v;
    p = end;
    if (*p == ',') {
      ++p;
      if (*p == '\0') return -1;
    } else if (*p != '\0') {
      return -1;
    }
  }
  return n;
}

#endif /* EDGELITE_TEST_PLUGIN_UTIL_H_ */
