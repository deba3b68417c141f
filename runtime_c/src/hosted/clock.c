/* The monotonic clock behind op profiling. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "interp.h"

int64_t el_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
