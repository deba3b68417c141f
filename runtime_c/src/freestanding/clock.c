/* A freestanding target has no clock the core may assume, so profiled steps report zero time;
 * firmware times invokes with its own timer (e.g. the Cortex-M DWT cycle counter). */
#include "interp.h"

int64_t el_now_ns(void) { return 0; }
